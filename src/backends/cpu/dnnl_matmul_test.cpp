// The CPU's bf16 matmul through oneDNN (dnnl_matmul.cpp) against a float64 product of the same bf16
// values: plain, transposed operands (a Linear weight's view), batches (a broadcast operand), a row
// count that splits unevenly over the threads, a single row, and odd sizes; matmul_widen (f32 out) within
// float32's rounding of the exact product, matmul (bf16 out) within one bf16 rounding; and the built-in
// kernel (the path without oneDNN) within bf16's tolerance of the same reference.
// Regression: one primitive run by several threads at once needs a scratchpad per run; with the library's
// shared one the GPT-sized case came out wrong (and bf16 training drifted 10% from float32 in 40 steps).
#include "backends/cpu/dnnl_matmul.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>

namespace burn::cpu {
namespace {

struct MmCase {
    Dims a, b;                    // the operands' shapes as passed (after the views below)
    bool ta = false, tb = false;  // pass the operand as a transposed view of a contiguous tensor
};

TensorAny operand(const Dims& s, bool transposed, uint64_t seed) {
    Device::cpu().seed(seed);
    if (!transposed)
        return ops::cast(ops::random(s, Distribution::Uniform(-1, 1), DType::f32, Device::cpu()),
                         DType::bf16);
    Dims t = s;
    std::swap(t[t.rank() - 1], t[t.rank() - 2]);
    auto x = ops::cast(ops::random(t, Distribution::Uniform(-1, 1), DType::f32, Device::cpu()), DType::bf16);
    return ops::swap_dims(x, -2, -1);
}

/// The float64 product of the (bf16) operands' values.
std::vector<double> exact(const TensorAny& a, const TensorAny& b) {
    return ops::into_data(ops::matmul(ops::cast(a, DType::f64), ops::cast(b, DType::f64))).to_vec<double>();
}

void expect_close(const TensorAny& got, const std::vector<double>& want, double rtol, const char* what) {
    const auto g = ops::into_data(ops::cast(got, DType::f64)).to_vec<double>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i)
        ASSERT_NEAR(g[i], want[i], rtol * (1 + std::abs(want[i]))) << what << " element " << i;
}

const MmCase kCases[] = {
    {{64, 96}, {96, 48}},
    {{37, 130}, {130, 65}, false, true},
    {{1, 64}, {64, 33}},
    {{3, 45, 70}, {3, 70, 29}},
    {{2, 100, 64}, {1, 64, 80}, true, false},
    {{257, 31}, {31, 17}, true, true},
    // a GPT projection's shape (transposed weight): its row parts run one primitive on several threads at
    // once, each with its own scratchpad (sharing the library's, they raced)
    {{1024, 256}, {256, 768}, false, true}};

TEST(DnnlMatmul, Bf16ProductsMatchFloat64) {
    if (!dnnl_bf16_matmul_available()) GTEST_SKIP() << "oneDNN is not built in or the CPU has no AVX512-BF16";
    for (const MmCase& c : kCases) {
        const TensorAny a = operand(c.a, c.ta, 1), b = operand(c.b, c.tb, 2);
        const auto want = exact(a, b);
        // f32 out: the float32 accumulator as is (k products of bf16 values are exact in float32)
        Dims bs = b.shape();
        if (a.rank() == 3) bs[0] = a.shape()[0];  // matmul_widen takes equal batch dims: a stride-0 view
        expect_close(ops::matmul_widen(a, ops::expand(b, bs), DType::f32), want, 2e-6, "matmul_widen");
        // bf16 out: one rounding of the f32 result (2^-8 relative)
        expect_close(ops::matmul(a, b), want, 8e-3, "matmul bf16");
    }
}

TEST(DnnlMatmul, BuiltInKernelAgrees) {
    const bool was = dnnl_bf16_matmul_available();
    set_dnnl_matmul_enabled(false);
    ASSERT_FALSE(dnnl_bf16_matmul_available());
    for (const MmCase& c : kCases) {
        const TensorAny a = operand(c.a, c.ta, 3), b = operand(c.b, c.tb, 4);
        expect_close(ops::matmul(a, b), exact(a, b), 8e-3, "built-in bf16");
    }
    set_dnnl_matmul_enabled(true);
    EXPECT_EQ(dnnl_bf16_matmul_available(), was);
}

}  // namespace
}  // namespace burn::cpu
