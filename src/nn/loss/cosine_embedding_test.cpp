// Cosine embedding loss against torch.nn.functional, values and input gradients, every reduction.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace cosine_embedding_test {

namespace {

TEST(NnCosineEmbeddingLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto y = f.ints<1>("cos.y", dev);
    for (auto [red, name] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        auto loss_fn = nn::loss::CosineEmbeddingLossConfig{0.2, red}.init();
        auto a = f.floats<2>("cos.x1", dev).require_grad();
        auto b = f.floats<2>("cos.x2", dev).require_grad();
        auto loss = loss_fn.forward(a, b, y);
        EXPECT_TRUE(close(loss, f.at(std::string("cos.") + name))) << name;
        auto grads = loss.backward();
        EXPECT_TRUE(close(*a.grad(grads), f.at(std::string("cos.g1.") + name))) << name;
        EXPECT_TRUE(close(*b.grad(grads), f.at(std::string("cos.g2.") + name))) << name;
    }
    auto loss_fn = nn::loss::CosineEmbeddingLossConfig{0.2}.init();
    EXPECT_TRUE(close(loss_fn.forward_no_reduction(f.floats<2>("cos.x1"), f.floats<2>("cos.x2"), y.inner()),
                      f.at("cos.none")));
    EXPECT_THROW(
        loss_fn.forward(f.floats<2>("cos.x1"), f.floats<2>("cos.x1"), Tensor<1, Int>::from_ints({1, -1})),
        ShapeError);
    auto back = nn::loss::CosineEmbeddingLossConfig::from_json_string(
        nn::loss::CosineEmbeddingLossConfig{0.5, Reduction::Sum}.to_json_string());
    EXPECT_EQ(back.reduction, Reduction::Sum);
}

}  // namespace

}  // namespace cosine_embedding_test
