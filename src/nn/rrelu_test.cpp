// RReLU: the evaluation slope against torch.nn.RReLU().eval()
// (tests/fixtures/nn_layers/activations_extra.json, scripts/gen_activation_fixtures.py), and the training
// behaviour (random slopes in [lower, upper], the gradient equal to the slope used) on an autodiff device.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace rrelu_test {

namespace {

TEST(NnRRelu, EvaluationMatchesPyTorch) {
    // The fixture harness runs on an autodiff device: evaluation there is lower == upper, or a module
    // moved off it; compare the plain-device values and check the gradient by hand.
    auto f = nn_test::load_fixture("activations_extra");
    auto x = f.floats<3>("x");
    EXPECT_TRUE(nn_test::close(nn::RReluConfig{0.1, 0.3}.init().forward(x), f.at("y.rrelu_eval")));
    EXPECT_TRUE(nn_test::close(nn::RReluConfig{}.init().forward(x), f.at("y.rrelu_eval_default")));
    // lower == upper is deterministic on autodiff devices too: the gradient is PyTorch's eval gradient
    // for slope 0.2.
    nn_test::expect_activations_match_pytorch({{"rrelu_eval",
                                                [](const Tensor<3>& v) {
                                                    return nn::RReluConfig{0.2, 0.2}.init().forward(v);
                                                }}},
                                              "activations_extra");
}

TEST(NnRRelu, TrainingDrawsSlopesInRangeAndBackpropagatesThem) {
    auto dev = Device().autodiff();
    const int64_t n = 4000;
    auto x = (Tensor<1>::arange(0, n, dev) - 1999.5).require_grad();  // half negative
    auto rrelu = nn::RReluConfig{0.1, 0.3}.init();
    auto y = rrelu.forward(x);
    auto g = *x.grad(y.sum().backward());
    auto xv = x.into_data().to_vec<float>(), yv = y.into_data().to_vec<float>(),
         gv = g.into_data().to_vec<float>();
    double lo = 1, hi = 0, mean = 0;
    int negatives = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (xv[i] >= 0) {
            EXPECT_EQ(yv[i], xv[i]);
            EXPECT_EQ(gv[i], 1.0f);
            continue;
        }
        const double slope = yv[i] / xv[i];
        EXPECT_NEAR(gv[i], slope, 1e-5) << "the gradient is the slope drawn for element " << i;
        lo = std::min(lo, slope);
        hi = std::max(hi, slope);
        mean += slope;
        ++negatives;
    }
    mean /= negatives;
    EXPECT_GE(lo, 0.1 - 1e-6);
    EXPECT_LE(hi, 0.3 + 1e-6);
    EXPECT_GT(hi - lo, 0.15) << "the slopes are not spread over [lower, upper]";
    EXPECT_NEAR(mean, 0.2, 0.01);
    // valid() / a plain device: the mean slope.
    auto e = rrelu.forward(Tensor<1>::from_floats({-1.0, 2.0})).into_data().to_vec<float>();
    EXPECT_FLOAT_EQ(e[0], -0.2f);
    EXPECT_FLOAT_EQ(e[1], 2.0f);
}

TEST(NnRRelu, LowerAboveUpperIsAnError) {
    try {
        nn::RReluConfig{0.5, 0.2}.init();
        FAIL() << "lower > upper was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[RReluConfig]"), std::string::npos) << e.what();
    }
}

}  // namespace

}  // namespace rrelu_test
