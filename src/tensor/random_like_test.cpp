// random_like: a tensor of the source's shape, dtype and device drawn from a distribution. The sample
// statistics of 60,000 draws (fixed seed) against each distribution's exact moments, in float64.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace random_like_test {

struct Moments {
    double mean = 0, var = 0, min = INFINITY, max = -INFINITY;
};

Moments moments(const std::vector<double>& v) {
    Moments m;
    for (double x : v) {
        m.mean += x;
        m.min = std::min(m.min, x);
        m.max = std::max(m.max, x);
    }
    m.mean /= static_cast<double>(v.size());
    for (double x : v) m.var += (x - m.mean) * (x - m.mean);
    m.var /= static_cast<double>(v.size() - 1);
    return m;
}

template <std::size_t D, class K>
std::vector<double> values(const Tensor<D, K>& t) {
    return t.cast(DType::f64).template to_vec<double>();
}

TEST(RandomLike, ShapeDtypeAndDeviceFollowTheSource) {
    const Device cpu = Device::cpu();
    auto src = Tensor<3>::zeros({2, 3, 4}, cpu).cast(DType::f64);
    auto r = src.random_like(Distribution::Default);
    EXPECT_EQ(r.dims(), (Shape<3>{2, 3, 4}));
    EXPECT_EQ(r.dtype(), DType::f64);
    EXPECT_EQ(r.device(), cpu);
    // The source is untouched and the draw is not a copy of it.
    EXPECT_EQ(moments(values(src)).max, 0.0);
    EXPECT_GT(moments(values(r)).max, 0.0);

    auto half = Tensor<2>::ones({5, 7}, cpu).cast(DType::f16).random_like(Distribution::Normal(0, 1));
    EXPECT_EQ(half.dims(), (Shape<2>{5, 7}));
    EXPECT_EQ(half.dtype(), DType::f16);

    const Device ad = cpu.autodiff();
    auto on_ad = Tensor<1>::zeros({9}, ad).random_like(Distribution::Uniform(-1, 1));
    EXPECT_EQ(on_ad.device(), ad);
    EXPECT_EQ(on_ad.dtype(), DType::f32);

    // The same seed gives the same draw, and the draw is Tensor::random's for that shape and dtype.
    cpu.seed(77);
    auto a = src.random_like(Distribution::Normal(2, 3));
    cpu.seed(77);
    auto b = src.random_like(Distribution::Normal(2, 3));
    cpu.seed(77);
    auto c = Tensor<3>::random({2, 3, 4}, Distribution::Normal(2, 3), cpu, DType::f64);
    EXPECT_EQ(values(a), values(b));
    EXPECT_EQ(values(a), values(c));
    auto d = src.random_like(Distribution::Normal(2, 3));
    EXPECT_NE(values(a), values(d)) << "the stream moves on between draws";
}

TEST(RandomLike, SampleStatisticsMatchTheDistribution) {
    // 60,000 f64 draws. The tolerances are about 5 standard errors of each statistic: for the mean,
    // sigma / sqrt(n); for the variance, about sigma^2 * sqrt(2 / n) (uniform: a little less).
    const Device cpu = Device::cpu();
    cpu.seed(2024);
    auto src = Tensor<2>::zeros({200, 300}, cpu).cast(DType::f64);
    const double n = 60000;

    {  // U(-2, 3): mean 0.5, variance 25 / 12, every value in [-2, 3)
        auto v = values(src.random_like(Distribution::Uniform(-2, 3)));
        auto m = moments(v);
        EXPECT_GE(m.min, -2.0);
        EXPECT_LT(m.max, 3.0);
        EXPECT_LT(m.min, -1.99) << "the draws cover the range";
        EXPECT_GT(m.max, 2.99);
        EXPECT_NEAR(m.mean, 0.5, 5 * std::sqrt(25.0 / 12 / n));
        EXPECT_NEAR(m.var, 25.0 / 12, 5 * (25.0 / 12) * std::sqrt(0.8 / n));
        // Equal fifths: each bin [k - 2, k - 1) holds 20 % (binomial standard error 0.16 %).
        std::vector<double> bins(5, 0);
        for (double x : v) bins[static_cast<std::size_t>(std::floor(x + 2))] += 1 / n;
        for (double b : bins) EXPECT_NEAR(b, 0.2, 0.01);
    }
    {  // N(1.5, 0.5^2): mean, variance, and the share within one sigma (68.27 %)
        auto v = values(src.random_like(Distribution::Normal(1.5, 0.5)));
        auto m = moments(v);
        EXPECT_NEAR(m.mean, 1.5, 5 * 0.5 / std::sqrt(n));
        EXPECT_NEAR(m.var, 0.25, 5 * 0.25 * std::sqrt(2 / n));
        double within = 0;
        for (double x : v) within += std::abs(x - 1.5) < 0.5 ? 1 / n : 0;
        EXPECT_NEAR(within, std::erf(1 / std::sqrt(2.0)), 0.01);
    }
    {  // Bernoulli(0.3): only 0 and 1, mean 0.3
        auto v = values(src.random_like(Distribution::Bernoulli(0.3)));
        for (double x : v) ASSERT_TRUE(x == 0.0 || x == 1.0) << x;
        EXPECT_NEAR(moments(v).mean, 0.3, 5 * std::sqrt(0.3 * 0.7 / n));
    }
    {  // Default: U(0, 1)
        auto m = moments(values(src.random_like(Distribution::Default)));
        EXPECT_GE(m.min, 0.0);
        EXPECT_LT(m.max, 1.0);
        EXPECT_NEAR(m.mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
        EXPECT_NEAR(m.var, 1.0 / 12, 5 * (1.0 / 12) * std::sqrt(0.8 / n));
    }
}

}  // namespace random_like_test
