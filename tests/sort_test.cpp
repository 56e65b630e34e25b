// sort / argsort / topk against std::stable_sort references: every dim of a rank-3 tensor, both
// directions, NaN / inf / signed zeros, every dtype family, non-contiguous inputs, empty dims, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

using namespace burn;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TensorAny make(const std::vector<double>& v, const Dims& shape, DType dt) {
    return visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> vals;
        for (double x : v) {
            if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
                vals.push_back(T(static_cast<float>(x)));
            else if constexpr (std::is_same_v<T, bool>)
                vals.push_back(x != 0);
            else
                vals.push_back(static_cast<T>(x));
        }
        return ops::from_data(TensorData(vals, shape), Device::cpu());
    });
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(t).convert(DType::f64).to_vec<double>();
}

/// Test data: few distinct values (many ties), for float dtypes also NaN, +-inf and -0.0. With
/// full_range, about half the values are random over the dtype's range (every key byte varies).
std::vector<double> data(int64_t n, DType dt, uint32_t seed, bool full_range = false) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(0, 9);
    std::uniform_real_distribution<double> uni(-1e6, 1e6);
    std::uniform_int_distribution<int64_t> wide(-(int64_t{1} << 62), int64_t{1} << 62);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
        const int r = pick(rng);
        if (full_range && r >= 5 && dt != DType::boolean) {
            if (is_float(dt)) {
                x = uni(rng) * std::pow(10.0, pick(rng) - 5);
            } else {
                const auto w = static_cast<uint64_t>(wide(rng));
                x = visit_dtype(dt, [&](auto tag) {
                    using T = decltype(tag);
                    return static_cast<double>(
                        static_cast<T>(static_cast<int64_t>(w)));  // wraps to T's range
                });
            }
        } else if (dt == DType::boolean) {
            x = r % 2;
        } else if (is_float(dt) && r == 0) {
            x = kNaN;
        } else if (is_float(dt) && r == 1) {
            x = (pick(rng) % 2) ? kInf : -kInf;
        } else if (is_float(dt) && r == 2) {
            x = (pick(rng) % 2) ? -0.0 : 0.0;
        } else if (dt == DType::u8) {
            x = pick(rng) * 25;
        } else if (dt == DType::i64) {
            x = (pick(rng) - 5) * 1099511627776.0 + pick(rng);  // beyond 32 bits
        } else {
            x = (pick(rng) - 5) * (is_float(dt) ? 0.75 : 13.0);
        }
    }
    return v;
}

/// Stable reference along dim of a row-major array: PyTorch's order (NaN last ascending, first descending).
void ref_sort(const std::vector<double>& v, const Dims& shape, int dim, bool desc, int64_t k,
              std::vector<double>& vals, std::vector<int64_t>& idx) {
    const int64_t n = shape[dim];
    int64_t inner = 1;
    for (int d = dim + 1; d < shape.rank(); ++d) inner *= shape[d];
    const int64_t outer = n ? shape.numel() / (n * inner) : 0;
    vals.assign(static_cast<std::size_t>(outer * k * inner), 0);
    idx.assign(vals.size(), 0);
    auto less = [desc](double a, double b) {
        if (desc) return (std::isnan(a) && !std::isnan(b)) || a > b;
        return (!std::isnan(a) && std::isnan(b)) || a < b;
    };
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t in = 0; in < inner; ++in) {
            std::vector<int64_t> order(static_cast<std::size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            auto at = [&](int64_t j) { return v[static_cast<std::size_t>((o * n + j) * inner + in)]; };
            std::stable_sort(order.begin(), order.end(),
                             [&](int64_t a, int64_t b) { return less(at(a), at(b)); });
            for (int64_t j = 0; j < k; ++j) {
                const auto pos = static_cast<std::size_t>((o * k + j) * inner + in);
                vals[pos] = at(order[static_cast<std::size_t>(j)]);
                idx[pos] = order[static_cast<std::size_t>(j)];
            }
        }
}

/// Bitwise-aware equality: NaN == NaN, -0.0 distinguished from +0.0 (the original element must come out).
bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

void expect_sorted(const std::pair<TensorAny, TensorAny>& got, const std::vector<double>& v,
                   const Dims& shape, int dim, bool desc, int64_t k, DType dt, const std::string& what) {
    std::vector<double> wv;
    std::vector<int64_t> wi;
    ref_sort(v, shape, dim, desc, k, wv, wi);
    Dims out = shape;
    out[dim] = k;
    ASSERT_EQ(got.first.shape(), out) << what;
    ASSERT_EQ(got.second.shape(), out) << what;
    ASSERT_EQ(got.first.dtype(), dt) << what;
    ASSERT_EQ(got.second.dtype(), DType::i32) << what;
    const auto gv = values(got.first);
    const auto gi = ops::into_data(got.second).to_vec<int32_t>();
    for (std::size_t i = 0; i < wv.size(); ++i) {
        ASSERT_TRUE(same(gv[i], wv[i])) << what << " value at " << i << ": " << gv[i] << " vs " << wv[i];
        ASSERT_EQ(gi[i], wi[i]) << what << " index at " << i;
    }
}

/// The values as stored in dt (f16 rounding, bool), so the reference sorts the same numbers.
std::vector<double> stored(const std::vector<double>& v, const Dims& shape, DType dt) {
    return values(make(v, shape, dt));
}

const DType kAllDtypes[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                            DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};

}  // namespace

TEST(Sort, EveryDimBothDirectionsEveryDtype) {
    const Dims shape{4, 5, 6};
    for (DType dt : kAllDtypes) {
        const auto v = stored(data(shape.numel(), dt, 1), shape, dt);
        auto x = make(v, shape, dt);
        for (int dim = 0; dim < 3; ++dim)
            for (bool desc : {false, true}) {
                const std::string what =
                    std::string(name(dt)) + " dim " + std::to_string(dim) + (desc ? " desc" : " asc");
                expect_sorted(ops::sort_with_indices(x, dim, desc), v, shape, dim, desc, shape[dim], dt,
                              what);
                // Negative dims count from the end.
                expect_sorted(ops::sort_with_indices(x, dim - 3, desc), v, shape, dim, desc, shape[dim], dt,
                              what + " (negative dim)");
            }
    }
}

TEST(Sort, NanInfAndSignedZeros) {
    const std::vector<double> v{3, kNaN, -0.0, -kInf, 0.0, kNaN, 1, kInf, -0.0, -2};
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
        auto x = make(v, {10}, dt);
        auto [asc, ai] = ops::sort_with_indices(x, 0, false);
        EXPECT_EQ(ops::into_data(ai).to_vec<int32_t>(), (std::vector<int32_t>{3, 9, 2, 4, 8, 6, 0, 7, 1, 5}))
            << name(dt);
        auto [desc, di] = ops::sort_with_indices(x, 0, true);
        EXPECT_EQ(ops::into_data(di).to_vec<int32_t>(), (std::vector<int32_t>{1, 5, 7, 0, 6, 2, 4, 8, 9, 3}))
            << name(dt);
        const auto dv = values(desc);
        EXPECT_TRUE(std::isnan(dv[0]) && std::isnan(dv[1]));
        EXPECT_TRUE(std::signbit(dv[5]) && !std::signbit(dv[6]) &&
                    std::signbit(dv[7]));  // -0, 0, -0 in input order
    }
}

TEST(Sort, NonContiguousInputs) {
    const Dims shape{6, 7};
    const auto v = data(shape.numel(), DType::f32, 7);
    auto x = make(v, shape, DType::f32);
    // Transposed view [7, 6]: element (i, j) = v[j * 7 + i].
    std::vector<double> vt;
    for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 6; ++j) vt.push_back(v[static_cast<std::size_t>(j * 7 + i)]);
    auto xt = ops::swap_dims(x, 0, 1);
    for (int dim = 0; dim < 2; ++dim)
        for (bool desc : {false, true})
            expect_sorted(ops::sort_with_indices(xt, dim, desc), vt, {7, 6}, dim, desc, Dims{7, 6}[dim],
                          DType::f32, "transposed dim " + std::to_string(dim));
    // Flipped and stepped view: rows reversed, every other column.
    std::vector<double> vf;
    for (int64_t i = 5; i >= 0; --i)
        for (int64_t j = 0; j < 7; j += 2) vf.push_back(v[static_cast<std::size_t>(i * 7 + j)]);
    auto xf = ops::slice(ops::flip(x, {0}), {SliceArg(burn::all), SliceArg(0, std::nullopt, 2)});
    for (int dim = 0; dim < 2; ++dim)
        expect_sorted(ops::sort_with_indices(xf, dim, false), vf, {6, 4}, dim, false, Dims{6, 4}[dim],
                      DType::f32, "flipped/stepped dim " + std::to_string(dim));
}

TEST(Sort, TypedApiArgsortAndSort) {
    auto x = Tensor<2>::from_floats({{3, 1, 2}, {0, 5, -1}});
    EXPECT_EQ(x.sort(1).to_vec<float>(), (std::vector<float>{1, 2, 3, -1, 0, 5}));
    EXPECT_EQ(x.sort_descending(1).to_vec<float>(), (std::vector<float>{3, 2, 1, 5, 0, -1}));
    EXPECT_EQ(x.argsort(1).to_vec<int32_t>(), (std::vector<int32_t>{1, 2, 0, 2, 0, 1}));
    EXPECT_EQ(x.argsort(0, true).to_vec<int32_t>(), (std::vector<int32_t>{0, 1, 0, 1, 0, 1}));
    auto [v, i] = x.sort_with_indices(0);
    EXPECT_EQ(v.to_vec<float>(), (std::vector<float>{0, 1, -1, 3, 5, 2}));
    EXPECT_EQ(i.to_vec<int32_t>(), (std::vector<int32_t>{1, 0, 1, 0, 1, 0}));
    auto ints = Tensor<1, Int>::from_ints({5, -3, 5, 0, -3});
    EXPECT_EQ(ints.argsort(0).to_vec<int32_t>(), (std::vector<int32_t>{1, 4, 3, 0, 2}));  // stable ties
    EXPECT_EQ(ints.argsort(0, true).to_vec<int32_t>(), (std::vector<int32_t>{0, 2, 3, 1, 4}));
    auto [tv, ti] = x.topk_with_indices(2, 1);
    EXPECT_EQ(tv.to_vec<float>(), (std::vector<float>{3, 2, 5, 0}));
    EXPECT_EQ(ti.to_vec<int32_t>(), (std::vector<int32_t>{0, 2, 1, 0}));
    auto b = Tensor<1, Bool>::from_bool({true, false, true, false});
    EXPECT_EQ(b.sort(0).to_vec<bool>(), (std::vector<bool>{false, false, true, true}));
    EXPECT_EQ(b.argsort(0).to_vec<int32_t>(), (std::vector<int32_t>{1, 3, 0, 2}));
}

TEST(Topk, EveryDimEveryK) {
    const Dims shape{4, 5, 6};
    for (DType dt :
         {DType::f32, DType::f64, DType::f16, DType::i32, DType::i64, DType::i8, DType::u8, DType::boolean}) {
        const auto v = stored(data(shape.numel(), dt, 11), shape, dt);
        auto x = make(v, shape, dt);
        for (int dim = 0; dim < 3; ++dim)
            for (int64_t k = 0; k <= shape[dim]; ++k)
                expect_sorted(
                    ops::topk_with_indices(x, k, dim), v, shape, dim, true, k, dt,
                    std::string(name(dt)) + " topk " + std::to_string(k) + " dim " + std::to_string(dim));
    }
}

TEST(Sort, LongLinesAndManyLines) {
    // A long line (partial sort path of topk, parallel chunks) and many short lines.
    for (DType dt : {DType::f32, DType::i64, DType::f64, DType::f16, DType::i8, DType::u8, DType::boolean}) {
        const Dims shape{3, 5000};
        const auto v = stored(data(shape.numel(), dt, 21, true), shape, dt);
        auto x = make(v, shape, dt);
        expect_sorted(ops::sort_with_indices(x, 1, false), v, shape, 1, false, 5000, dt, "long asc");
        expect_sorted(ops::sort_with_indices(x, 1, true), v, shape, 1, true, 5000, dt, "long desc");
        expect_sorted(ops::topk_with_indices(x, 7, 1), v, shape, 1, true, 7, dt, "long topk 7");
        const Dims many{3000, 9};
        const auto w = stored(data(many.numel(), dt, 22, true), many, dt);
        expect_sorted(ops::sort_with_indices(make(w, many, dt), 1, false), w, many, 1, false, 9, dt,
                      "many lines");
        expect_sorted(ops::sort_with_indices(make(w, many, dt), 0, true), w, many, 0, true, 3000, dt,
                      "dim 0");
    }
}

TEST(Sort, EmptyDims) {
    auto x = ops::full({3, 0, 2}, 1.0, DType::f32, Device::cpu());
    for (int dim = 0; dim < 3; ++dim) {
        auto [v, i] = ops::sort_with_indices(x, dim, false);
        EXPECT_EQ(v.shape(), (Dims{3, 0, 2}));
        EXPECT_EQ(i.shape(), (Dims{3, 0, 2}));
        EXPECT_EQ(i.dtype(), DType::i32);
    }
    auto [tv, ti] = ops::topk_with_indices(ops::full({2, 3}, 1.0, DType::i32, Device::cpu()), 0, 1);
    EXPECT_EQ(tv.shape(), (Dims{2, 0}));
    EXPECT_EQ(ti.shape(), (Dims{2, 0}));
}

TEST(Sort, Errors) {
    auto x = ops::full({2, 3}, 1.0, DType::f32, Device::cpu());
    auto expect_error = [](auto&& f, const char* op, const char* fragment) {
        try {
            f();
            ADD_FAILURE() << "no error for " << op << " " << fragment;
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string("[") + op + "]"), std::string::npos) << what;
            EXPECT_NE(what.find(fragment), std::string::npos) << what;
        }
    };
    expect_error([&] { ops::sort_with_indices(x, 2, false); }, "sort", "2");
    expect_error([&] { ops::sort_with_indices(x, -3, false); }, "sort", "-3");
    expect_error([&] { ops::sort_with_indices(TensorAny(), 0, false); }, "sort", "undefined");
    expect_error([&] { ops::topk_with_indices(x, 4, 1); }, "topk", "k = 4");
    expect_error([&] { ops::topk_with_indices(x, -1, 1); }, "topk", "k = -1");
    expect_error([&] { ops::topk_with_indices(x, 1, 5); }, "topk", "5");
    EXPECT_THROW(ops::topk_with_indices(x, 4, 1), IndexError);
    auto t = Tensor<2>::ones({2, 3});
    EXPECT_THROW(t.topk(4, 1), Error);
    EXPECT_THROW(t.argsort(2), Error);
}

TEST(Sort, GradientRoutesToSourcePositions) {
    // Distinct values (a gradient is defined): d(sum(w * sort(x)))/dx[i[j]] = w[j]; topk likewise,
    // with zero gradient for the elements it drops.
    const Device ad = Device::cpu().autodiff();
    const Dims shape{3, 6};
    std::vector<double> v(18);
    std::mt19937 rng(5);
    std::iota(v.begin(), v.end(), 0.0);
    std::shuffle(v.begin(), v.end(), rng);
    for (auto& x : v) x = 0.5 * x - 4;
    for (int64_t k : {int64_t{6}, int64_t{2}}) {
        auto x = ops::require_grad(ops::from_data(TensorData(v, shape), ad));
        auto [vals, idx] = k == 6 ? ops::sort_with_indices(x, 1, true) : ops::topk_with_indices(x, k, 1);
        std::vector<double> w;
        for (int64_t j = 0; j < 3 * k; ++j) w.push_back(static_cast<double>(j % 5) - 1.5);
        auto loss = ops::mul(vals, ops::from_data(TensorData(w, Dims{3, k}), ad));
        auto grad = ops::grad(x, ops::backward(loss));
        ASSERT_TRUE(grad.has_value());
        const auto g = values(*grad);
        std::vector<double> want(18, 0.0);
        for (int64_t r = 0; r < 3; ++r) {
            std::vector<int64_t> order(6);  // the host's descending order of row r
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                return v[static_cast<std::size_t>(r * 6 + a)] > v[static_cast<std::size_t>(r * 6 + b)];
            });
            for (int64_t j = 0; j < k; ++j)
                want[static_cast<std::size_t>(r * 6 + order[static_cast<std::size_t>(j)])] =
                    w[static_cast<std::size_t>(r * k + j)];
        }
        EXPECT_EQ(g, want) << "k = " << k;
        (void)idx;
    }
}
