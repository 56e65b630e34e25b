// Initializer::Orthogonal (torch.nn.init.orthogonal_): W W^T = gain^2 I for wide matrices, W^T W for
// tall ones, higher-rank tensors viewed as [shape[0], rest], entry statistics, seeding, biases, empty shapes.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <vector>

using namespace burn;

namespace {

/// max |(W^T W or W W^T) - gain^2 I| over the Gram matrix of the short side, computed in double.
double gram_error(const TensorAny& w, double gain) {
    const int64_t rows = w.shape()[0], cols = w.shape().numel() / rows;
    auto v = ops::into_data(w).convert(DType::f64).to_vec<double>();
    const bool wide = rows < cols;
    const int64_t n = wide ? rows : cols, m = wide ? cols : rows;
    auto at = [&](int64_t vec, int64_t e) {
        return wide ? v[static_cast<std::size_t>(vec * cols + e)]
                    : v[static_cast<std::size_t>(e * cols + vec)];
    };
    double worst = 0;
    for (int64_t a = 0; a < n; ++a)
        for (int64_t b = 0; b < n; ++b) {
            double dot = 0;
            for (int64_t e = 0; e < m; ++e) dot += at(a, e) * at(b, e);
            worst = std::max(worst, std::abs(dot - (a == b ? gain * gain : 0.0)));
        }
    return worst;
}

TEST(InitializerOrthogonal, GramMatrixIsGainSquaredIdentity) {
    Device().seed(11);
    struct Case {
        Dims shape;
        double gain;
        DType dtype;
        double tol;
    };
    for (const auto& c : std::vector<Case>{{Dims{8, 8}, 1.0, DType::f64, 1e-12},
                                           {Dims{16, 5}, 2.0, DType::f64, 1e-12},
                                           {Dims{5, 16}, 0.5, DType::f64, 1e-12},
                                           {Dims{6, 3, 2, 2}, 1.0, DType::f32, 1e-5},
                                           {Dims{32, 24}, 1.5, DType::f32, 1e-5}}) {
        TensorAny w = nn::Initializer::Orthogonal(c.gain).init_any(c.shape, std::nullopt, std::nullopt,
                                                                   Device(), c.dtype);
        EXPECT_EQ(w.shape(), c.shape);
        EXPECT_EQ(w.dtype(), c.dtype);
        EXPECT_LT(gram_error(w, c.gain), c.tol) << c.shape << " gain " << c.gain;
    }
}

TEST(InitializerOrthogonal, EntryStatisticsAndSeeding) {
    // A random n x n orthogonal matrix has entries of mean 0 and variance 1/n; rows are unit vectors.
    Device().seed(3);
    const int64_t n = 64;
    auto a = ops::into_data(nn::Initializer::Orthogonal().init_any(Dims{n, n}, {}, {}, Device(), DType::f64))
                 .to_vec<double>();
    double mean = 0, var = 0;
    for (double x : a) mean += x;
    mean /= static_cast<double>(a.size());
    for (double x : a) var += (x - mean) * (x - mean);
    var /= static_cast<double>(a.size());
    EXPECT_LT(std::abs(mean), 4.0 / n);  // sd of the mean is 1/n
    EXPECT_NEAR(var * n, 1.0, 0.05);
    // Not a signed permutation or identity: many entries are far from 0 and +-1.
    int spread = 0;
    for (double x : a) spread += std::abs(x) > 0.05 && std::abs(x) < 0.5;
    EXPECT_GT(spread, static_cast<int>(a.size()) / 2);
    // Seeded: the same seed gives the same matrix, another seed another one.
    Device().seed(3);
    auto b = ops::into_data(nn::Initializer::Orthogonal().init_any(Dims{n, n}, {}, {}, Device(), DType::f64))
                 .to_vec<double>();
    EXPECT_EQ(a, b);
    Device().seed(4);
    auto c = ops::into_data(nn::Initializer::Orthogonal().init_any(Dims{n, n}, {}, {}, Device(), DType::f64))
                 .to_vec<double>();
    EXPECT_NE(a, c);
}

TEST(InitializerOrthogonal, LayerConfigAndErrors) {
    auto linear = nn::LinearConfig{12, 7}.with_initializer(nn::Initializer::Orthogonal(1.0)).init();
    EXPECT_LT(gram_error(linear.weight.val().handle(), 1.0), 1e-5);
    // Round-trips through JSON like every initializer.
    auto init = nn::Initializer::Orthogonal(0.7);
    auto back = nn::Initializer::from_json(init.to_json());
    EXPECT_EQ(back.kind, nn::InitializerKind::orthogonal);
    EXPECT_DOUBLE_EQ(back.gain, 0.7);
    // Biases (rank 1) start at zero.
    ASSERT_TRUE(linear.bias.has_value());
    for (float v : linear.bias->val().into_data().to_vec<float>()) EXPECT_EQ(v, 0.0f);
    EXPECT_EQ(nn::Initializer::Orthogonal().init_any(Dims{0, 4}, {}, {}, Device()).shape(), (Dims{0, 4}));
}

}  // namespace
