// The typed API of issue 20's second batch against hand-worked values from torch's and burn's
// documented examples: bit operations of Int tensors (with torch's shift-count rules at the edges),
// cummax / cummin, median, cov, pad, unfold, burn::linalg's solvers (torch.linalg's examples, the
// gradients of det and inv), the windows and multinomial, plus the errors on bad input. The op database
// (op_db_api_*.cpp, the generated elementwise entries) sweeps dtypes, strides, devices and gradients.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace burn;

namespace tensor_api2_test {

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

Tensor<1, Int> ints(std::initializer_list<int64_t> v, DType dt = DType::i32) {
    return Tensor<1, Int>::from_ints(v, Device(), dt);
}

std::vector<int64_t> i64(const Tensor<1, Int>& t) {
    return t.cast(DType::i64).to_vec<int64_t>();
}

TEST(TensorApi2, BitwiseOpsFollowTorch) {
    // torch.bitwise_* docs: [-1, -2, 3] with [1, 0, 3]
    const auto a = ints({-1, -2, 3}), b = ints({1, 0, 3});
    EXPECT_EQ(i64(a.bitwise_and(b)), (std::vector<int64_t>{1, 0, 3}));
    EXPECT_EQ(i64(a.bitwise_or(b)), (std::vector<int64_t>{-1, -2, 3}));
    EXPECT_EQ(i64(a.bitwise_xor(b)), (std::vector<int64_t>{-2, -2, 0}));
    EXPECT_EQ(i64(a.bitwise_not()), (std::vector<int64_t>{0, 1, -4}));
    EXPECT_EQ(i64(a.bitwise_left_shift(b)), (std::vector<int64_t>{-2, -2, 24}));
    EXPECT_EQ(i64(ints({-2, -7, 31}).bitwise_right_shift(b)), (std::vector<int64_t>{-1, -7, 3}));
    EXPECT_EQ(i64(a & b), i64(a.bitwise_and(b)));
    EXPECT_EQ(i64(a | b), i64(a.bitwise_or(b)));
    EXPECT_EQ(i64(a ^ b), i64(a.bitwise_xor(b)));
    EXPECT_EQ(i64(~a), i64(a.bitwise_not()));
    EXPECT_EQ(i64(ints({12, 5}).bitwise_and_scalar(6)), (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(i64(ints({1, 3}).bitwise_left_shift_scalar(4)), (std::vector<int64_t>{16, 48}));
}

TEST(TensorApi2, ShiftCountsAtTheEdges) {
    // counts outside [0, bits): 0 for a left shift, the sign fill for a right shift (torch's rule)
    const auto x = ints({1, 1, 1, -8, -8, 8, 8});
    const auto n = ints({31, 32, -1, 40, 3, 40, -1});
    EXPECT_EQ(i64(x.bitwise_left_shift(n)), (std::vector<int64_t>{INT32_MIN, 0, 0, 0, -64, 0, 0}));
    EXPECT_EQ(i64(x.bitwise_right_shift(n)), (std::vector<int64_t>{0, 0, 0, -1, -1, 0, 0}));
    const auto w = ints({1, -1}, DType::i64);
    EXPECT_EQ(i64(w.bitwise_left_shift(ints({63, 63}, DType::i64))),
              (std::vector<int64_t>{INT64_MIN, INT64_MIN}));
    EXPECT_EQ(i64(w.bitwise_right_shift(ints({63, 64}, DType::i64))), (std::vector<int64_t>{0, -1}));
    const auto u = ints({200, 200, 255}, DType::u8);
    EXPECT_EQ(i64(u.bitwise_not()), (std::vector<int64_t>{55, 55, 0}));
    EXPECT_EQ(i64(u.bitwise_right_shift(ints({9, 7, 8}, DType::u8))), (std::vector<int64_t>{0, 1, 0}));
    EXPECT_EQ(i64(u.bitwise_left_shift(ints({1, 8, 7}, DType::u8))), (std::vector<int64_t>{144, 0, 128}));
    const auto s = ints({-128, 127}, DType::i8);
    EXPECT_EQ(i64(s.bitwise_xor(ints({-1, -1}, DType::i8))), (std::vector<int64_t>{127, -128}));
}

TEST(TensorApi2, BitwiseOpsRejectFloatsAndBools) {
    const std::string e = error_of([] {
        ops::bitwise_and(ops::full({2}, 1, DType::f32, Device()), ops::full({2}, 1, DType::f32, Device()));
    });
    EXPECT_NE(e.find("[bitwise_and]"), std::string::npos) << e;
    EXPECT_NE(e.find("Int tensor"), std::string::npos) << e;
    EXPECT_NE(
        error_of([] { ops::bitwise_not(ops::full({2}, 1, DType::boolean, Device())); }).find("[bitwise_not]"),
        std::string::npos);
    EXPECT_NE(error_of([] {
                  ops::bitwise_or(ops::full({2}, 1, DType::i32, Device()),
                                  ops::full({2}, 1, DType::i64, Device()));
              }).find("[bitwise_or]"),
              std::string::npos);
}

TEST(TensorApi2, CumulativeExtrema) {
    // burn's cummax example and torch's cummin example
    auto t = Tensor<2>::from_floats({{3.0, 1.0, 2.0}, {4.0, 5.0, 2.0}});
    EXPECT_EQ(t.cummax(0).to_vec<float>(), (std::vector<float>{3, 1, 2, 4, 5, 2}));
    EXPECT_EQ(t.cummax(1).to_vec<float>(), (std::vector<float>{3, 3, 3, 4, 5, 5}));
    EXPECT_EQ(i64(ints({5, 8, 4, 6, 9, 1, 7, 0}).cummin(0)), (std::vector<int64_t>{5, 5, 4, 4, 4, 1, 1, 0}));
    auto n = Tensor<1>::from_floats({1.0, NAN, 3.0}).cummax(0).to_vec<float>();
    EXPECT_EQ(n[0], 1.0f);
    EXPECT_TRUE(std::isnan(n[1]) && std::isnan(n[2]));
    EXPECT_NE(error_of([&] { t.cummin(2); }).find("[cummin]"), std::string::npos);
    // torch.cummin's example: [5, 8, 4, 6, 9, 1, 7, 0] -> indices [0, 0, 2, 2, 2, 5, 5, 7]
    auto [cv, ci] = ints({5, 8, 4, 6, 9, 1, 7, 0}).cummin_with_indices(0);
    EXPECT_EQ(i64(ci), (std::vector<int64_t>{0, 0, 2, 2, 2, 5, 5, 7}));
    auto ti = Tensor<1>::from_floats({1.0, 3.0, 3.0, 2.0, NAN, 5.0}).cummax_with_indices(0).second;
    EXPECT_EQ(ti.to_vec<int32_t>(),
              (std::vector<int32_t>{0, 1, 2, 2, 4, 4}));  // ties: the latest; NaN: its own
}

TEST(TensorApi2, MedianIsTheLowerMedian) {
    EXPECT_EQ(Tensor<1>::from_floats({4.0, 1.0, 3.0, 2.0}).median().into_scalar(), 2.0f);  // torch: lower
    auto m = Tensor<2>::from_floats({{1.0, 5.0, 3.0}, {4.0, 2.0, 6.0}});
    auto [v, i] = m.median_dim_with_indices(1);
    EXPECT_EQ(v.dims(), (Shape<2>{2, 1}));
    EXPECT_EQ(v.to_vec<float>(), (std::vector<float>{3, 4}));
    EXPECT_EQ(i.to_vec<int32_t>(), (std::vector<int32_t>{2, 0}));
    EXPECT_EQ(m.median_dim(0).to_vec<float>(), (std::vector<float>{1, 2, 3}));
    EXPECT_TRUE(std::isnan(Tensor<1>::from_floats({1.0, NAN, 0.0}).median().into_scalar()));
    auto [nv, ni] = Tensor<2>::from_floats({{1.0, NAN, 0.0, NAN}}).median_dim_with_indices(1);
    EXPECT_TRUE(std::isnan(nv.into_scalar()));
    EXPECT_EQ(ni.into_scalar(), 1);  // the first NaN, as torch
    const auto im = Tensor<1, Int>::from_ints({7, 1, 7, 3});
    EXPECT_EQ(im.median().into_scalar(), 3);
    const std::string e = error_of([] { Tensor<2>::zeros({2, 0}).median_dim(1); });
    EXPECT_NE(e.find("[median_dim]"), std::string::npos) << e;
}

TEST(TensorApi2, CovarianceMatchesTorchCov) {
    // torch.cov([[0, 1, 2], [2, 1, 0]]) = [[1, -1], [-1, 1]]: variables are rows, burn's dim 1
    auto x = Tensor<2>::from_floats({{0.0, 1.0, 2.0}, {2.0, 1.0, 0.0}});
    EXPECT_EQ(x.cov(1, 1).to_vec<float>(), (std::vector<float>{1, -1, -1, 1}));
    auto pop = x.cov(1, 0).to_vec<float>();
    EXPECT_NEAR(pop[0], 2.0 / 3.0, 1e-6);
    EXPECT_NEAR(pop[1], -2.0 / 3.0, 1e-6);
    EXPECT_EQ(x.transpose().cov(0, 1).to_vec<float>(), x.cov(1, 1).to_vec<float>());  // [o, v] with dim 0
}

TEST(TensorApi2, PadModes) {
    auto r = Tensor<2>::from_floats({{1.0, 2.0, 3.0}});
    EXPECT_EQ(r.pad({2, 2}, PadMode::Reflect()).to_vec<float>(), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    EXPECT_EQ(r.pad({2, 2}, PadMode::Edge()).to_vec<float>(), (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
    auto m = Tensor<2>::from_floats({{1.0, 2.0}, {3.0, 4.0}});
    auto p = m.pad({1, 0, 1, 0});  // burn's (left, right, top, bottom), zeros
    EXPECT_EQ(p.dims(), (Shape<2>{3, 3}));
    EXPECT_EQ(p.to_vec<float>(), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 3, 4}));
    EXPECT_EQ(m.pad({-1, 1}, PadMode::Constant(9)).to_vec<float>(), (std::vector<float>{2, 9, 4, 9}));
    const std::string e = error_of([&] { r.pad({3, 0}, PadMode::Reflect()); });
    EXPECT_NE(e.find("[pad] reflect"), std::string::npos) << e;
    EXPECT_NE(e.find("Edge"), std::string::npos) << e;
}

TEST(TensorApi2, UnfoldGivesSlidingWindows) {
    // torch.Tensor.unfold docs: arange(1, 8)
    auto x = Tensor<1>::from_floats({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0});
    auto w = x.unfold(0, 2, 2);
    EXPECT_EQ(w.dims(), (Shape<2>{3, 2}));
    EXPECT_EQ(w.to_vec<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(x.unfold(0, 2, 1).dims(), (Shape<2>{6, 2}));
    auto m = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
    auto c = m.unfold(0, 2, 1);  // one window of the two rows per column: [1, 3, 2]
    EXPECT_EQ(c.dims(), (Shape<3>{1, 3, 2}));
    EXPECT_EQ(c.to_vec<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    const std::string e = error_of([&] { x.unfold(0, 8, 1); });
    EXPECT_NE(e.find("[unfold] window size 8"), std::string::npos) << e;
}

void expect_near_all(const std::vector<float>& got, const std::vector<double>& want, double tol) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(TensorApi2, LinalgSolversMatchTorch) {
    auto a = Tensor<2>::from_floats({{1.0, 2.0}, {3.0, 4.0}});
    EXPECT_NEAR(linalg::det(a).into_scalar(), -2.0, 1e-6);
    expect_near_all(linalg::inv(a).to_vec<float>(), {-2, 1, 1.5, -0.5}, 1e-6);
    auto x = linalg::solve(Tensor<2>::from_floats({{3.0, 1.0}, {1.0, 2.0}}),
                           Tensor<2>::from_floats({{9.0}, {8.0}}));
    expect_near_all(x.to_vec<float>(), {2, 3}, 1e-6);
    auto l = linalg::cholesky(
        Tensor<2>::from_floats({{4.0, 12.0, -16.0}, {12.0, 37.0, -43.0}, {-16.0, -43.0, 98.0}}));
    expect_near_all(l.to_vec<float>(), {2, 0, 0, 6, 1, 0, -8, 5, 3}, 1e-5);
    // torch.linalg.qr's documented example: LAPACK's signs (R's diagonal negative here)
    auto [q, r] =
        linalg::qr(Tensor<2>::from_floats({{12.0, -51.0, 4.0}, {6.0, 167.0, -68.0}, {-4.0, 24.0, -41.0}}));
    expect_near_all(r.to_vec<float>(), {-14, -21, 14, 0, -175, 70, 0, 0, -35}, 1e-3);
    expect_near_all(
        q.to_vec<float>(),
        {-6.0 / 7, 69.0 / 175, 58.0 / 175, -3.0 / 7, -158.0 / 175, -6.0 / 175, 2.0 / 7, -6.0 / 35, 33.0 / 35},
        1e-5);
    auto [lu, piv] = linalg::lu_factor(a);
    EXPECT_EQ(piv.to_vec<int32_t>(), (std::vector<int32_t>{2, 2}));  // 1-based, as LAPACK and torch
    expect_near_all(lu.to_vec<float>(), {3, 4, 1.0 / 3, 2.0 / 3}, 1e-6);
    auto f = linalg::lu(a);
    EXPECT_EQ(f.p.to_vec<float>(), (std::vector<float>{0, 1, 1, 0}));
    expect_near_all(f.p.matmul(f.l).matmul(f.u).to_vec<float>(), {1, 2, 3, 4}, 1e-6);
    const std::string e = error_of([&] { linalg::inv(Tensor<2>::from_floats({{1.0, 2.0}, {2.0, 4.0}})); });
    EXPECT_NE(e.find("[inv] matrix 0"), std::string::npos) << e;
    EXPECT_NE(e.find("singular"), std::string::npos) << e;
}

TEST(TensorApi2, DetAndInvGradients) {
    const Device ad = Device().autodiff();
    auto a = Tensor<2>::from_floats({{1.0, 2.0}, {3.0, 4.0}}, ad).require_grad();
    auto g = linalg::det(a).sum().backward();
    expect_near_all(a.grad(g)->to_vec<float>(), {4, -3, -2, 1}, 1e-5);  // the cofactor matrix
    auto b = Tensor<2>::from_floats({{2.0, 0.0}, {0.0, 4.0}}, ad).require_grad();
    auto gi = linalg::inv(b).sum().backward();  // d sum(inv) = -inv^T 1 inv^T
    expect_near_all(b.grad(gi)->to_vec<float>(), {-0.25, -0.125, -0.125, -0.0625}, 1e-6);
}

TEST(TensorApi2, WindowsAndMultinomial) {
    expect_near_all(hann_window(4).to_vec<float>(), {0, 0.5, 1, 0.5}, 1e-6);
    expect_near_all(hann_window(5, false).to_vec<float>(), {0, 0.5, 1, 0.5, 0}, 1e-6);
    expect_near_all(hamming_window(4).to_vec<float>(), {0.08, 0.54, 1, 0.54}, 1e-6);
    expect_near_all(blackman_window(4).to_vec<float>(), {0, 0.34, 1, 0.34}, 1e-6);
    EXPECT_EQ(hann_window(1).to_vec<float>(), (std::vector<float>{1}));
    auto p = Tensor<2>::from_floats({{0.0, 1.0}, {1.0, 0.0}});
    auto s = multinomial(p, 1);
    EXPECT_EQ(s.dims(), (Shape<2>{2, 1}));
    EXPECT_EQ(s.to_vec<int32_t>(), (std::vector<int32_t>{1, 0}));
    EXPECT_EQ(multinomial(Tensor<1>::from_floats({0.0, 0.0, 3.0}), 3, true).to_vec<int32_t>(),
              (std::vector<int32_t>{2, 2, 2}));
}

TEST(TensorApi2, ScatterWithUpdateOps) {
    auto x = Tensor<1>::from_floats({1.0, 5.0, 3.0});
    auto i = Tensor<1, Int>::from_ints({0, 0, 2, 1});
    auto v = Tensor<1>::from_floats({4.0, 2.0, 7.0, 6.0});
    EXPECT_EQ(x.scatter(0, i, v, IndexingUpdateOp::Assign).to_vec<float>(), (std::vector<float>{2, 6, 7}));
    EXPECT_EQ(x.scatter(0, i, v, IndexingUpdateOp::Add).to_vec<float>(), (std::vector<float>{7, 11, 10}));
    EXPECT_EQ(x.scatter(0, i, v, IndexingUpdateOp::Mul).to_vec<float>(), (std::vector<float>{8, 30, 21}));
    EXPECT_EQ(x.scatter(0, i, v, IndexingUpdateOp::Min).to_vec<float>(), (std::vector<float>{1, 5, 3}));
    EXPECT_EQ(x.scatter(0, i, v, IndexingUpdateOp::Max).to_vec<float>(), (std::vector<float>{4, 6, 7}));
    auto m = Tensor<2>::zeros({2, 3});
    auto rows =
        m.select_assign(0, Tensor<1, Int>::from_ints({1, 1}),
                        Tensor<2>::from_floats({{1.0, 9.0, 3.0}, {4.0, 2.0, 6.0}}), IndexingUpdateOp::Max);
    EXPECT_EQ(rows.to_vec<float>(), (std::vector<float>{0, 0, 0, 4, 9, 6}));
    auto b = Tensor<1, Bool>::from_bool({false, true, false});
    auto bv = Tensor<1, Bool>::from_bool({true, false});
    auto bi = Tensor<1, Int>::from_ints({0, 1});
    EXPECT_EQ(b.scatter(0, bi, bv, IndexingUpdateOp::Assign).to_vec<bool>(),
              (std::vector<bool>{true, false, false}));
    EXPECT_EQ(b.scatter(0, bi, bv, IndexingUpdateOp::Max).to_vec<bool>(),
              (std::vector<bool>{true, true, false}));
    EXPECT_EQ(b.scatter(0, bi, bv, IndexingUpdateOp::Min).to_vec<bool>(),
              (std::vector<bool>{false, false, false}));
    const std::string e = error_of([&] { b.scatter(0, bi, bv, IndexingUpdateOp::Mul); });
    EXPECT_NE(e.find("[scatter] IndexingUpdateOp::Mul needs a numeric tensor"), std::string::npos) << e;
}

TEST(TensorApi2, GatherAndScatterNd) {
    // x [2, 2, 2]; tuples of length 2 pick rows of the last dim, tuples of length 1 whole matrices
    auto x = Tensor<3>::from_floats({{{1.0, 2.0}, {3.0, 4.0}}, {{5.0, 6.0}, {7.0, 8.0}}});
    auto rows = x.gather_nd<2>(Tensor<2, Int>::from_ints({{0, 1}, {1, 0}}));
    EXPECT_EQ(rows.dims(), (Shape<2>{2, 2}));
    EXPECT_EQ(rows.to_vec<float>(), (std::vector<float>{3, 4, 5, 6}));
    auto mats = x.gather_nd<3>(Tensor<2, Int>::from_ints({{1}}));
    EXPECT_EQ(mats.to_vec<float>(), (std::vector<float>{5, 6, 7, 8}));
    auto s = x.scatter_nd(Tensor<2, Int>::from_ints({{0, 0}, {0, 0}}),
                          Tensor<2>::from_floats({{10.0, 10.0}, {20.0, 1.0}}), IndexingUpdateOp::Add);
    EXPECT_EQ(s.to_vec<float>(), (std::vector<float>{31, 13, 3, 4, 5, 6, 7, 8}));
    const std::string e = error_of([&] { x.gather_nd<2>(Tensor<2, Int>::from_ints({{0, 2}})); });
    EXPECT_NE(e.find("[gather_nd] index 2 at position 1 of tuple 0 is out of range"), std::string::npos) << e;
}

}  // namespace tensor_api2_test
