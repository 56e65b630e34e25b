// CrossEntropyLoss with probability (soft) targets against torch.nn.functional.cross_entropy with a
// Float target (losses_extra.json): plain, class weights, label smoothing, both, no reduction, and
// probabilities as inputs (logits = false); values and gradients.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace cross_entropy_probs_test {

namespace {

TEST(NnCrossEntropyProbs, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto probs = f.floats<2>("ce.probs", dev);
    auto w = f.at("ce.w").to_vec<float>();
    auto run = [&](const std::string& key, nn::loss::CrossEntropyLossConfig cfg,
                   std::optional<Reduction> red) {
        auto x = f.floats<2>("ce.logits", dev).require_grad();
        auto loss_fn = cfg.init(dev);
        if (red)
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward_probs(x, probs, *red),
                                           {{"logits", x.handle()}});
        else
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward_probs_no_reduction(x, probs),
                                           {{"logits", x.handle()}});
    };
    run("ce.mean", {}, Reduction::Mean);
    run("ce.none", {}, std::nullopt);
    run("ce.w.mean", {std::nullopt, w, std::nullopt}, Reduction::Mean);
    run("ce.s.mean", {std::nullopt, std::nullopt, 0.1}, Reduction::Mean);
    run("ce.ws.sum", {std::nullopt, w, 0.2}, Reduction::Sum);
    auto in = f.floats<2>("ce.inputs", dev).require_grad();
    auto loss_fn =
        nn::loss::CrossEntropyLossConfig{std::nullopt, std::nullopt, std::nullopt, false}.init(dev);
    nn_test::expect_loss_and_grads(f, "ce.probs_in.mean", loss_fn.forward_probs(in, probs),
                                   {{"inputs", in.handle()}});
}

TEST(NnCrossEntropyProbs, OneHotTargetsAgreeWithClassIndices) {
    auto logits = Tensor<2>::from_floats({{1.0, -0.5, 2.0}, {0.3, 0.1, -1.0}});
    auto loss_fn = nn::loss::CrossEntropyLossConfig{}.init();
    auto by_index = loss_fn.forward(logits, Tensor<1, Int>::from_ints({2, 0})).into_scalar();
    auto by_probs =
        loss_fn.forward_probs(logits, Tensor<2>::from_floats({{0, 0, 1}, {1, 0, 0}})).into_scalar();
    EXPECT_NEAR(by_index, by_probs, 1e-6);
}

TEST(NnCrossEntropyProbs, Errors) {
    auto loss_fn = nn::loss::CrossEntropyLossConfig{}.init();
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward_probs(Tensor<2>::zeros({4, 5}), Tensor<2>::zeros({4, 3}));
        },
        {"[CrossEntropyLoss]", "[4, 5]", "[4, 3]"});
    auto padded =
        nn::loss::CrossEntropyLossConfig{std::vector<int64_t>{0}, std::nullopt, std::nullopt}.init();
    nn_test::expect_error_mentions(
        [&] {
            padded.forward_probs(Tensor<2>::zeros({2, 3}), Tensor<2>::zeros({2, 3}));
        },
        {"[CrossEntropyLoss]", "pad_tokens"});
}

}  // namespace

}  // namespace cross_entropy_probs_test
