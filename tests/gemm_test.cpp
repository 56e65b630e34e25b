// The built-in blocked GEMM (backends/cpu/gemm.hpp) called directly, for every instruction-set variant
// the CPU supports, on odd sizes and every operand layout (row-major, transposed, negative strides,
// gaps, stride-0 rows), against a naive triple loop in double; it is tested even when OpenBLAS
// handles f32/f64 in matmul.
#include "backends/cpu/gemm.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <string>

using namespace burn;

namespace {

/// Logical m x k matrix A with strides (rs, cs) over storage; `base` is the element (0, 0).
struct Operand {
    std::vector<double> store;
    int64_t base, rs, cs;
};

/// layout 0: row-major; 1: transposed (column-major); 2: negative strides; 3: gaps (cs = 2, rs padded);
/// 4: stride-0 rows (every row the same).
Operand make_operand(int64_t rows, int64_t cols, int layout, std::mt19937& rng, bool ints,
                     bool non_negative) {
    Operand o;
    std::uniform_int_distribution<int> di(non_negative ? 0 : -4, 4);
    std::uniform_real_distribution<double> dr(-1.0, 1.0);
    int64_t size = 0;
    switch (layout) {
        case 0:
            o.rs = cols, o.cs = 1, o.base = 0, size = rows * cols;
            break;
        case 1:
            o.rs = 1, o.cs = rows, o.base = 0, size = rows * cols;
            break;
        case 2:
            o.rs = -cols, o.cs = -1, o.base = rows * cols - 1, size = rows * cols;
            break;
        case 3:
            o.rs = 2 * cols + 3, o.cs = 2, o.base = 0, size = rows * (2 * cols + 3);
            break;
        default:
            o.rs = 0, o.cs = 1, o.base = 0, size = cols;
            break;
    }
    o.store.resize(static_cast<std::size_t>(std::max<int64_t>(size, 1)));
    for (auto& x : o.store) x = ints ? di(rng) : dr(rng);
    return o;
}

double elem(const Operand& o, int64_t i, int64_t j) {
    return o.store[static_cast<std::size_t>(o.base + i * o.rs + j * o.cs)];
}

template <class T>
double to_d(T x) {
    if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
        return static_cast<double>(static_cast<float>(x));
    else
        return static_cast<double>(x);
}

template <class T>
void check_gemm(int64_t m, int64_t k, int64_t n, int layout_a, int layout_b, uint32_t seed) {
    std::mt19937 rng(seed);
    constexpr bool ints = std::is_integral_v<T>;
    constexpr bool half = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;
    constexpr bool uns = std::is_unsigned_v<T>;
    Operand a = make_operand(m, k, layout_a, rng, ints || half, uns);
    Operand b = make_operand(k, n, layout_b, rng, ints || half, uns);
    std::vector<T> as, bs;
    // Store the values as T holds them, so the reference sees exactly the kernel's inputs.
    for (double& x : a.store) {
        as.push_back(static_cast<T>(static_cast<float>(x)));
        x = to_d(as.back());
    }
    for (double& x : b.store) {
        bs.push_back(static_cast<T>(static_cast<float>(x)));
        x = to_d(bs.back());
    }
    const int64_t ldc = n + 3;  // padding columns must stay untouched
    const T sentinel = static_cast<T>(7.0f);
    std::vector<T> c(static_cast<std::size_t>(std::max<int64_t>(m * ldc, 1)), sentinel);
    cpu::gemm_fallback<T>(m, n, k, as.data() + a.base, a.rs, a.cs, bs.data() + b.base, b.rs, b.cs, c.data(),
                          ldc);
    const std::string what = std::string(name(dtype_of<T>)) + " " + std::to_string(m) + "x" +
                             std::to_string(k) + "x" + std::to_string(n) + " layouts " +
                             std::to_string(layout_a) + "/" + std::to_string(layout_b) + " isa " +
                             cpu::gemm_isa_name(cpu::gemm_isa());
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < ldc; ++j) {
            const double got = to_d(c[static_cast<std::size_t>(i * ldc + j)]);
            if (j >= n) {
                ASSERT_EQ(got, 7.0) << what << ": padding overwritten at " << i << "," << j;
                continue;
            }
            double want = 0;
            for (int64_t p = 0; p < k; ++p) want += elem(a, i, p) * elem(b, p, j);
            if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
                ASSERT_NEAR(got, want, (sizeof(T) == 4 ? 1e-5 : 1e-12) * static_cast<double>(k + 1))
                    << what << " at " << i << "," << j;
            } else if constexpr (std::is_same_v<T, f16>) {
                ASSERT_NEAR(got, want, 1e-3 * std::max(1.0, std::abs(want)))
                    << what << " at " << i << "," << j;
            } else if constexpr (std::is_same_v<T, bf16>) {
                ASSERT_NEAR(got, want, 8e-3 * std::max(1.0, std::abs(want)))
                    << what << " at " << i << "," << j;
            } else if constexpr (std::is_integral_v<T>) {
                // Narrow integers wrap: compare with the exact sum converted (modulo 2^bits) to T.
                const auto wrapped = static_cast<double>(static_cast<T>(static_cast<int64_t>(want)));
                ASSERT_EQ(got, wrapped) << what << " at " << i << "," << j;
            }
        }
    }
}

template <class T>
void check_gemm_all(uint32_t seed) {
    // {6, 33, 17}, {8, 300, 260}: up to 8 rows of A take the unpacked dot-product path (several column
    // blocks on two threads for the second)
    const int64_t sizes[][3] = {{1, 1, 1}, {17, 33, 65}, {128, 257, 64}, {2, 40, 70},
                                {3, 5, 2}, {200, 9, 1},  {6, 33, 17},    {8, 300, 260}};
    for (const auto& s : sizes) {
        const bool big = s[0] * s[1] * s[2] > 100000;  // every layout pair for small sizes, 10 for big ones
        for (int la = 0; la < 5; ++la)
            for (int lb = 0; lb < 5; ++lb)
                if (!big || lb == la || lb == (la + 1) % 5) check_gemm<T>(s[0], s[1], s[2], la, lb, seed++);
    }
}

}  // namespace

TEST(GemmFallback, OddSizesLayoutsAndIsas) {
    for (auto isa : {cpu::GemmIsa::generic, cpu::GemmIsa::avx2, cpu::GemmIsa::avx512}) {
        if (cpu::set_gemm_isa(isa) != isa) continue;  // not supported by this CPU
        for (int threads : {1, 2}) {
            set_num_threads(threads);
            check_gemm_all<float>(100);
            check_gemm_all<double>(200);
            check_gemm_all<int32_t>(300);
            check_gemm_all<int64_t>(400);
            check_gemm_all<f16>(500);
            check_gemm_all<bf16>(600);
            check_gemm_all<int8_t>(700);
            check_gemm_all<int16_t>(800);
            check_gemm_all<uint8_t>(900);
        }
    }
    set_num_threads(0);
    cpu::set_gemm_isa(cpu::gemm_cpu_isa());
}

TEST(GemmFallback, ZeroDepthWritesZeros) {
    std::vector<float> c(12, 5.0f);
    cpu::gemm_fallback<float>(3, 3, 0, nullptr, 0, 1, nullptr, 3, 1, c.data(), 4);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) EXPECT_EQ(c[static_cast<std::size_t>(i * 4 + j)], 0.0f);
        EXPECT_EQ(c[static_cast<std::size_t>(i * 4 + 3)], 5.0f);
    }
}

TEST(GemmFallback, IntegersWrapLikeTwosComplement) {
    // i32: products overflow; the result is the exact sum modulo 2^32.
    const int64_t m = 5, k = 7, n = 6;
    std::mt19937 rng(77);
    std::uniform_int_distribution<int32_t> d(-2000000000, 2000000000);
    std::vector<int32_t> a(m * k), b(k * n), c(m * n);
    for (auto& x : a) x = d(rng);
    for (auto& x : b) x = d(rng);
    cpu::gemm_fallback<int32_t>(m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), n);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            uint32_t s = 0;
            for (int64_t p = 0; p < k; ++p)
                s += static_cast<uint32_t>(a[i * k + p]) * static_cast<uint32_t>(b[p * n + j]);
            EXPECT_EQ(c[i * n + j], static_cast<int32_t>(s));
        }
    // i8 through the typed frontend: 100 * 100 * 3 wraps modulo 256.
    auto x = ops::full({1, 3}, 100.0, DType::i8, Device::cpu());
    auto y = ops::full({3, 1}, 100.0, DType::i8, Device::cpu());
    EXPECT_EQ(ops::into_data(ops::matmul(x, y)).to_vec<int8_t>()[0], 48);  // 30000 = 117 * 256 + 48
}
