// MultiMarginLoss against torch.nn.functional.multi_margin_loss (losses_extra.json): p = 1 and 2, a
// margin, class weights, every reduction; values and input gradients.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace multi_margin_test {

namespace {

TEST(NnMultiMarginLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto t = f.ints<1>("multi.t", dev);
    auto wd = f.at("multi.w").to_vec<float>();
    auto run = [&](const std::string& key, nn::loss::MultiMarginLossConfig cfg,
                   std::optional<Reduction> red) {
        auto x = f.floats<2>("multi.x", dev).require_grad();
        auto loss_fn = cfg.init();
        if (red)
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward(x, t, *red), {{"x", x.handle()}});
        else
            nn_test::expect_loss_and_grads(f, key, loss_fn.forward_no_reduction(x, t), {{"x", x.handle()}});
    };
    run("multi.mean", {}, Reduction::Mean);
    run("multi.sum", {}, Reduction::Sum);
    run("multi.none", {}, std::nullopt);
    run("multi.p2.sum", {2, 0.5}, Reduction::Sum);
    run("multi.w.mean", {1, 1.0, wd}, Reduction::Mean);
}

TEST(NnMultiMarginLoss, Errors) {
    auto loss_fn = nn::loss::MultiMarginLossConfig{}.init();
    nn_test::expect_error_mentions(
        [&] {
            loss_fn.forward(Tensor<2>::zeros({4, 5}), Tensor<1, Int>::from_ints({0, 1, 2}), Reduction::Mean);
        },
        {"[MultiMarginLoss]", "[4, 5]", "[3]", "[batch, classes] and [batch]"});
    EXPECT_THROW(nn::loss::MultiMarginLossConfig{3}.init(), Error);
    auto weighted = nn::loss::MultiMarginLossConfig{1, 1.0, std::vector<float>{1.0f, 2.0f}}.init();
    nn_test::expect_error_mentions(
        [&] {
            weighted.forward(Tensor<2>::zeros({2, 5}), Tensor<1, Int>::from_ints({0, 1}), Reduction::Mean);
        },
        {"[MultiMarginLoss]", "2 class weights for 5 classes"});
    EXPECT_THROW(
        loss_fn.forward(Tensor<2>::zeros({2, 5}), Tensor<1, Int>::from_ints({0, 7}), Reduction::Mean),
        Error);  // out of range
}

}  // namespace

}  // namespace multi_margin_test
