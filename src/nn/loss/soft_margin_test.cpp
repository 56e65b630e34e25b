// SoftMarginLoss against torch.nn.functional.soft_margin_loss (losses_extra.json): every reduction,
// values and input gradients, plus large margins that must stay finite.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace soft_margin_test {

namespace {

TEST(NnSoftMarginLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto y = f.floats<2>("hinge.y", dev);
    nn::loss::SoftMarginLoss loss_fn;
    for (auto [red, name] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        auto x = f.floats<2>("hinge.x", dev).require_grad();
        nn_test::expect_loss_and_grads(f, std::string("soft.") + name, loss_fn.forward(x, y, red),
                                       {{"x", x.handle()}});
    }
    auto x = f.floats<2>("hinge.x", dev).require_grad();
    nn_test::expect_loss_and_grads(f, "soft.none", loss_fn.forward_no_reduction(x, f.ints<2>("hinge.y", dev)),
                                   {{"x", x.handle()}});
}

TEST(NnSoftMarginLoss, LargeMarginsStayFinite) {
    auto loss = nn::loss::SoftMarginLoss{}.forward_no_reduction(Tensor<1>::from_floats({200.0, -200.0}),
                                                                Tensor<1>::from_floats({1.0, 1.0}));
    auto v = loss.into_data().to_vec<float>();
    EXPECT_NEAR(v[0], 0.0f, 1e-6);
    EXPECT_NEAR(v[1], 200.0f, 1e-3);
}

TEST(NnSoftMarginLoss, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::loss::SoftMarginLoss{}.forward(Tensor<1>::zeros({4}), Tensor<1>::ones({3}), Reduction::Sum);
        },
        {"[SoftMarginLoss]", "[4]", "[3]"});
    EXPECT_THROW(
        nn::loss::SoftMarginLoss{}.forward(Tensor<1>::zeros({4}), Tensor<1>::ones({3}), Reduction::Sum),
        ShapeError);
}

}  // namespace

}  // namespace soft_margin_test
