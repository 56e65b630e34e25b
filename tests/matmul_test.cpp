// matmul against a naive triple loop in double: every dtype family, 2-D and batched with broadcast
// batch dims, transposed / sliced / flipped / stride-0 operands, empty dims, errors, and the built-in
// blocked kernel called directly for every instruction-set variant. Float tests run twice: through
// OpenBLAS (when built with it) and through the built-in kernel.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <string>

#include "backends/cpu/gemm.hpp"

using namespace burn;

namespace {

/// A dense host array in double with its shape (row-major).
struct Host {
    std::vector<double> v;
    Dims shape;
    double at(const Dims& ix) const {
        int64_t o = 0;
        for (int d = 0; d < shape.rank(); ++d) o = o * shape[d] + ix[d];
        return v[static_cast<std::size_t>(o)];
    }
};

/// Values in [-1, 1], or integers in [-4, 4] ([0, 4] for unsigned dtypes).
Host random_host(const Dims& shape, uint32_t seed, bool ints, bool non_negative = false) {
    std::mt19937 rng(seed);
    Host h{std::vector<double>(static_cast<std::size_t>(shape.numel())), shape};
    std::uniform_int_distribution<int> di(non_negative ? 0 : -4, 4);
    std::uniform_real_distribution<double> dr(-1.0, 1.0);
    for (auto& x : h.v) x = ints ? di(rng) : dr(rng);
    return h;
}

TensorAny to_tensor(const Host& h, DType dt) {
    return visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> vals;
        for (double x : h.v) {
            if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
                vals.push_back(T(static_cast<float>(x)));
            else
                vals.push_back(static_cast<T>(x));
        }
        return ops::from_data(TensorData(vals, h.shape), Device::cpu());
    });
}

/// Values as stored in dtype (f16/bf16 rounding), so the reference sees the same inputs.
Host rounded(const Host& h, DType dt) {
    Host r = h;
    auto t = to_tensor(h, dt);
    r.v = ops::into_data(t).convert(DType::f64).to_vec<double>();
    return r;
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(t).convert(DType::f64).to_vec<double>();
}

/// Transposes the last two dims of a host array.
Host host_t(const Host& h) {
    const int r = h.shape.rank();
    Host o = h;
    std::swap(o.shape[r - 2], o.shape[r - 1]);
    const int64_t rows = h.shape[r - 2], cols = h.shape[r - 1],
                  batches = h.shape.numel() / std::max<int64_t>(1, rows * cols);
    for (int64_t b = 0; b < batches; ++b)
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j)
                o.v[static_cast<std::size_t>(b * rows * cols + j * rows + i)] =
                    h.v[static_cast<std::size_t>(b * rows * cols + i * cols + j)];
    return o;
}

/// Batched matmul in double with numpy broadcasting of the batch dims (equal ranks).
Host ref_matmul(const Host& a, const Host& b) {
    const int r = a.shape.rank();
    const int64_t m = a.shape[r - 2], k = a.shape[r - 1], n = b.shape[r - 1];
    Dims out = a.shape;
    for (int d = 0; d < r - 2; ++d) out[d] = std::max(a.shape[d], b.shape[d]);
    out[r - 2] = m;
    out[r - 1] = n;
    Host c{std::vector<double>(static_cast<std::size_t>(out.numel())), out};
    const int64_t batches = out.numel() / std::max<int64_t>(1, m * n);
    for (int64_t bi = 0; bi < (m * n != 0 ? batches : 0); ++bi) {
        Dims ia = a.shape, ib = b.shape;
        int64_t rem = bi;
        for (int d = r - 3; d >= 0; --d) {
            const int64_t x = rem % out[d];
            rem /= out[d];
            ia[d] = a.shape[d] == 1 ? 0 : x;
            ib[d] = b.shape[d] == 1 ? 0 : x;
        }
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double s = 0;
                for (int64_t p = 0; p < k; ++p) {
                    ia[r - 2] = i, ia[r - 1] = p, ib[r - 2] = p, ib[r - 1] = j;
                    s += a.at(ia) * b.at(ib);
                }
                c.v[static_cast<std::size_t>(bi * m * n + i * n + j)] = s;
            }
    }
    return c;
}

double tolerance(DType dt, int64_t k) {
    switch (dt) {
        case DType::f32:
            return 1e-5 * static_cast<double>(k + 1);
        case DType::f64:
            return 1e-12 * static_cast<double>(k + 1);
        case DType::f16:
            return 2e-3 * static_cast<double>(k + 1);
        case DType::bf16:
            return 1.6e-2 * static_cast<double>(k + 1);
        default:
            return 0;  // integers are exact
    }
}

void expect_matmul_close(const TensorAny& got, const Host& want, DType dt, int64_t k,
                         const std::string& what) {
    ASSERT_EQ(got.shape(), want.shape) << what;
    ASSERT_EQ(got.dtype(), dt) << what;
    const auto g = values(got);
    const double tol = tolerance(dt, k);
    for (std::size_t i = 0; i < g.size(); ++i) {
        // Integer results wrap modulo 2^bits (i8 sums overflow here).
        const double w = visit_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
                return static_cast<double>(static_cast<T>(static_cast<int64_t>(want.v[i])));
            else
                return want.v[i];
        });
        ASSERT_NEAR(g[i], w, tol * std::max(1.0, std::abs(w))) << what << " at flat index " << i;
    }
}

/// Runs each float test through OpenBLAS (when present) and through the built-in kernel.
class MatmulTest : public ::testing::TestWithParam<cpu::BlasUse> {
  protected:
    void SetUp() override { cpu::set_blas_use(GetParam()); }
    void TearDown() override { cpu::set_blas_use(cpu::BlasUse::automatic); }
};

const DType kAllDtypes[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                            DType::i32, DType::i16, DType::i8,  DType::u8};

/// a [.., m, k] x b [.., k, n] built from host arrays, compared with the reference.
void check_pair(const Host& ha, const Host& hb, DType dt, const std::string& what) {
    const Host a = rounded(ha, dt), b = rounded(hb, dt);
    auto got = ops::matmul(to_tensor(a, dt), to_tensor(b, dt));
    expect_matmul_close(got, ref_matmul(a, b), dt, a.shape[a.shape.rank() - 1], what);
}

// The tests stay in the anonymous namespace with their fixture (in a unity batch, a test class with
// external linkage deriving from it draws -Wsubobject-linkage).
TEST_P(MatmulTest, TwoDEveryDtype) {
    for (DType dt : kAllDtypes) {
        const bool ints = is_int(dt), uns = dt == DType::u8;
        check_pair(random_host({5, 7}, 1, ints, uns), random_host({7, 3}, 2, ints, uns), dt, "5x7x3");
        check_pair(random_host({64, 33}, 3, ints, uns), random_host({33, 70}, 4, ints, uns), dt, "64x33x70");
        check_pair(random_host({1, 9}, 5, ints, uns), random_host({9, 1}, 6, ints, uns), dt, "1x9x1");
    }
}

TEST_P(MatmulTest, BatchedWithBroadcast) {
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::i32, DType::i64}) {
        const bool ints = is_int(dt);
        check_pair(random_host({3, 4, 5}, 7, ints), random_host({3, 5, 6}, 8, ints), dt, "[3,4,5]x[3,5,6]");
        check_pair(random_host({2, 1, 4, 5}, 9, ints), random_host({1, 3, 5, 6}, 10, ints), dt,
                   "[2,1,4,5]x[1,3,5,6]");
        check_pair(random_host({1, 7, 8}, 11, ints), random_host({4, 8, 2}, 12, ints), dt, "[1,7,8]x[4,8,2]");
        // Many small matrices (the parallel-over-batches path) and a few large ones.
        check_pair(random_host({40, 6, 9}, 13, ints), random_host({40, 9, 5}, 14, ints), dt, "40 batches");
        check_pair(random_host({2, 70, 80}, 15, ints), random_host({1, 80, 90}, 16, ints), dt,
                   "2 large batches");
    }
}

TEST_P(MatmulTest, TransposedInputs) {
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::i32}) {
        const bool ints = is_int(dt);
        const Host at = rounded(random_host({33, 17}, 20, ints), dt);  // stored k x m
        const Host bt = rounded(random_host({29, 33}, 21, ints), dt);  // stored n x k
        const Host a = host_t(at), b = host_t(bt);
        auto ta = ops::swap_dims(to_tensor(at, dt), -2, -1);
        auto tb = ops::swap_dims(to_tensor(bt, dt), -2, -1);
        auto na = to_tensor(a, dt), nb = to_tensor(b, dt);
        const Host want = ref_matmul(a, b);
        expect_matmul_close(ops::matmul(ta, nb), want, dt, 33, "T x N");
        expect_matmul_close(ops::matmul(na, tb), want, dt, 33, "N x T");
        expect_matmul_close(ops::matmul(ta, tb), want, dt, 33, "T x T");
        // Batched and broadcast transposed operands.
        const Host bat = rounded(random_host({3, 6, 4}, 22, ints), dt);
        const Host bb = rounded(random_host({1, 6, 5}, 23, ints), dt);
        expect_matmul_close(ops::matmul(ops::swap_dims(to_tensor(bat, dt), -2, -1), to_tensor(bb, dt)),
                            ref_matmul(host_t(bat), bb), dt, 6, "batched T x N");
    }
}

TEST_P(MatmulTest, TypedApiTranspose) {
    auto a = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}});  // [2, 3]
    auto b = Tensor<2>::from_floats({{1, 0}, {0, 1}, {2, 2}});
    EXPECT_EQ(a.matmul(b).to_vec<float>(), (std::vector<float>{7, 8, 16, 17}));
    // a^T [3, 2] x a [2, 3]
    EXPECT_EQ(a.transpose().matmul(a).to_vec<float>(),
              (std::vector<float>{17, 22, 27, 22, 29, 36, 27, 36, 45}));
    // a [2, 3] x a^T [3, 2]
    EXPECT_EQ(a.matmul(a.transpose()).to_vec<float>(), (std::vector<float>{14, 32, 32, 77}));
}

TEST_P(MatmulTest, SlicedFlippedAndBroadcastOperands) {
    for (DType dt : {DType::f32, DType::f64, DType::i32, DType::i64, DType::f16}) {
        const bool ints = is_int(dt);
        const Host big = rounded(random_host({12, 15}, 30, ints), dt);
        const Host rhs = rounded(random_host({10, 6}, 31, ints), dt);
        auto tbig = to_tensor(big, dt);
        auto trhs = to_tensor(rhs, dt);
        // Row gap (a sub-block): rows 1..9, cols 3..13.
        Host sub{{}, {8, 10}};
        for (int64_t i = 1; i < 9; ++i)
            for (int64_t j = 3; j < 13; ++j) sub.v.push_back(big.v[static_cast<std::size_t>(i * 15 + j)]);
        auto tsub = ops::slice(tbig, {SliceArg(1, 9), SliceArg(3, 13)});
        expect_matmul_close(ops::matmul(tsub, trhs), ref_matmul(sub, rhs), dt, 10, "sub-block");
        // Column step 2 (no BLAS layout: copied first on that path).
        Host step{{}, {12, 8}};
        for (int64_t i = 0; i < 12; ++i)
            for (int64_t j = 0; j < 15; j += 2) step.v.push_back(big.v[static_cast<std::size_t>(i * 15 + j)]);
        Host rhs8 = rounded(random_host({8, 5}, 32, ints), dt);
        auto tstep = ops::slice(tbig, {SliceArg(burn::all), SliceArg(0, std::nullopt, 2)});
        expect_matmul_close(ops::matmul(tstep, to_tensor(rhs8, dt)), ref_matmul(step, rhs8), dt, 8, "step 2");
        // Flipped rows and cols (negative strides).
        Host fl{{}, {12, 15}};
        for (int64_t i = 11; i >= 0; --i)
            for (int64_t j = 14; j >= 0; --j) fl.v.push_back(big.v[static_cast<std::size_t>(i * 15 + j)]);
        Host rhs15 = rounded(random_host({15, 4}, 33, ints), dt);
        expect_matmul_close(ops::matmul(ops::flip(tbig, {0, 1}), to_tensor(rhs15, dt)), ref_matmul(fl, rhs15),
                            dt, 15, "flipped");
        // A row broadcast to 6 rows (stride 0 inside the matrix).
        Host row = rounded(random_host({1, 10}, 34, ints), dt);
        Host rows{{}, {6, 10}};
        for (int i = 0; i < 6; ++i) rows.v.insert(rows.v.end(), row.v.begin(), row.v.end());
        expect_matmul_close(ops::matmul(ops::expand(to_tensor(row, dt), {6, 10}), trhs),
                            ref_matmul(rows, rhs), dt, 10, "stride-0 rows");
    }
}

TEST_P(MatmulTest, EmptyDims) {
    for (DType dt : {DType::f32, DType::f64, DType::i32, DType::f16}) {
        auto z =
            ops::matmul(ops::full({3, 0}, 1.0, dt, Device::cpu()), ops::full({0, 4}, 1.0, dt, Device::cpu()));
        EXPECT_EQ(z.shape(), (Dims{3, 4}));
        EXPECT_EQ(values(z), std::vector<double>(12, 0.0));
        auto zb = ops::matmul(ops::full({2, 3, 0}, 1.0, dt, Device::cpu()),
                              ops::full({1, 0, 4}, 1.0, dt, Device::cpu()));
        EXPECT_EQ(zb.shape(), (Dims{2, 3, 4}));
        EXPECT_EQ(values(zb), std::vector<double>(24, 0.0));
        EXPECT_EQ(
            ops::matmul(ops::full({0, 5}, 1.0, dt, Device::cpu()), ops::full({5, 4}, 1.0, dt, Device::cpu()))
                .shape(),
            (Dims{0, 4}));
        EXPECT_EQ(
            ops::matmul(ops::full({3, 5}, 1.0, dt, Device::cpu()), ops::full({5, 0}, 1.0, dt, Device::cpu()))
                .shape(),
            (Dims{3, 0}));
        EXPECT_EQ(ops::matmul(ops::full({0, 3, 5}, 1.0, dt, Device::cpu()),
                              ops::full({1, 5, 2}, 1.0, dt, Device::cpu()))
                      .shape(),
                  (Dims{0, 3, 2}));
    }
}

TEST_P(MatmulTest, LargeBlocksAndThreads) {
    // Several depth blocks (k = 600), two column panels (n = 4200), many row blocks (m = 500).
    for (int threads : {1, 2}) {
        set_num_threads(threads);
        check_pair(random_host({40, 600}, 40, false), random_host({600, 4200}, 41, false), DType::f32,
                   "40x600x4200 threads " + std::to_string(threads));
        check_pair(random_host({500, 300}, 42, false), random_host({300, 70}, 43, false), DType::f64,
                   "500x300x70 threads " + std::to_string(threads));
        check_pair(random_host({130, 70}, 44, true), random_host({70, 150}, 45, true), DType::i32,
                   "130x70x150 i32 threads " + std::to_string(threads));
    }
    set_num_threads(0);
}

INSTANTIATE_TEST_SUITE_P(Kernels, MatmulTest, ::testing::Values(cpu::BlasUse::always, cpu::BlasUse::never),
                         [](const auto& info) {
                             return std::string(info.param == cpu::BlasUse::always ? "Blas" : "Builtin");
                         });

TEST(MatmulErrors, Messages) {
    auto a = ops::full({2, 3}, 1.0, DType::f32, Device::cpu());
    auto b = ops::full({4, 5}, 1.0, DType::f32, Device::cpu());
    try {
        ops::matmul(a, b);
        FAIL() << "no error for mismatched inner dims";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[matmul] inner dims differ: lhs [2, 3] vs rhs [4, 5]"),
                  std::string::npos)
            << e.what();
    }
    auto expect_error = [](auto&& f, const char* what) {
        try {
            f();
            ADD_FAILURE() << "no error: " << what;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("[matmul]"), std::string::npos) << e.what();
        }
    };
    auto bools = ops::full({2, 2}, 1.0, DType::boolean, Device::cpu());
    expect_error([&] { ops::matmul(bools, bools); }, "bool");
    EXPECT_THROW(ops::matmul(bools, bools), DTypeError);
    auto i32 = ops::full({3, 2}, 1.0, DType::i32, Device::cpu());
    expect_error([&] { ops::matmul(a, i32); }, "dtype mismatch");
    EXPECT_THROW(ops::matmul(a, i32), DTypeError);
    expect_error([&] { ops::matmul(ops::full({3}, 1.0, DType::f32, Device::cpu()), a); }, "rank 1");
    expect_error(
        [&] {
            ops::matmul(ops::full({2, 2, 3}, 1.0, DType::f32, Device::cpu()),
                        ops::full({3, 2}, 1.0, DType::f32, Device::cpu()));
        },
        "rank mismatch");
    expect_error(
        [&] {
            ops::matmul(ops::full({2, 2, 3}, 1.0, DType::f32, Device::cpu()),
                        ops::full({3, 3, 2}, 1.0, DType::f32, Device::cpu()));
        },
        "batch broadcast");
    expect_error([&] { ops::matmul(TensorAny(), a); }, "undefined");
    // The typed API reports the same error.
    auto ta = Tensor<2>::ones({2, 3});
    auto tb = Tensor<2>::ones({4, 5});
    EXPECT_THROW(ta.matmul(tb), ShapeError);
}

TEST(MatmulBlas, ThreadCountFollowsBurn) {
    if (std::string(cpu::blas_core_name()).empty()) GTEST_SKIP() << "built without OpenBLAS";
    cpu::set_blas_use(cpu::BlasUse::always);
    auto a = ops::full({8, 8}, 1.0, DType::f32, Device::cpu());
    for (int threads : {1, 2}) {
        set_num_threads(threads);
        auto c = ops::matmul(a, a);
        EXPECT_EQ(values(c)[0], 8.0);
        EXPECT_EQ(cpu::blas_num_threads(), threads);
    }
    set_num_threads(0);
    cpu::set_blas_use(cpu::BlasUse::automatic);
}

}  // namespace
