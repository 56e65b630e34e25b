// gelu and gelu_backward for contiguous f32 runs: Highway (compiled for every target it knows,
// picked at run time by HWY_DYNAMIC_DISPATCH), or the scalar functors in a build without Highway.
// With Highway this file is included once per target through foreach_target.h.
#include "backends/cpu/simd_act.hpp"

#include <cmath>
#include <cstddef>

#include "backends/common/scalar_math.hpp"

#if !defined(BURN_HAVE_HWY) && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#ifdef BURN_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_act.cpp"
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace burn::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// erf(x): Eigen's rational approximation for float (odd numerator of degree 13, even denominator
/// of degree 8, x clamped to [-4, 4] where erf is +-1 in float); |error| < 7e-8 before rounding.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V erf_approx(D d, V x) {
    x = hn::Min(hn::Max(x, hn::Set(d, -4.0f)), hn::Set(d, 4.0f));
    const V x2 = hn::Mul(x, x);
    V p = hn::Set(d, -2.72614225801306e-10f);
    p = hn::MulAdd(p, x2, hn::Set(d, 2.77068142495902e-08f));
    p = hn::MulAdd(p, x2, hn::Set(d, -2.10102402082508e-06f));
    p = hn::MulAdd(p, x2, hn::Set(d, -5.69250639462346e-05f));
    p = hn::MulAdd(p, x2, hn::Set(d, -7.34990630326855e-04f));
    p = hn::MulAdd(p, x2, hn::Set(d, -2.95459980854025e-03f));
    p = hn::MulAdd(p, x2, hn::Set(d, -1.60960333262415e-02f));
    p = hn::Mul(p, x);
    V q = hn::Set(d, -1.45660718464996e-05f);
    q = hn::MulAdd(q, x2, hn::Set(d, -2.13374055278905e-04f));
    q = hn::MulAdd(q, x2, hn::Set(d, -1.68282697438203e-03f));
    q = hn::MulAdd(q, x2, hn::Set(d, -7.37332916720468e-03f));
    q = hn::MulAdd(q, x2, hn::Set(d, -1.42647390514189e-02f));
    return hn::Div(p, q);
}

/// Phi(x) = 0.5 (1 + erf(x / sqrt 2)); NaN stays NaN (Min/Max would drop it, so it is put back).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V normal_cdf(D d, V x) {
    const V e = erf_approx(d, hn::Mul(x, hn::Set(d, 0.70710678118654752440f)));
    const V cdf = hn::MulAdd(e, hn::Set(d, 0.5f), hn::Set(d, 0.5f));
    return hn::IfThenElse(hn::IsNaN(x), x, cdf);
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> load_part(D d, const T* p, size_t count) {
    return count >= hn::Lanes(d) ? hn::LoadU(d, p) : hn::MaskedLoad(hn::FirstN(d, count), d, p);
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE void store_part(hn::Vec<D> v, D d, T* p, size_t count) {
    if (count >= hn::Lanes(d)) {
        hn::StoreU(v, d, p);
    } else {
        hn::BlendedStore(v, hn::FirstN(d, count), d, p);
    }
}

void GeluF32(const float* x, float* y, int64_t n_) {
    const hn::ScalableTag<float> d;
    const size_t n = static_cast<size_t>(n_), N = hn::Lanes(d);
    for (size_t i = 0; i < n; i += N) {
        const size_t c = n - i;
        const auto v = load_part(d, x + i, c);
        store_part(hn::Mul(v, normal_cdf(d, v)), d, y + i, c);
    }
}

void ExpF32(const float* x, float* y, int64_t n_) {
    const hn::ScalableTag<float> d;
    const size_t n = static_cast<size_t>(n_), N = hn::Lanes(d);
    for (size_t i = 0; i < n; i += N) {
        const size_t c = n - i;
        const auto v = load_part(d, x + i, c);
        // Exp's range reduction does not keep NaN or the infinities: put them back.
        auto e = hn::Exp(d, v);
        e = hn::IfThenElse(hn::Eq(v, hn::Set(d, HUGE_VALF)), v, e);
        e = hn::IfThenZeroElse(hn::Eq(v, hn::Set(d, -HUGE_VALF)), e);
        store_part(hn::IfThenElse(hn::IsNaN(v), v, e), d, y + i, c);
    }
}

void GeluBackwardF32(const float* x, const float* g, float* y, int64_t n_) {
    const hn::ScalableTag<float> d;
    const size_t n = static_cast<size_t>(n_), N = hn::Lanes(d);
    const auto k = hn::Set(d, 0.39894228040143267794f), half = hn::Set(d, -0.5f);
    for (size_t i = 0; i < n; i += N) {
        const size_t c = n - i;
        const auto v = load_part(d, x + i, c);
        const auto pdf = hn::Mul(k, hn::Exp(d, hn::Mul(half, hn::Mul(v, v))));
        const auto grad = hn::MulAdd(v, pdf, normal_cdf(d, v));
        store_part(hn::Mul(load_part(d, g + i, c), grad), d, y + i, c);
    }
}

void DotRowsF32(const float* x, const float* w, int64_t ldw, int64_t k_, float* y, int64_t n) {
    const hn::ScalableTag<float> d;
    const size_t k = static_cast<size_t>(k_), N = hn::Lanes(d);
    for (int64_t j = 0; j < n; ++j) {
        const float* row = w + j * ldw;
        auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d);
        size_t p = 0;
        for (; p + 4 * N <= k; p += 4 * N) {
            s0 = hn::MulAdd(hn::LoadU(d, x + p), hn::LoadU(d, row + p), s0);
            s1 = hn::MulAdd(hn::LoadU(d, x + p + N), hn::LoadU(d, row + p + N), s1);
            s2 = hn::MulAdd(hn::LoadU(d, x + p + 2 * N), hn::LoadU(d, row + p + 2 * N), s2);
            s3 = hn::MulAdd(hn::LoadU(d, x + p + 3 * N), hn::LoadU(d, row + p + 3 * N), s3);
        }
        for (; p < k; p += N) {
            const size_t c = k - p;
            s0 = hn::MulAdd(load_part(d, x + p, c), load_part(d, row + p, c), s0);
        }
        y[j] = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
    }
}

void AxpyRowsF32(const float* x, const float* b, int64_t ldb, int64_t k, float* y, int64_t n_) {
    const hn::ScalableTag<float> d;
    const size_t n = static_cast<size_t>(n_), N = hn::Lanes(d);
    for (size_t j = 0; j < n; j += N) {
        const size_t c = n - j;
        auto acc = hn::Zero(d);
        for (int64_t p = 0; p < k; ++p)
            acc = hn::MulAdd(hn::Set(d, x[p]), load_part(d, b + p * ldb + j, c), acc);
        store_part(acc, d, y + j, c);
    }
}

void MaxWindowF32(const float* const* src, const int32_t* pos, int64_t npos, int64_t c_, float* y,
                  int32_t* ind) {
    const hn::ScalableTag<float> d;
    const hn::RebindToSigned<decltype(d)> di;
    const size_t c = static_cast<size_t>(c_), N = hn::Lanes(d);
    for (size_t k = 0; k < c; k += N) {
        const size_t cnt = c - k;
        auto best = hn::Set(d, -HUGE_VALF);
        auto at = hn::Set(di, npos > 0 ? pos[0] : 0);
        for (int64_t p = 0; p < npos; ++p) {
            const auto v = load_part(d, src[p] + k, cnt);
            const auto take = hn::Or(hn::Gt(v, best), hn::IsNaN(v));  // NaN wins
            best = hn::IfThenElse(take, v, best);
            at = hn::IfThenElse(hn::RebindMask(di, take), hn::Set(di, pos[p]), at);
        }
        store_part(best, d, y + k, cnt);
        store_part(at, di, ind + k, cnt);
    }
}

}  // namespace burn::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // BURN_HAVE_HWY

#if !defined(BURN_HAVE_HWY) || HWY_ONCE
namespace burn::cpu::simd {

#if !defined(BURN_HAVE_HWY) && defined(__wasm_simd128__)
namespace {
/// dot_rows on WebAssembly SIMD: four rows at a time share each load of x (the weights stream once
/// through memory); each row sums in two f32x4 accumulators (even and odd groups of four columns: one
/// chain of dependent adds per row would bound the loop by the add's latency, not by its loads), then
/// reduced by a 4 x 4 transpose.
void dot_rows_simd128(const float* x, const float* w, int64_t ldw, int64_t k, float* y, int64_t n) {
    const int64_t k4 = k - k % 4, k8 = k - k % 8;
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const float* r0 = w + j * ldw;
        const float *r1 = r0 + ldw, *r2 = r1 + ldw, *r3 = r2 + ldw;
        v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
        v128_t u0 = s0, u1 = s0, u2 = s0, u3 = s0;
        for (int64_t p = 0; p < k8; p += 8) {
            const v128_t xv = wasm_v128_load(x + p), xw = wasm_v128_load(x + p + 4);
            s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(xv, wasm_v128_load(r0 + p)));
            s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(xv, wasm_v128_load(r1 + p)));
            s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(xv, wasm_v128_load(r2 + p)));
            s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(xv, wasm_v128_load(r3 + p)));
            u0 = wasm_f32x4_add(u0, wasm_f32x4_mul(xw, wasm_v128_load(r0 + p + 4)));
            u1 = wasm_f32x4_add(u1, wasm_f32x4_mul(xw, wasm_v128_load(r1 + p + 4)));
            u2 = wasm_f32x4_add(u2, wasm_f32x4_mul(xw, wasm_v128_load(r2 + p + 4)));
            u3 = wasm_f32x4_add(u3, wasm_f32x4_mul(xw, wasm_v128_load(r3 + p + 4)));
        }
        for (int64_t p = k8; p < k4; p += 4) {
            const v128_t xv = wasm_v128_load(x + p);
            s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(xv, wasm_v128_load(r0 + p)));
            s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(xv, wasm_v128_load(r1 + p)));
            s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(xv, wasm_v128_load(r2 + p)));
            s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(xv, wasm_v128_load(r3 + p)));
        }
        s0 = wasm_f32x4_add(s0, u0);
        s1 = wasm_f32x4_add(s1, u1);
        s2 = wasm_f32x4_add(s2, u2);
        s3 = wasm_f32x4_add(s3, u3);
        // Transpose (s0..s3) and add the columns: lane r of the sum is row r's total.
        const v128_t t0 = wasm_i32x4_shuffle(s0, s1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(s0, s1, 2, 6, 3, 7);
        const v128_t t2 = wasm_i32x4_shuffle(s2, s3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(s2, s3, 2, 6, 3, 7);
        v128_t sum = wasm_f32x4_add(
            wasm_f32x4_add(wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5), wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7)),
            wasm_f32x4_add(wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5), wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7)));
        alignas(16) float tail[4] = {0, 0, 0, 0};
        for (int64_t p = k4; p < k; ++p) {
            tail[0] += x[p] * r0[p];
            tail[1] += x[p] * r1[p];
            tail[2] += x[p] * r2[p];
            tail[3] += x[p] * r3[p];
        }
        sum = wasm_f32x4_add(sum, wasm_v128_load(tail));
        wasm_v128_store(y + j, sum);
    }
    for (; j < n; ++j) {
        const float* r = w + j * ldw;
        v128_t s = wasm_f32x4_splat(0);
        for (int64_t p = 0; p < k4; p += 4)
            s = wasm_f32x4_add(s, wasm_f32x4_mul(wasm_v128_load(x + p), wasm_v128_load(r + p)));
        float t = (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
                  (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
        for (int64_t p = k4; p < k; ++p) t += x[p] * r[p];
        y[j] = t;
    }
}
}  // namespace
#endif

#ifdef BURN_HAVE_HWY
HWY_EXPORT(GeluF32);
HWY_EXPORT(GeluBackwardF32);
HWY_EXPORT(ExpF32);
HWY_EXPORT(DotRowsF32);
HWY_EXPORT(AxpyRowsF32);
HWY_EXPORT(MaxWindowF32);

void max_window(const float* const* src, const int32_t* pos, int64_t npos, int64_t c, float* y,
                int32_t* ind) {
    HWY_DYNAMIC_DISPATCH(MaxWindowF32)(src, pos, npos, c, y, ind);
}

void dot_rows(const float* x, const float* w, int64_t ldw, int64_t k, float* y, int64_t n) {
    HWY_DYNAMIC_DISPATCH(DotRowsF32)(x, w, ldw, k, y, n);
}
void axpy_rows(const float* x, const float* b, int64_t ldb, int64_t k, float* y, int64_t n) {
    HWY_DYNAMIC_DISPATCH(AxpyRowsF32)(x, b, ldb, k, y, n);
}

void gelu(const float* x, float* y, int64_t n) {
    HWY_DYNAMIC_DISPATCH(GeluF32)(x, y, n);
}
void exp(const float* x, float* y, int64_t n) {
    HWY_DYNAMIC_DISPATCH(ExpF32)(x, y, n);
}
void gelu_backward(const float* x, const float* g, float* y, int64_t n) {
    HWY_DYNAMIC_DISPATCH(GeluBackwardF32)(x, g, y, n);
}
#else
void exp(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}
void dot_rows(const float* x, const float* w, int64_t ldw, int64_t k, float* y, int64_t n) {
#if defined(__wasm_simd128__)
    dot_rows_simd128(x, w, ldw, k, y, n);
#elif defined(__ARM_FP) && !(__ARM_FP & 8)
    // A single-precision FPU (Cortex-M4F): double would be software floating point, ten times the
    // instructions (docs/embedded.md). Eight float partial sums instead: fused multiply-adds, and
    // rounding errors spread over eight accumulators.
    for (int64_t j = 0; j < n; ++j) {
        const float* row = w + j * ldw;
        float s[8] = {};
        int64_t p = 0;
        for (; p + 8 <= k; p += 8)
            for (int q = 0; q < 8; ++q) s[q] += x[p + q] * row[p + q];
        for (; p < k; ++p) s[0] += x[p] * row[p];
        y[j] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    }
#else
    for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += static_cast<double>(x[p]) * w[j * ldw + p];
        y[j] = static_cast<float>(s);
    }
#endif
}
#if defined(__wasm_simd128__)
void relu(const float* x, float* y, int64_t n) {
    const v128_t zero = wasm_f32x4_splat(0);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {  // x & ~(x < 0): NaN and -0 stay as they are
        const v128_t v = wasm_v128_load(x + i);
        wasm_v128_store(y + i, wasm_v128_andnot(v, wasm_f32x4_lt(v, zero)));
    }
    for (; i < n; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
}
#endif
void axpy_rows(const float* x, const float* b, int64_t ldb, int64_t k, float* y, int64_t n) {
    for (int64_t j = 0; j < n; ++j) y[j] = 0;
    for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j) y[j] += x[p] * b[p * ldb + j];
}
void gelu(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = bm::gelu(x[i]);
}
void max_window(const float* const* src, const int32_t* pos, int64_t npos, int64_t c, float* y,
                int32_t* ind) {
    for (int64_t k = 0; k < c; ++k) {
        y[k] = -HUGE_VALF;
        ind[k] = npos > 0 ? pos[0] : 0;
    }
    for (int64_t p = 0; p < npos; ++p)
        for (int64_t k = 0; k < c; ++k) {
            const float v = src[p][k];
            const bool take = v > y[k] || v != v;  // NaN wins
            y[k] = take ? v : y[k];
            ind[k] = take ? pos[p] : ind[k];
        }
}
void gelu_backward(const float* x, const float* g, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = g[i] * bm::gelu_grad(x[i]);
}
#endif

}  // namespace burn::cpu::simd
#endif
