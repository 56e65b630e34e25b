// The initializers Ones, Zeros and Uniform(low, high): exact values for the constants (directly and through
// a layer config), and for Uniform the range, mean, variance and histogram of 100,000 draws with a fixed
// seed, against U(low, high)'s exact moments.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace initializer_basic_test {

template <std::size_t D>
std::vector<double> values(const Tensor<D>& t) {
    return t.cast(DType::f64).template to_vec<double>();
}

TEST(InitializerBasic, OnesAndZerosAreExactForAnyShapeDtypeAndLayer) {
    const Device d = Device::cpu();
    // No fan is needed (unlike Kaiming and Xavier).
    EXPECT_EQ(values(nn::Initializer::Ones().init<2>({3, 4}, {}, {}, d)), std::vector<double>(12, 1.0));
    EXPECT_EQ(values(nn::Initializer::Zeros().init<3>({2, 1, 5}, {}, {}, d)), std::vector<double>(10, 0.0));
    auto ones64 = nn::Initializer::Ones().init_any(Dims{7}, {}, {}, d, DType::f64);
    EXPECT_EQ(ones64.dtype(), DType::f64);
    EXPECT_EQ(ops::into_data(ones64).to_vec<double>(), std::vector<double>(7, 1.0));
    auto zeros16 = nn::Initializer::Zeros().init_any(Dims{2, 2}, 2, 2, d, DType::f16);
    EXPECT_EQ(zeros16.dtype(), DType::f16);
    EXPECT_EQ(ops::into_data(ops::cast(zeros16, DType::f64)).to_vec<double>(), std::vector<double>(4, 0.0));

    // Through a layer: the weight and the bias both take the initializer; the forward pass is then
    // y = sum(x) + 1 per output (ones) and 0 (zeros).
    auto ones = nn::LinearConfig{3, 2}.with_initializer(nn::Initializer::Ones()).init(d);
    EXPECT_EQ(values(ones.weight.val()), std::vector<double>(6, 1.0));
    ASSERT_TRUE(ones.bias.has_value());
    EXPECT_EQ(values(ones.bias->val()), std::vector<double>(2, 1.0));
    auto y = ones.forward(Tensor<2>::from_floats({{1.0, 2.0, 3.5}, {-1.0, 0.0, 0.25}}, d));
    EXPECT_EQ(values(y), (std::vector<double>{7.5, 7.5, 0.25, 0.25}));
    auto zeros = nn::LinearConfig{3, 2}.with_initializer(nn::Initializer::Zeros()).init(d);
    EXPECT_EQ(values(zeros.weight.val()), std::vector<double>(6, 0.0));
    EXPECT_EQ(values(zeros.bias->val()), std::vector<double>(2, 0.0));
    EXPECT_EQ(values(zeros.forward(Tensor<2>::from_floats({{1.0, 2.0, 3.5}}, d))),
              std::vector<double>(2, 0.0));

    // The kinds round-trip through a config's JSON.
    auto cfg = nn::LinearConfig{3, 2}.with_initializer(nn::Initializer::Uniform(-0.25, 0.75));
    auto back = nn::LinearConfig::from_json_string(cfg.to_json_string());
    EXPECT_EQ(back.initializer.kind, nn::InitializerKind::uniform);
    EXPECT_EQ(back.initializer.a, -0.25);
    EXPECT_EQ(back.initializer.b, 0.75);
    EXPECT_EQ(nn::Initializer::Ones().kind, nn::InitializerKind::ones);
    EXPECT_EQ(nn::Initializer::Zeros().kind, nn::InitializerKind::zeros);
}

TEST(InitializerBasic, UniformRangeMomentsAndHistogram) {
    const Device d = Device::cpu();
    d.seed(31);
    const double lo = -0.5, hi = 1.5, n = 100000;
    auto t = nn::Initializer::Uniform(lo, hi).init_any(Dims{1000, 100}, {}, {}, d, DType::f64);
    std::vector<double> v = ops::into_data(t).to_vec<double>();
    ASSERT_EQ(v.size(), 100000u);
    double mean = 0, mn = INFINITY, mx = -INFINITY;
    for (double x : v) {
        mean += x / n;
        mn = std::min(mn, x);
        mx = std::max(mx, x);
    }
    double var = 0;
    for (double x : v) var += (x - mean) * (x - mean) / (n - 1);
    EXPECT_GE(mn, lo);
    EXPECT_LT(mx, hi);
    EXPECT_LT(mn, lo + 0.001) << "the draws reach both ends";
    EXPECT_GT(mx, hi - 0.001);
    // U(lo, hi): mean (lo + hi) / 2 = 0.5, variance (hi - lo)^2 / 12 = 1/3; about 5 standard errors.
    const double sigma2 = (hi - lo) * (hi - lo) / 12;
    EXPECT_NEAR(mean, 0.5, 5 * std::sqrt(sigma2 / n));
    EXPECT_NEAR(var, sigma2, 5 * sigma2 * std::sqrt(0.8 / n));
    // Eight equal bins of 12.5 % each (binomial standard error 0.1 %).
    std::vector<double> bins(8, 0);
    for (double x : v) bins[static_cast<std::size_t>((x - lo) / (hi - lo) * 8)] += 1 / n;
    for (double b : bins) EXPECT_NEAR(b, 0.125, 0.006);

    // The same seed gives the same values; a layer's f32 weight and bias stay inside the range (its top
    // end included: a draw just under 2.5 in double may round to 2.5 in f32).
    d.seed(31);
    auto again = nn::Initializer::Uniform(lo, hi).init_any(Dims{1000, 100}, {}, {}, d, DType::f64);
    EXPECT_EQ(ops::into_data(again).to_vec<double>(), v);
    auto layer = nn::LinearConfig{64, 32}.with_initializer(nn::Initializer::Uniform(2.0, 2.5)).init(d);
    for (double x : values(layer.weight.val())) ASSERT_TRUE(x >= 2.0 && x <= 2.5) << x;
    for (double x : values(layer.bias->val())) ASSERT_TRUE(x >= 2.0 && x <= 2.5) << x;
    // A degenerate range is the constant.
    EXPECT_EQ(values(nn::Initializer::Uniform(0.25, 0.25).init<1>({5}, {}, {}, d)),
              std::vector<double>(5, 0.25));
}

}  // namespace initializer_basic_test
