// PoissonNllLoss against torch.nn.functional.poisson_nll_loss (losses_extra.json): log-rate and rate
// inputs, the Stirling term, every reduction, values and input gradients.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace poisson_nll_test {

namespace {

TEST(NnPoissonNllLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto target = f.floats<2>("pois.target", dev);
    auto run = [&](const std::string& name, const std::string& input, nn::loss::PoissonNllLossConfig cfg,
                   std::optional<Reduction> red) {
        auto x = f.floats<2>("pois." + input, dev).require_grad();
        auto loss_fn = cfg.init();
        if (red)
            nn_test::expect_loss_and_grads(f, "pois." + name, loss_fn.forward(x, target, *red),
                                           {{"input", x.handle()}});
        else
            nn_test::expect_loss_and_grads(f, "pois." + name, loss_fn.forward_no_reduction(x, target),
                                           {{"input", x.handle()}});
    };
    run("log.mean", "input", {}, Reduction::Mean);
    run("log.sum", "input", {}, Reduction::Sum);
    run("log.none", "input", {}, std::nullopt);
    run("rate.mean", "rate", {false}, Reduction::Mean);
    run("full.mean", "input", {true, true}, Reduction::Mean);
    run("rate_full.sum", "rate", {false, true}, Reduction::Sum);
}

TEST(NnPoissonNllLoss, Errors) {
    auto loss_fn = nn::loss::PoissonNllLossConfig{}.init();
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(Tensor<2>::zeros({3, 5}), Tensor<2>::zeros({3, 4}), Reduction::Mean);
        },
        {"[PoissonNllLoss]", "[3, 5]", "[3, 4]"});
    EXPECT_THROW(loss_fn.forward(Tensor<2>::zeros({3, 5}), Tensor<2>::zeros({3, 4}), Reduction::Mean),
                 ShapeError);
    EXPECT_THROW((nn::loss::PoissonNllLossConfig{true, false, 0.0}.init()), Error);
}

}  // namespace

}  // namespace poisson_nll_test
