// MarginRankingLoss against torch.nn.functional.margin_ranking_loss (losses_extra.json): every
// reduction and a margin of 0.3; values and the gradients of both inputs.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace margin_ranking_test {

namespace {

TEST(NnMarginRankingLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto y = f.floats<1>("rank.y", dev);
    auto run = [&](const std::string& key, double margin, std::optional<Reduction> red) {
        auto x1 = f.floats<1>("rank.x1", dev).require_grad();
        auto x2 = f.floats<1>("rank.x2", dev).require_grad();
        auto loss_fn = nn::loss::MarginRankingLossConfig{margin}.init();
        nn_test::Leaves leaves{{"x1", x1.handle()}, {"x2", x2.handle()}};
        if (red)
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward(x1, x2, y, *red), leaves);
        else
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward_no_reduction(x1, x2, y.int_()), leaves);
    };
    run("rank.mean", 0.0, Reduction::Mean);
    run("rank.sum", 0.0, Reduction::Sum);
    run("rank.none", 0.0, std::nullopt);
    run("rank.m03.mean", 0.3, Reduction::Mean);
}

TEST(NnMarginRankingLoss, Errors) {
    auto loss_fn = nn::loss::MarginRankingLoss{};
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(Tensor<1>::zeros({6}), Tensor<1>::zeros({5}), Tensor<1>::ones({6}),
                            Reduction::Mean);
        },
        {"[MarginRankingLoss]", "[6]", "[5]"});
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(Tensor<1>::zeros({6}), Tensor<1>::zeros({6}), Tensor<1>::ones({2}),
                            Reduction::Mean);
        },
        {"[MarginRankingLoss]", "target [2]"});
}

}  // namespace

}  // namespace margin_ranking_test
