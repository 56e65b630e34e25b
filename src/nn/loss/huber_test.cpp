// Huber, smooth L1 and L1 losses against torch.nn.functional, values and input gradients, every
// reduction.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace huber_test {

namespace {

TEST(NnHuberLoss, HuberSmoothL1AndL1MatchPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto q = f.floats<2>("q", dev);
    auto huber = nn::loss::HuberLossConfig{0.7}.init();
    auto smooth = nn::loss::SmoothL1LossConfig{0.5}.init();
    nn::loss::L1Loss l1;
    for (auto [reduction, rname] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        const Reduction red = reduction;  // lambdas below capture it (clang < 16 cannot capture a binding)
        auto run = [&](const std::string& key, auto&& fn) {
            auto p = f.floats<2>("p", dev).require_grad();
            auto loss = fn(p);
            EXPECT_TRUE(close(loss, f.at(key))) << key;
            EXPECT_TRUE(close(*p.grad(loss.backward()), f.at("g." + key))) << key;
        };
        run(std::string("huber.") + rname, [&](const Tensor<2>& p) { return huber.forward(p, q, red); });
        run(std::string("smooth_l1.") + rname, [&](const Tensor<2>& p) { return smooth.forward(p, q, red); });
        run(std::string("l1.") + rname, [&](const Tensor<2>& p) { return l1.forward(p, q, red); });
    }
    auto p = f.floats<2>("p");
    EXPECT_TRUE(close(huber.forward_no_reduction(p, q.inner()), f.at("huber.none")));
    EXPECT_THROW(huber.forward(p, Tensor<2>::zeros({3, 4}), Reduction::Mean), ShapeError);
    EXPECT_THROW(nn::loss::HuberLossConfig{0.0}.init(), Error);
    // beta = 0 is L1.
    auto l1_like = nn::loss::SmoothL1LossConfig{0.0}.init();
    EXPECT_TRUE(close(l1_like.forward(p, q.inner(), Reduction::Sum), f.at("l1.sum").convert(DType::f32)));
}

}  // namespace

}  // namespace huber_test
