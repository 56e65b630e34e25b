// Binary cross-entropy against torch.nn.functional (values and input gradients, weights, smoothing,
// logits or probabilities), float targets and errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace binary_cross_entropy_test {

namespace {

TEST(NnBinaryCrossEntropyLoss, BinaryCrossEntropyMatchesPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto check = [&](const std::string& name, auto logits_key, auto targets_key,
                     nn::loss::BinaryCrossEntropyLoss bce, bool sigmoid_first, auto rank) {
        constexpr std::size_t D = decltype(rank)::value;
        auto x = f.floats<D>(logits_key, dev).require_grad();
        auto t = f.ints<D>(targets_key, dev);
        auto in = sigmoid_first ? activation::sigmoid(x) : x;
        auto loss = bce.forward(in, t);
        EXPECT_TRUE(close(loss, f.at("bce.loss." + name))) << name;
        auto grads = loss.backward();
        EXPECT_TRUE(close(*x.grad(grads), f.at("bce.g." + name))) << name;
    };
    using R1 = std::integral_constant<std::size_t, 1>;
    using R2 = std::integral_constant<std::size_t, 2>;
    auto cfg = nn::loss::BinaryCrossEntropyLossConfig{};
    check("logits1", "bce.logits1", "bce.t1", cfg.with_logits(true).init(), false, R1{});
    check("probs1", "bce.logits1", "bce.t1", cfg.init(), true, R1{});
    check("logits2", "bce.logits2", "bce.t2", cfg.with_logits(true).init(), false, R2{});
    check("logits2_w", "bce.logits2", "bce.t2",
          cfg.with_logits(true).with_weights(std::vector<float>{0.5f, 1.0f, 2.0f}).init(), false, R2{});
    check("logits1_w", "bce.logits1", "bce.t1",
          cfg.with_logits(true).with_weights(std::vector<float>{0.3f, 1.7f}).init(), false, R1{});
    check("logits2_s", "bce.logits2", "bce.t2", cfg.with_logits(true).with_smoothing(0.2).init(), false,
          R2{});
    check("probs2_ws", "bce.logits2", "bce.t2",
          cfg.with_weights(std::vector<float>{0.5f, 1.0f, 2.0f}).with_smoothing(0.1).init(), true, R2{});
}

TEST(NnBinaryCrossEntropyLoss, BinaryCrossEntropyFloatTargetsAndErrors) {
    auto bce = nn::loss::BinaryCrossEntropyLossConfig{}.with_logits(true).init();
    auto x = Tensor<1>::from_floats({0.3, -1.2});
    // Float 0/1 targets give the Int result; soft targets are allowed.
    auto a = bce.forward(x, Tensor<1, Int>::from_ints({1, 0})).into_scalar();
    auto b = bce.forward(x, Tensor<1>::from_floats({1.0, 0.0})).into_scalar();
    EXPECT_FLOAT_EQ(a, b);
    EXPECT_GT(bce.forward(x, Tensor<1>::from_floats({0.5, 0.5})).into_scalar(), 0.0f);
    EXPECT_THROW(bce.forward(x, Tensor<1, Int>::from_ints({1, 0, 1})), ShapeError);
    auto w3 = nn::loss::BinaryCrossEntropyLossConfig{}.with_weights(std::vector<float>{1, 2, 3}).init();
    EXPECT_THROW(w3.forward(Tensor<1>::from_floats({0.5, 0.5}), Tensor<1, Int>::from_ints({1, 0})),
                 ShapeError);
    EXPECT_THROW(nn::loss::BinaryCrossEntropyLossConfig{}.with_smoothing(1.5).init(), Error);
    // Probabilities of exactly 0 and 1 stay finite (logs clamped at -100).
    auto p = nn::loss::BinaryCrossEntropyLossConfig{}.init();
    float v = p.forward(Tensor<1>::from_floats({0.0, 1.0}), Tensor<1, Int>::from_ints({1, 0})).into_scalar();
    EXPECT_FLOAT_EQ(v, 100.0f);
}

}  // namespace

}  // namespace binary_cross_entropy_test
