// GaussianNllLoss against torch.nn.functional.gaussian_nll_loss (losses_extra.json): a variance below eps
// (clamped but differentiated as the identity, as PyTorch), one variance per row, full, every reduction;
// values and the gradients of the input and the variance.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace gaussian_nll_test {

namespace {

TEST(NnGaussianNllLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto target = f.floats<2>("gnll.target", dev);
    auto run = [&](const std::string& name, const std::string& var_key, bool full,
                   std::optional<Reduction> red) {
        auto x = f.floats<2>("gnll.input", dev).require_grad();
        auto var = f.floats<2>("gnll." + var_key, dev).require_grad();
        auto loss_fn = nn::loss::GaussianNllLossConfig{full}.init();
        nn_test::Leaves leaves{{"input", x.handle()}, {"var", var.handle()}};
        if (red)
            nn_test::expect_loss_and_grads(f, "gnll." + name, loss_fn.forward(x, target, var, *red), leaves,
                                           1e-5, 2e-4);
        else
            nn_test::expect_loss_and_grads(f, "gnll." + name, loss_fn.forward_no_reduction(x, target, var),
                                           leaves, 1e-5, 2e-4);
    };
    run("mean", "var", false, Reduction::Mean);
    run("sum", "var", false, Reduction::Sum);
    run("none", "var", false, std::nullopt);
    run("full.mean", "var", true, Reduction::Mean);
    run("row.mean", "var_row", false, Reduction::Mean);
}

TEST(NnGaussianNllLoss, Errors) {
    auto loss_fn = nn::loss::GaussianNllLossConfig{}.init();
    auto x = Tensor<2>::zeros({4, 3});
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(x, x, Tensor<2>::ones({4, 2}), Reduction::Mean);
        },
        {"[GaussianNllLoss]", "[4, 2]", "[4, 3]", "last dim of 1"});
    EXPECT_THROW(loss_fn.forward(x, x, Tensor<2>::ones({3, 3}), Reduction::Mean), ShapeError);
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(x, x, Tensor<2>::full({4, 3}, -1.0), Reduction::Mean);
        },
        {"[GaussianNllLoss]", "negative"});
    EXPECT_THROW(loss_fn.forward(x, Tensor<2>::zeros({4, 1}), x, Reduction::Mean), ShapeError);
    EXPECT_THROW((nn::loss::GaussianNllLossConfig{false, -1.0}.init()), Error);
}

}  // namespace

}  // namespace gaussian_nll_test
