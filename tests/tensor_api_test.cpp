// The typed API of issue 20 (tensor.hpp, linalg.hpp, grid.hpp) against independent references: <cmath>
// for the new float rows, hand-worked values for burn's documented examples (masks, cartesian_grid,
// meshgrid), and the errors on bad input (repeated axes of flip and permute, wrong ranks, bad sizes).
// The op database (op_db_api_*.cpp, the generated elementwise entries) sweeps dtypes, strides,
// devices and gradients; these tests pin the typed wrappers and the semantics.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace burn;

namespace tensor_api_test {

constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor<1> f64(std::initializer_list<double> v) {
    return Tensor<1>::from_data(TensorData(std::vector<double>(v), Dims{static_cast<int64_t>(v.size())}));
}

std::vector<double> vals(const Tensor<1>& t) {
    return t.to_vec<double>();
}

/// The message of the burn::Error f throws ("" when it does not throw).
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

template <class F>
void expect_close_each(const std::vector<double>& got, const std::vector<double>& x, F ref) {
    ASSERT_EQ(got.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double want = ref(x[i]);
        if (std::isnan(want))
            EXPECT_TRUE(std::isnan(got[i])) << "x = " << x[i];
        else if (std::isinf(want))
            EXPECT_EQ(got[i], want) << "x = " << x[i];
        else
            EXPECT_NEAR(got[i], want, 1e-12 * (1 + std::fabs(want))) << "x = " << x[i];
    }
}

TEST(TensorApi, InverseHyperbolicLogAndAngleRowsMatchCmath) {
    const std::vector<double> x = {-2.5, -0.5, -1e-8, 0, 1e-8, 0.5, 0.99, 1, 1.5, 30, 1e10, kInf, -kInf};
    auto t = f64({-2.5, -0.5, -1e-8, 0, 1e-8, 0.5, 0.99, 1, 1.5, 30, 1e10, kInf, -kInf});
    expect_close_each(vals(t.asinh()), x, [](double v) { return std::asinh(v); });
    expect_close_each(vals(t.acosh()), x, [](double v) { return std::acosh(v); });
    expect_close_each(vals(t.atanh()), x, [](double v) { return std::atanh(v); });
    expect_close_each(vals(t.log2()), x, [](double v) { return std::log2(v); });
    expect_close_each(vals(t.rsqrt()), x, [](double v) { return 1 / std::sqrt(v); });
    expect_close_each(vals(t.deg2rad()), x, [](double v) { return v * M_PI / 180; });
    expect_close_each(vals(t.rad2deg()), x, [](double v) { return v * 180 / M_PI; });
    expect_close_each(vals(t.expm1()), x, [](double v) { return std::expm1(v); });
}

TEST(TensorApi, FmodTakesTheDividendsSignAndHypotAvoidsOverflow) {
    auto a = f64({5.5, -5.5, 5.5, -5.5, 3, -0.0, 1e300});
    auto b = f64({2, 2, -2, -2, 0, 1, 1e300});
    const std::vector<double> av = vals(a), bv = vals(b);
    std::vector<double> got = vals(a.fmod(b));
    for (std::size_t i = 0; i < av.size(); ++i) {
        const double want = std::fmod(av[i], bv[i]);
        if (std::isnan(want))
            EXPECT_TRUE(std::isnan(got[i]));
        else
            EXPECT_EQ(got[i], want) << av[i] << " fmod " << bv[i];
    }
    EXPECT_EQ(vals(a.fmod_scalar(2.0))[1], -1.5);  // remainder would give 0.5
    EXPECT_EQ(vals(a.remainder_scalar(2.0))[1], 0.5);
    auto ints = Tensor<1, Int>::from_ints({7, -7, 7, -7, 5});
    auto div = Tensor<1, Int>::from_ints({3, 3, -3, -3, 0});
    EXPECT_EQ(ints.fmod(div).to_vec<int32_t>(), (std::vector<int32_t>{1, -1, 1, -1, 0}));
    got = vals(f64({3, 1e300, -kInf, 0}).hypot(f64({4, 1e300, std::nan(""), -0.0})));
    EXPECT_EQ(got[0], 5);
    EXPECT_NEAR(got[1], std::hypot(1e300, 1e300), 1e286);
    EXPECT_EQ(got[2], kInf);  // inf beside NaN, as C's hypot
    EXPECT_EQ(got[3], 0);
}

TEST(TensorApi, FinitenessNanAndCloseness) {
    auto x = f64({1, kInf, std::nan(""), -kInf, 0});
    EXPECT_EQ(x.is_finite().to_vec<bool>(), (std::vector<bool>{true, false, false, false, true}));
    const Tensor<1, Int> some_ints = Tensor<1, Int>::from_ints({1, 2});
    EXPECT_TRUE(some_ints.is_finite().all().into_scalar());
    EXPECT_TRUE(x.contains_nan().into_scalar());
    EXPECT_FALSE(f64({1, kInf}).contains_nan().into_scalar());
    EXPECT_EQ(x.contains_nan().dims(), (Shape<1>{1}));
    // burn's example: defaults rtol 1e-5, atol 1e-8
    auto a = Tensor<2>::from_floats({{0.0, 1.0, 0.0}, {1.0, -1.0, 1.0}});
    auto b = Tensor<2>::from_floats({{0.0, 1.0, 0.0}, {1.0, -1.0, 3.0}}) + 1e-9;
    EXPECT_EQ(a.is_close(b).to_vec<bool>(), (std::vector<bool>{true, true, true, true, true, false}));
    EXPECT_FALSE(a.all_close(b));
    EXPECT_TRUE(a.all_close(Tensor<2>::from_floats({{0.0, 1.0, 0.0}, {1.0, -1.0, 1.0}}) + 1e-9));
    // torch's example: inf is close to inf, NaN to nothing
    EXPECT_EQ(f64({kInf, 4}).is_close(f64({kInf, 6}), 0.5).to_vec<bool>(), (std::vector<bool>{true, true}));
    EXPECT_FALSE(f64({std::nan("")}).all_close(f64({std::nan("")})));
    EXPECT_NE(error_of([&] {
                  (void)a.is_close(Tensor<2>::zeros({3, 2}));
              }).find("[is_close]"),
              std::string::npos);
}

TEST(TensorApi, MultiDimReductionsKeepOrSqueeze) {
    auto x = Tensor<3>::from_floats({{{1, 2}, {3, 4}, {5, 6}}, {{-1, -2}, {-3, -4}, {-5, 7}}});  // [2, 3, 2]
    auto s = x.sum_dims({0, 2});
    EXPECT_EQ(s.dims(), (Shape<3>{1, 3, 1}));
    EXPECT_EQ(s.to_vec<float>(), (std::vector<float>{0, 0, 13}));
    auto sq = x.sum_dims_squeeze<1>({0, -1});
    EXPECT_EQ(sq.dims(), (Shape<1>{3}));
    const std::vector<float> mean = x.mean_dims({1, 2}).to_vec<float>();
    ASSERT_EQ(mean.size(), 2u);
    EXPECT_FLOAT_EQ(mean[0], 3.5f);
    EXPECT_NEAR(mean[1], -8.0 / 6, 1e-6);
    EXPECT_EQ(x.max_dims_squeeze<1>({1, 2}).to_vec<float>(), (std::vector<float>{6, 7}));
    EXPECT_EQ(x.min_dims({0, 1, 2}).to_vec<float>(), (std::vector<float>{-5}));
    EXPECT_EQ(x.prod_dims_squeeze<2>({0}).to_vec<float>(), (std::vector<float>{-1, -4, -9, -16, -25, 42}));
    EXPECT_EQ(x.max_abs().into_scalar(), 7);
    EXPECT_EQ(x.max_abs_dim(2).to_vec<float>(), (std::vector<float>{2, 4, 6, 2, 4, 7}));
    auto i = Tensor<1, Int>::from_ints({1, 2, 2});
    EXPECT_EQ(i.unsqueeze<2>().mean_dims({0, 1}).into_scalar(), 1);  // 5 / 3 truncates
    auto [v, m] = Tensor<2>::from_floats({{1, 2, 3, 4}}).var_mean(1);
    EXPECT_NEAR(v.into_scalar(), 5.0 / 3, 1e-6);
    EXPECT_NEAR(m.into_scalar(), 2.5, 1e-6);
    EXPECT_NEAR(Tensor<2>::from_floats({{1, 2, 3, 4}}).var_mean_bias(1).first.into_scalar(), 1.25, 1e-6);
    EXPECT_NE(error_of([&] {
                  (void)x.sum_dims({1, -2});
              }).find("[sum_dims] dim 1 appears twice"),
              std::string::npos);
}

TEST(TensorApi, SqueezeUnsqueezeMovedimAndSlicing) {
    auto x = Tensor<4>::ones({2, 1, 3, 1});
    EXPECT_EQ(x.squeeze<2>().dims(), (Shape<2>{2, 3}));
    EXPECT_EQ(x.squeeze_dims<3>({-1}).dims(), (Shape<3>{2, 1, 3}));
    EXPECT_EQ(Tensor<2>::ones({1, 1}).squeeze<1>().dims(), (Shape<1>{1}));
    const std::string wrong = error_of([&] { (void)x.squeeze<3>(); });
    EXPECT_NE(wrong.find("[squeeze_dims]"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("Tensor<2>"), std::string::npos) << wrong;
    EXPECT_NE(error_of([&] { (void)x.squeeze_dims<3>({2}); }).find("has size 3, not 1"), std::string::npos);
    auto y = Tensor<2>::ones({2, 3});
    EXPECT_EQ(y.unsqueeze_dims<4>({0, -1}).dims(), (Shape<4>{1, 2, 3, 1}));
    EXPECT_NE(error_of([&] {
                  (void)y.unsqueeze_dims<3>({0, 1});
              }).find("[unsqueeze_dims]"),
              std::string::npos);
    auto z = Tensor<3>::from_floats({{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}},
                                     {{12, 13, 14, 15}, {16, 17, 18, 19}, {20, 21, 22, 23}}});
    auto mv = z.movedim(0, 2);  // [3, 4, 2]: mv[i, j, k] = z[k, i, j]
    EXPECT_EQ(mv.dims(), (Shape<3>{3, 4, 2}));
    EXPECT_EQ(mv.slice({1, 2}).to_vec<float>(), (std::vector<float>{6, 18}));
    EXPECT_EQ(z.movedim({0, 1}, {2, 0}).dims(), (Shape<3>{3, 4, 2}));
    EXPECT_EQ(z.slice_dim(2, {0, 4, 2}).dims(), (Shape<3>{2, 3, 2}));
    EXPECT_EQ(z.slice_dim(1, 2).to_vec<float>(), (std::vector<float>{8, 9, 10, 11, 20, 21, 22, 23}));
    auto parts = Tensor<1>::from_floats({1, 2, 3, 4, 5}).split_with_sizes({2, 0, 3}, 0);
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[2].to_vec<float>(), (std::vector<float>{3, 4, 5}));
    EXPECT_NE(error_of([&] {
                  (void)y.split_with_sizes({1, 1}, 1);
              }).find("add up to 2 but dim 1"),
              std::string::npos);
    auto e = Tensor<2>::ones({2, 3}, Device(), DType::f64).empty_like();
    EXPECT_EQ(e.dtype(), DType::f64);
    EXPECT_EQ(e.to_vec<double>(), std::vector<double>(6, 0.0));
    auto col = Tensor<2>::from_floats({{1}, {2}});  // [2, 1]
    auto ex = col.expand({3, -1, 4});               // -1 keeps the 2
    EXPECT_EQ(ex.dims(), (Shape<3>{3, 2, 4}));
    EXPECT_EQ(ex.sum().into_scalar(), 3 * 4 * 3);
}

TEST(TensorApi, FlipAndPermuteRejectRepeatedAxes) {
    auto x = Tensor<3>::ones({2, 3, 4});
    const std::string f = error_of([&] { (void)x.flip({0, 0, 1}); });
    EXPECT_NE(f.find("[flip] axis 0 appears twice in [0, 0, 1]"), std::string::npos) << f;
    EXPECT_NE(f.find("list each axis once"), std::string::npos) << f;
    EXPECT_NE(error_of([&] {
                  (void)x.flip({1, -2});
              }).find("[flip] axis 1 appears twice"),
              std::string::npos);
    const std::string p = error_of([&] { (void)x.permute({0, 2, 0}); });
    EXPECT_NE(p.find("[permute] axis 0 appears twice"), std::string::npos) << p;
    EXPECT_NE(p.find("exactly once"), std::string::npos) << p;
    auto v = Tensor<2>::from_floats({{1, 2}, {3, 4}});
    EXPECT_EQ(v.flip({0, 1}).to_vec<float>(), (std::vector<float>{4, 3, 2, 1}));  // distinct axes still work
}

TEST(TensorApi, LinalgBasics) {
    auto a = Tensor<1>::from_floats({1, 2, 3});
    auto b = Tensor<1>::from_floats({4, -5, 6});
    EXPECT_EQ(linalg::dot(a, b).into_scalar(), 12);
    auto o = linalg::outer(a, b);
    EXPECT_EQ(o.dims(), (Shape<2>{3, 3}));
    EXPECT_EQ(o.slice({2}).to_vec<float>(), (std::vector<float>{12, -15, 18}));
    auto m = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}});
    EXPECT_EQ(linalg::matvec(m, a).to_vec<float>(), (std::vector<float>{14, 32}));
    EXPECT_EQ(linalg::diag(m).to_vec<float>(), (std::vector<float>{1, 5}));
    EXPECT_EQ(linalg::trace(m).into_scalar(), 6);
    EXPECT_EQ(linalg::diag(m.t()).to_vec<float>(), (std::vector<float>{1, 5}));  // a strided view
    auto batch = Tensor<3>::from_floats({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
    EXPECT_EQ(linalg::trace(batch).to_vec<float>(), (std::vector<float>{5, 13}));
    auto x = Tensor<2>::from_floats({{3, -4}, {0, 1}});
    EXPECT_EQ(linalg::vector_norm(x, 2.0, 1).to_vec<float>(), (std::vector<float>{5, 1}));
    EXPECT_EQ(linalg::vector_norm(x, linalg::Norm::L0(), 1).to_vec<float>(), (std::vector<float>{2, 1}));
    EXPECT_EQ(linalg::vector_norm(x, linalg::Norm::L1(), 0).to_vec<float>(), (std::vector<float>{3, 5}));
    EXPECT_EQ(linalg::max_abs_norm(x, 1).to_vec<float>(), (std::vector<float>{4, 1}));
    EXPECT_EQ(linalg::min_abs_norm(x, 0).to_vec<float>(), (std::vector<float>{0, 1}));
    EXPECT_NEAR(linalg::vector_norm(x, linalg::Norm::Lp(3), 1).to_vec<float>()[0], std::cbrt(91.0), 1e-5);
    EXPECT_NE(error_of([&] { (void)linalg::dot(a, Tensor<1>::ones({2})); }).find("[dot]"), std::string::npos);
    EXPECT_NE(error_of([&] { (void)linalg::matvec(m, Tensor<1>::ones({2})); }).find("has 3 columns"),
              std::string::npos);
}

TEST(TensorApi, MasksAndGrids) {
    // burn's examples: true where the element is masked out
    using Mask2 = Tensor<2, Bool>;
    EXPECT_EQ(Mask2::triu_mask({3, 3}, 0).to_vec<bool>(),
              (std::vector<bool>{false, false, false, true, false, false, true, true, false}));
    EXPECT_EQ(Mask2::tril_mask({3, 3}, 0).to_vec<bool>(),
              (std::vector<bool>{false, true, true, false, false, true, false, false, false}));
    EXPECT_EQ(Mask2::diag_mask({3, 3}, 1).to_vec<bool>(),
              (std::vector<bool>{true, false, true, true, true, false, true, true, true}));
    using Mask3 = Tensor<3, Bool>;
    EXPECT_EQ(Mask3::tril_mask({2, 2, 3}, -1).dims(), (Shape<3>{2, 2, 3}));
    auto g = Tensor<2, Int>::cartesian_grid({2, 2});
    EXPECT_EQ(g.dims(), (Shape<3>{2, 2, 2}));
    EXPECT_EQ(g.to_vec<int32_t>(), (std::vector<int32_t>{0, 0, 0, 1, 1, 0, 1, 1}));
    auto x = Tensor<1>::from_floats({1, 2, 3});
    auto y = Tensor<1>::from_floats({4, 5});
    auto ij = grid::meshgrid<2>({x, y});
    EXPECT_EQ(ij[0].dims(), (Shape<2>{3, 2}));
    EXPECT_EQ(ij[0].to_vec<float>(), (std::vector<float>{1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(ij[1].to_vec<float>(), (std::vector<float>{4, 5, 4, 5, 4, 5}));
    auto xy = grid::meshgrid<2>({x, y}, grid::GridIndexing::Cartesian);  // numpy's default
    EXPECT_EQ(xy[0].dims(), (Shape<2>{2, 3}));
    EXPECT_EQ(xy[0].to_vec<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
    EXPECT_EQ(xy[1].to_vec<float>(), (std::vector<float>{4, 4, 4, 5, 5, 5}));
}

}  // namespace tensor_api_test
