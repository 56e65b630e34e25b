// Softmax row kernels: Highway (compiled for every x86/ARM target it knows, picked at run time by
// HWY_DYNAMIC_DISPATCH), or plain scalar loops in a build without Highway.
// With Highway this file is included once per target through foreach_target.h.
#include "backends/cpu/simd_math.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

#ifdef BURN_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_math.cpp"
// foreach_target.h first (it re-includes this file per target), then highway.h, then contrib.
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/cache_control.h>
#include <hwy/contrib/math/math-inl.h>
// clang-format on
#endif

#ifndef BURN_SIMD_MATH_SCALAR_ONCE
#define BURN_SIMD_MATH_SCALAR_ONCE
namespace burn::cpu::simd::scalar {

template <class T>
inline bool nan_or_greater(T v, T m) {
    return v > m || std::isnan(v);
}

/// torch's semantics: NaN in the row gives NaN everywhere; +inf gives NaN; all -inf gives NaN.
template <class T>
void softmax_row(const T* x, T* y, int64_t n, bool log) {
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t i = 0; i < n; ++i)
        if (nan_or_greater(x[i], m)) m = x[i];
    double s = 0;
    if (log) {
        for (int64_t i = 0; i < n; ++i) s += static_cast<double>(std::exp(x[i] - m));
        const T ls = static_cast<T>(std::log(s));
        for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - m) - ls;
    } else {
        for (int64_t i = 0; i < n; ++i) {
            T e = std::exp(x[i] - m);
            y[i] = e;
            s += static_cast<double>(e);
        }
        const T inv = static_cast<T>(1.0 / s);
        for (int64_t i = 0; i < n; ++i) y[i] *= inv;
    }
}

inline float row_extreme(const float* x, int64_t n, bool max) {
    float m = max ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) {
        if (std::isnan(x[i])) return x[i];
        if (max ? x[i] > m : x[i] < m) m = x[i];
    }
    return m;
}

template <class T>
void softmax_cols(const T* x, T* y, int64_t n, int64_t m, int64_t stride, bool log, T* work) {
    T* mx = work;
    T* s = work + m;
    for (int64_t j = 0; j < m; ++j) {
        mx[j] = -std::numeric_limits<T>::infinity();
        s[j] = 0;
    }
    for (int64_t k = 0; k < n; ++k)
        for (int64_t j = 0; j < m; ++j)
            if (nan_or_greater(x[k * stride + j], mx[j])) mx[j] = x[k * stride + j];
    for (int64_t k = 0; k < n; ++k) {
        for (int64_t j = 0; j < m; ++j) {
            T e = std::exp(x[k * stride + j] - mx[j]);
            if (!log) y[k * stride + j] = e;
            s[j] += e;
        }
    }
    if (log) {
        for (int64_t j = 0; j < m; ++j) s[j] = std::log(s[j]);
        for (int64_t k = 0; k < n; ++k)
            for (int64_t j = 0; j < m; ++j) y[k * stride + j] = (x[k * stride + j] - mx[j]) - s[j];
    } else {
        for (int64_t j = 0; j < m; ++j) s[j] = T(1) / s[j];
        for (int64_t k = 0; k < n; ++k)
            for (int64_t j = 0; j < m; ++j) y[k * stride + j] *= s[j];
    }
}

}  // namespace burn::cpu::simd::scalar
#endif  // BURN_SIMD_MATH_SCALAR_ONCE

#ifdef BURN_HAVE_HWY
HWY_BEFORE_NAMESPACE();
namespace burn::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

/// Max (IsMax) or min of the row, or NaN when the row holds a NaN; -inf (+inf) when n == 0.
template <bool IsMax, class T>
HWY_INLINE T row_extreme(const T* x, size_t n) {
    const hn::ScalableTag<T> d;
    const size_t N = hn::Lanes(d);
    const auto init =
        hn::Set(d, IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity());
    auto m0 = init, m1 = init;
    auto bad = hn::Zero(d);
    size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
        hwy::Prefetch(x + i + 512);  // 2 KB (f32) ahead
        const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
        m0 = IsMax ? hn::Max(m0, a) : hn::Min(m0, a);
        m1 = IsMax ? hn::Max(m1, b) : hn::Min(m1, b);
        bad = hn::Or(bad, hn::Or(hn::VecFromMask(d, hn::IsNaN(a)), hn::VecFromMask(d, hn::IsNaN(b))));
    }
    for (; i < n; i += N) {
        const size_t c = n - i < N ? n - i : N;
        const auto a = hn::IfThenElse(hn::FirstN(d, c), load_part(d, x + i, c), init);
        m0 = IsMax ? hn::Max(m0, a) : hn::Min(m0, a);
        bad = hn::Or(bad, hn::VecFromMask(d, hn::IsNaN(a)));
    }
    if (!hn::AllFalse(d, hn::IsNaN(bad))) return std::numeric_limits<T>::quiet_NaN();
    return IsMax ? hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)))
                 : hn::GetLane(hn::MinOfLanes(d, hn::Min(m0, m1)));
}

template <class T>
HWY_INLINE void softmax_row_t(const T* x, T* y, int64_t n_, bool log) {
    const size_t n = static_cast<size_t>(n_);
    const T m = row_extreme<true>(x, n);
    if (!std::isfinite(m)) {  // NaN, +inf, or only -inf: torch's result is NaN throughout
        for (size_t i = 0; i < n; ++i) y[i] = std::numeric_limits<T>::quiet_NaN();
        return;
    }
    const hn::ScalableTag<T> d;
    const size_t N = hn::Lanes(d);
    const auto vm = hn::Set(d, m);
    // exp(x - m), summed in lanes; flushed to a double every block so long rows stay accurate. The
    // next row (rows are contiguous) is prefetched meanwhile: its first pass is the one that waits on memory.
    double total = 0;
    auto s = hn::Zero(d);
    size_t i = 0;
    for (size_t since_flush = 0; i + N <= n; i += N) {
        hwy::Prefetch(x + n + i);
        const auto e = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm));
        if (!log) hn::StoreU(e, d, y + i);
        s = hn::Add(s, e);
        if (++since_flush == 256) {
            total += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, s)));
            s = hn::Zero(d);
            since_flush = 0;
        }
    }
    if (i < n) {
        const size_t c = n - i;
        const auto e = hn::IfThenElseZero(hn::FirstN(d, c), hn::Exp(d, hn::Sub(load_part(d, x + i, c), vm)));
        if (!log) store_part(e, d, y + i, c);
        s = hn::Add(s, e);
    }
    total += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, s)));
    if (log) {
        const auto vl = hn::Set(d, static_cast<T>(std::log(total)));
        for (size_t i = 0; i < n; i += N) {
            const size_t c = n - i < N ? n - i : N;
            store_part(hn::Sub(hn::Sub(load_part(d, x + i, c), vm), vl), d, y + i, c);
        }
    } else {
        const auto inv = hn::Set(d, static_cast<T>(1.0 / total));
        size_t i = 0;
        for (; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), inv), d, y + i);
        if (i < n) store_part(hn::Mul(load_part(d, y + i, n - i), inv), d, y + i, n - i);
    }
}

template <class T>
HWY_INLINE void softmax_cols_t(const T* x, T* y, int64_t n, int64_t m_, int64_t stride, bool log, T* work) {
    const hn::ScalableTag<T> d;
    const size_t N = hn::Lanes(d);
    const size_t m = static_cast<size_t>(m_);
    T* mx = work;
    T* s = work + m;
    T* nan_seen = work + 2 * m;  // all-ones bits (a NaN) where the column holds a NaN
    const auto ninf = hn::Set(d, -std::numeric_limits<T>::infinity());
    for (size_t j = 0; j < m; j += N) {
        store_part(ninf, d, mx + j, m - j);
        store_part(hn::Zero(d), d, nan_seen + j, m - j);
    }
    for (int64_t k = 0; k < n; ++k) {
        const T* row = x + k * stride;
        for (size_t j = 0; j < m; j += N) {
            const size_t c = m - j;
            const auto v = load_part(d, row + j, c);
            store_part(hn::Or(load_part(d, nan_seen + j, c), hn::VecFromMask(d, hn::IsNaN(v))), d,
                       nan_seen + j, c);
            store_part(hn::Max(load_part(d, mx + j, c), v), d, mx + j, c);
        }
    }
    // Columns holding a NaN, a +inf or only -inf come out NaN (torch's result); compute them with a
    // harmless max and overwrite them at the end.
    bool any_bad = false;
    for (size_t j = 0; j < m; ++j) {
        const bool bad = std::isnan(nan_seen[j]) || !std::isfinite(mx[j]);
        nan_seen[j] = bad ? T(1) : T(0);
        if (bad) mx[j] = 0;
        any_bad |= bad;
    }
    for (size_t j = 0; j < m; j += N) store_part(hn::Zero(d), d, s + j, m - j);
    for (int64_t k = 0; k < n; ++k) {
        const T* row = x + k * stride;
        T* out = y + k * stride;
        for (size_t j = 0; j < m; j += N) {
            const size_t c = m - j;
            const auto e = hn::Exp(d, hn::Sub(load_part(d, row + j, c), load_part(d, mx + j, c)));
            if (!log) store_part(e, d, out + j, c);
            store_part(hn::Add(load_part(d, s + j, c), e), d, s + j, c);
        }
    }
    if (log) {
        for (size_t j = 0; j < m; ++j) s[j] = static_cast<T>(std::log(s[j]));
        for (int64_t k = 0; k < n; ++k) {
            const T* row = x + k * stride;
            T* out = y + k * stride;
            for (size_t j = 0; j < m; j += N) {
                const size_t c = m - j;
                const auto v = hn::Sub(hn::Sub(load_part(d, row + j, c), load_part(d, mx + j, c)),
                                       load_part(d, s + j, c));
                store_part(v, d, out + j, c);
            }
        }
    } else {
        for (size_t j = 0; j < m; ++j) s[j] = T(1) / s[j];
        for (int64_t k = 0; k < n; ++k) {
            T* out = y + k * stride;
            for (size_t j = 0; j < m; j += N) {
                const size_t c = m - j;
                store_part(hn::Mul(load_part(d, out + j, c), load_part(d, s + j, c)), d, out + j, c);
            }
        }
    }
    if (any_bad) {
        for (size_t j = 0; j < m; ++j)
            if (nan_seen[j] != T(0))
                for (int64_t k = 0; k < n; ++k) y[k * stride + j] = std::numeric_limits<T>::quiet_NaN();
    }
}

void SoftmaxRowF32(const float* x, float* y, int64_t n, bool log) {
    softmax_row_t(x, y, n, log);
}
void SoftmaxRowF64(const double* x, double* y, int64_t n, bool log) {
    softmax_row_t(x, y, n, log);
}
void SoftmaxColsF32(const float* x, float* y, int64_t n, int64_t m, int64_t stride, bool log, float* work) {
    softmax_cols_t(x, y, n, m, stride, log, work);
}
void SoftmaxColsF64(const double* x, double* y, int64_t n, int64_t m, int64_t stride, bool log,
                    double* work) {
    softmax_cols_t(x, y, n, m, stride, log, work);
}
float RowExtremeF32(const float* x, int64_t n, bool max) {
    return max ? row_extreme<true>(x, static_cast<size_t>(n)) : row_extreme<false>(x, static_cast<size_t>(n));
}
const char* TargetName() {
    return hwy::TargetName(HWY_TARGET);
}

}  // namespace burn::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // BURN_HAVE_HWY

#if !defined(BURN_HAVE_HWY) || HWY_ONCE
namespace burn::cpu::simd {

#ifdef BURN_HAVE_HWY
HWY_EXPORT(SoftmaxRowF32);
HWY_EXPORT(SoftmaxRowF64);
HWY_EXPORT(SoftmaxColsF32);
HWY_EXPORT(SoftmaxColsF64);
HWY_EXPORT(RowExtremeF32);
HWY_EXPORT(TargetName);

void softmax_row(const float* x, float* y, int64_t n, bool log) {
    HWY_DYNAMIC_DISPATCH(SoftmaxRowF32)(x, y, n, log);
}
void softmax_row(const double* x, double* y, int64_t n, bool log) {
    HWY_DYNAMIC_DISPATCH(SoftmaxRowF64)(x, y, n, log);
}
void softmax_cols(const float* x, float* y, int64_t n, int64_t m, int64_t stride, bool log, float* work) {
    HWY_DYNAMIC_DISPATCH(SoftmaxColsF32)(x, y, n, m, stride, log, work);
}
void softmax_cols(const double* x, double* y, int64_t n, int64_t m, int64_t stride, bool log, double* work) {
    HWY_DYNAMIC_DISPATCH(SoftmaxColsF64)(x, y, n, m, stride, log, work);
}
float row_extreme(const float* x, int64_t n, bool max) {
    return HWY_DYNAMIC_DISPATCH(RowExtremeF32)(x, n, max);
}
const char* target_name() {
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}
#else
void softmax_row(const float* x, float* y, int64_t n, bool log) {
    scalar::softmax_row(x, y, n, log);
}
void softmax_row(const double* x, double* y, int64_t n, bool log) {
    scalar::softmax_row(x, y, n, log);
}
void softmax_cols(const float* x, float* y, int64_t n, int64_t m, int64_t stride, bool log, float* work) {
    scalar::softmax_cols(x, y, n, m, stride, log, work);
}
void softmax_cols(const double* x, double* y, int64_t n, int64_t m, int64_t stride, bool log, double* work) {
    scalar::softmax_cols(x, y, n, m, stride, log, work);
}
float row_extreme(const float* x, int64_t n, bool max) {
    return scalar::row_extreme(x, n, max);
}
const char* target_name() {
    return "scalar";
}
#endif

}  // namespace burn::cpu::simd
#endif
