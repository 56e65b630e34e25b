// LpLoss (burn's |prediction - target|^p) against the same expression in PyTorch (losses_extra.json):
// p = 1, 2, 3 and 0.5, mean and sum, no reduction and a per-sample mean over dims {1, 2}; values and
// gradients.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace lp_test {

namespace {

TEST(NnLpLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto target = f.floats<3>("lp.target", dev);
    for (double p : {1.0, 2.0, 3.0, 0.5}) {
        for (auto [red, rname] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
            auto x = f.floats<3>("lp.pred", dev).require_grad();
            std::ostringstream key;
            key << "lp.p" << p << "." << rname;
            nn_test::expect_loss_and_grads(f, key.str(),
                                           nn::loss::LpLossConfig{p}.init().forward(x, target, red),
                                           {{"pred", x.handle()}});
        }
    }
    auto x = f.floats<3>("lp.pred", dev).require_grad();
    nn_test::expect_loss_and_grads(f, "lp.p3.none", nn::loss::LpLoss{3.0}.forward_no_reduction(x, target),
                                   {{"pred", x.handle()}});
    auto x2 = f.floats<3>("lp.pred", dev).require_grad();
    nn_test::expect_loss_and_grads(f, "lp.p2.dims12",
                                   nn::loss::LpLossConfig::l2().forward_reduce_dims(x2, target, {2, -2}),
                                   {{"pred", x2.handle()}});
    EXPECT_EQ(nn::loss::LpLossConfig::l1().p, 1.0);
}

TEST(NnLpLoss, Errors) {
    EXPECT_THROW(nn::loss::LpLossConfig{0.0}.init(), Error);
    nn_test::expect_error_mentions(
        [] {
            nn::loss::LpLoss{}.forward(Tensor<2>::zeros({2, 3}), Tensor<2>::zeros({3, 2}), Reduction::Mean);
        },
        {"[LpLoss]", "[2, 3]", "[3, 2]"});
    nn_test::expect_error_mentions(
        [] {
            nn::loss::LpLoss{}.forward_reduce_dims(Tensor<2>::zeros({2, 3}), Tensor<2>::zeros({2, 3}),
                                                   {1, -1});
        },
        {"[LpLoss]", "repeat"});
    EXPECT_THROW(
        nn::loss::LpLoss{}.forward_reduce_dims(Tensor<2>::zeros({2, 3}), Tensor<2>::zeros({2, 3}), {2}),
        ShapeError);
}

}  // namespace

}  // namespace lp_test
