// The activation modules nn::Sigmoid, nn::SiLU and nn::Tanh (and their configs): forward equals the
// formula, evaluated in float64, on a rank-3 input; the gradient through autodiff equals the analytic
// derivative; the module keeps the input's shape, dtype and device.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_module_test {

using Fn = std::function<double(double)>;

double sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

/// 60 points on [-8, 8] (both saturated tails and the middle), as a [3, 4, 5] tensor.
std::vector<double> inputs() {
    std::vector<double> v;
    for (int i = 0; i < 60; ++i) v.push_back(-8.0 + 16.0 * i / 59.0);
    return v;
}

template <class M>
void check(const std::string& name, const M& module, const Fn& f, const Fn& df) {
    SCOPED_TRACE(name);
    const Device dev = Device().autodiff();
    const std::vector<double> xs = inputs();
    auto x = Tensor<3>::from_data(TensorData(xs, Dims{3, 4, 5}), dev).cast(DType::f32).require_grad();
    Tensor<3> y = module.forward(x);
    EXPECT_EQ(y.dims(), (Shape<3>{3, 4, 5}));
    EXPECT_EQ(y.dtype(), DType::f32);
    EXPECT_EQ(y.device(), dev);
    auto got = y.cast(DType::f64).to_vec<double>();
    auto grads = y.sum().backward();
    auto g = x.grad(grads);
    ASSERT_TRUE(g.has_value());
    auto dgot = g->cast(DType::f64).to_vec<double>();
    for (std::size_t i = 0; i < xs.size(); ++i) {
        // the f32 input the module saw
        const double xi = static_cast<double>(static_cast<float>(xs[i]));
        EXPECT_NEAR(got[i], f(xi), 2e-6 * std::max(1.0, std::abs(f(xi)))) << "x = " << xi;
        EXPECT_NEAR(dgot[i], df(xi), 2e-6 * std::max(1.0, std::abs(df(xi)))) << "x = " << xi;
    }
    // A float64 input stays float64 and agrees to double precision.
    auto x64 =
        Tensor<1>::from_data(TensorData(std::vector<double>{-1.25, 0.0, 0.75}, Dims{3}), Device::cpu());
    auto y64 = module.forward(x64);
    EXPECT_EQ(y64.dtype(), DType::f64);
    auto v64 = y64.template to_vec<double>();
    EXPECT_NEAR(v64[0], f(-1.25), 1e-12);
    EXPECT_NEAR(v64[1], f(0.0), 1e-12);
    EXPECT_NEAR(v64[2], f(0.75), 1e-12);
}

TEST(NnActivationModules, SigmoidForwardAndGradient) {
    check(
        "Sigmoid", nn::SigmoidConfig{}.init(), [](double x) { return sigmoid(x); },
        [](double x) { return sigmoid(x) * (1 - sigmoid(x)); });
    // Hand values: sigmoid(0) = 1/2, sigmoid(ln 3) = 3/4.
    auto y = nn::Sigmoid{}.forward(Tensor<1>::from_floats({0.0, std::log(3.0)})).to_vec<float>();
    EXPECT_FLOAT_EQ(y[0], 0.5f);
    EXPECT_NEAR(y[1], 0.75f, 1e-7);
}

TEST(NnActivationModules, SiLUForwardAndGradient) {
    check(
        "SiLU", nn::SiLUConfig{}.init(), [](double x) { return x * sigmoid(x); },
        [](double x) { return sigmoid(x) * (1 + x * (1 - sigmoid(x))); });
    // Hand values: silu(0) = 0, silu(ln 3) = 0.75 ln 3.
    auto y = nn::SiLU{}.forward(Tensor<1>::from_floats({0.0, std::log(3.0)})).to_vec<float>();
    EXPECT_EQ(y[0], 0.0f);
    EXPECT_NEAR(y[1], 0.75 * std::log(3.0), 1e-6);
}

TEST(NnActivationModules, TanhForwardAndGradient) {
    check(
        "Tanh", nn::TanhConfig{}.init(), [](double x) { return std::tanh(x); },
        [](double x) { return 1 - std::tanh(x) * std::tanh(x); });
    // Hand values: tanh(0) = 0, tanh(ln 2) = 3/5.
    auto y = nn::Tanh{}.forward(Tensor<1>::from_floats({0.0, std::log(2.0)})).to_vec<float>();
    EXPECT_EQ(y[0], 0.0f);
    EXPECT_NEAR(y[1], 0.6f, 1e-7);
}

}  // namespace activation_module_test
