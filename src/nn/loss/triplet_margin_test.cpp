// TripletMarginLoss against torch.nn.functional.triplet_margin_loss (losses_extra.json): p = 1, 2, 3, a
// margin, the distance swap, every reduction; values and the gradients of anchor, positive, negative.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace triplet_margin_test {

namespace {

TEST(NnTripletMarginLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto run = [&](const std::string& key, nn::loss::TripletMarginLossConfig cfg,
                   std::optional<Reduction> red) {
        auto a = f.floats<2>("triplet.a", dev).require_grad();
        auto p = f.floats<2>("triplet.p", dev).require_grad();
        auto n = f.floats<2>("triplet.n", dev).require_grad();
        auto loss_fn = cfg.init();
        nn_test::Leaves leaves{{"a", a.handle()}, {"p", p.handle()}, {"n", n.handle()}};
        if (red)
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward(a, p, n, *red), leaves);
        else
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward_no_reduction(a, p, n), leaves);
    };
    run("triplet.mean", {}, Reduction::Mean);
    run("triplet.sum", {}, Reduction::Sum);
    run("triplet.none", {}, std::nullopt);
    run("triplet.p1m05.sum", {0.5, 1.0}, Reduction::Sum);
    run("triplet.swap.mean", {1.0, 2.0, 1e-6, true}, Reduction::Mean);
    run("triplet.p3.mean", {1.0, 3.0}, Reduction::Mean);
}

TEST(NnTripletMarginLoss, Errors) {
    auto loss_fn = nn::loss::TripletMarginLossConfig{}.init();
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(Tensor<2>::zeros({5, 4}), Tensor<2>::zeros({5, 4}), Tensor<2>::zeros({5, 3}),
                            Reduction::Mean);
        },
        {"[TripletMarginLoss]", "[5, 4]", "[5, 3]", "[batch, dim]"});
    EXPECT_THROW(nn::loss::TripletMarginLossConfig{-1.0}.init(), Error);
    EXPECT_THROW((nn::loss::TripletMarginLossConfig{1.0, 0.0}.init()), Error);
}

}  // namespace

}  // namespace triplet_margin_test
