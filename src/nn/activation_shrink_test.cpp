// The thresholding activation modules (HardShrink, SoftShrink, Threshold, ThresholdedRelu) against
// torch.nn activations (tests/fixtures/nn_layers/activations_extra.json, scripts/gen_activation_fixtures.py):
// values and gradients; burn's general Shrink against burn's own test values.
#include <cmath>

#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_shrink_test {

namespace {

TEST(NnActivationShrink, ForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch(
        {
            {"hard_shrink", [](const Tensor<3>& x) { return nn::HardShrinkConfig{}.init().forward(x); }},
            {"hard_shrink_a", [](const Tensor<3>& x) { return nn::HardShrinkConfig{1.2}.init().forward(x); }},
            {"soft_shrink", [](const Tensor<3>& x) { return nn::SoftShrinkConfig{}.init().forward(x); }},
            {"soft_shrink_a", [](const Tensor<3>& x) { return nn::SoftShrinkConfig{1.2}.init().forward(x); }},
            {"threshold",
             [](const Tensor<3>& x) {
                 return nn::ThresholdConfig{0.3, -2.0}.init().forward(x);
             }},
            {"thresholded_relu",
             [](const Tensor<3>& x) { return nn::ThresholdedReluConfig{}.init().forward(x); }},
            {"thresholded_relu_a",
             [](const Tensor<3>& x) { return nn::ThresholdedReluConfig{0.3}.init().forward(x); }},
        },
        "activations_extra");
}

TEST(NnActivationShrink, FunctionsMatchModulesOnF64) {
    const std::vector<double> values{-2.0, -0.7, -0.2, 0.0, 0.4, 0.9, 3.0};
    auto x = Tensor<1>::from_data(TensorData(values, Dims{7}));
    ASSERT_EQ(x.dtype(), DType::f64);
    auto expect = [](const Tensor<1>& y, std::vector<double> want) {
        auto got = y.into_data().to_vec<double>();
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
    };
    expect(activation::hard_shrink(x, 0.5), {-2.0, -0.7, 0, 0, 0, 0.9, 3.0});
    expect(activation::soft_shrink(x, 0.5), {-1.5, -0.2, 0, 0, 0, 0.4, 2.5});
    expect(activation::threshold(x, 0.4, 7.0), {7, 7, 7, 7, 7, 0.9, 3.0});  // x == threshold is replaced
    expect(activation::thresholded_relu(x, 0.9), {0, 0, 0, 0, 0, 0, 3.0});
}

TEST(NnActivationShrink, ShrinkMatchesBurnAndGeneralisesSoftShrink) {
    // burn's Shrink tests: the defaults (lambda 0.5, bias 0.5), then lambda 0.25 with bias 0.125
    auto x = Tensor<2>::from_floats({{0.5, -0.5, -1.0}, {8.0, 0.3, 0.0}});
    EXPECT_EQ(nn::ShrinkConfig{}.init().forward(x).to_vec<float>(),
              (std::vector<float>{0, 0, -0.5, 7.5, 0, 0}));
    auto y = Tensor<2>::from_floats({{0.125, -0.125, -0.5}, {0.75, 0.1, 0.0}});
    const nn::Shrink custom = nn::ShrinkConfig{0.25, 0.125}.init();
    EXPECT_EQ(custom.forward(y).to_vec<float>(), (std::vector<float>{0, 0, -0.375, 0.625, 0, 0}));
    // shrink(x, l, l) is soft_shrink; bias 0 keeps x where |x| > lambda, as hard_shrink
    auto z = Tensor<1>::from_floats({-2.0, -0.7, -0.2, 0.0, 0.4, 0.9, 3.0});
    EXPECT_EQ(activation::shrink(z, 0.5, 0.5).to_vec<float>(),
              activation::soft_shrink(z, 0.5).to_vec<float>());
    EXPECT_EQ(activation::shrink(z, 0.5, 0.0).to_vec<float>(),
              activation::hard_shrink(z, 0.5).to_vec<float>());
    // NaN stays NaN (burn's rule); the gradient is 1 where |x| > lambda, 0 elsewhere
    EXPECT_TRUE(std::isnan(activation::shrink(Tensor<1>::from_floats({NAN}), 0.5, 0.5).into_scalar()));
    auto ad = Device().autodiff();
    auto xa = Tensor<1>::from_floats({-2.0, -0.3, 0.4, 0.9}, ad).require_grad();
    auto g = xa.grad(activation::shrink(xa, 0.5, 0.25).sum().backward()).value();
    EXPECT_EQ(g.to_vec<float>(), (std::vector<float>{1, 0, 0, 1}));
    auto cfg = nn::ShrinkConfig::from_json_string(nn::ShrinkConfig{0.3, 0.1}.to_json_string());
    EXPECT_EQ(cfg.lambda, 0.3);
    EXPECT_EQ(cfg.bias, 0.1);
    EXPECT_THROW((void)activation::any::shrink(Tensor<1, Bool>::from_bool({true}).handle(), 0.5, 0.5), Error);
}

TEST(NnActivationShrink, ErrorsNameTheOp) {
    EXPECT_THROW(nn::HardShrinkConfig{-0.1}.init(), Error);
    EXPECT_THROW(nn::SoftShrinkConfig{-1.0}.init(), Error);
    try {
        activation::soft_shrink(Tensor<1>::from_floats({1.0, 2.0}), -1.0);
        FAIL() << "a negative lambda was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[soft_shrink]"), std::string::npos) << e.what();
    }
    auto ints = Tensor<1, Int>::from_ints({1, -2});
    EXPECT_THROW(TensorAny(activation::any::hard_shrink(ints.handle(), 0.5)), Error);
    auto cfg = nn::ThresholdConfig::from_json_string(nn::ThresholdConfig{0.5, -1.0}.to_json_string());
    EXPECT_EQ(cfg.value, -1.0);
}

}  // namespace

}  // namespace activation_shrink_test
