// RmsNorm against a formula fixture, its gamma gradient, shapes and errors.
#include <cmath>

#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace rms_norm_test {

namespace {

TEST(NnRmsNorm, MatchesFormula) {
    auto f = nn_test::load_fixture("rms_norm");
    auto rms = nn::RmsNormConfig{f.cfg_size("d_model")}.init();
    EXPECT_EQ(nn_test::load_params(rms, f), 1u);
    EXPECT_TRUE(close(rms.forward(f.floats<3>("x")), f.at("y")));
    EXPECT_TRUE(close(rms.forward(nn_test::as_view(f.floats<3>("x"))), f.at("y")));
    EXPECT_THROW(rms.forward(Tensor<2>::zeros({2, 7})), ShapeError);
    EXPECT_THROW(nn::RmsNormConfig{8}.with_epsilon(0.0).init(), Error);
}

TEST(NnRmsNorm, GradientOfGammaIsNormalisedInput) {
    auto dev = Device().autodiff();
    auto rms = nn::RmsNormConfig{4}.init(dev);
    auto x = Tensor<2>::from_floats({{1, 2, 3, 4}, {-1, 0, 1, 0}}, dev);
    auto grads = rms.forward(x).sum().backward();
    auto g = rms.gamma.val().grad(grads);
    ASSERT_TRUE(g.has_value());
    // d/dgamma sum(x / rms(x) * gamma) = sum over rows of x / rms(x)
    double r0 = std::sqrt((1 + 4 + 9 + 16) / 4.0 + 1e-5), r1 = std::sqrt(2 / 4.0 + 1e-5);
    std::vector<float> expect{float(1 / r0 - 1 / r1), float(2 / r0), float(3 / r0 + 1 / r1), float(4 / r0)};
    EXPECT_TRUE(close(*g, TensorData(expect, Dims{4})));
}

}  // namespace

}  // namespace rms_norm_test
