#pragma once
// Scalar math shared by every backend's elementwise kernels (burn::bm). Bodies in
// elementwise.def call only these, so a device compiler can provide its own definitions.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#ifndef BURN_HD
#ifdef __CUDACC__
#define BURN_HD __host__ __device__
#else
#define BURN_HD
#endif
#endif

namespace burn::bm {

template <class T>
BURN_HD inline T abs(T x) {
    if constexpr (std::is_unsigned_v<T>)
        return x;
    else
        return x < T(0) ? T(-x) : x;
}
template <class T>
BURN_HD inline T sqrt(T x) {
    return std::sqrt(x);
}
template <class T>
BURN_HD inline T exp(T x) {
    return std::exp(x);
}
template <class T>
BURN_HD inline T log(T x) {
    return std::log(x);
}
template <class T>
BURN_HD inline T log1p(T x) {
    return std::log1p(x);
}
template <class T>
BURN_HD inline T expm1(T x) {
    return std::expm1(x);
}
template <class T>
BURN_HD inline T erf(T x) {
    return std::erf(x);
}
template <class T>
BURN_HD inline T sin(T x) {
    return std::sin(x);
}
template <class T>
BURN_HD inline T cos(T x) {
    return std::cos(x);
}
template <class T>
BURN_HD inline T tan(T x) {
    return std::tan(x);
}
template <class T>
BURN_HD inline T tanh(T x) {
    return std::tanh(x);
}
template <class T>
BURN_HD inline T sinh(T x) {
    return std::sinh(x);
}
template <class T>
BURN_HD inline T cosh(T x) {
    return std::cosh(x);
}
template <class T>
BURN_HD inline T asin(T x) {
    return std::asin(x);
}
template <class T>
BURN_HD inline T acos(T x) {
    return std::acos(x);
}
template <class T>
BURN_HD inline T atan(T x) {
    return std::atan(x);
}
template <class T>
BURN_HD inline T asinh(T x) {
    return std::asinh(x);
}
template <class T>
BURN_HD inline T acosh(T x) {
    // Below 1 the domain ends: NaN, as torch. Checked here because musl's acosh (emscripten's libc)
    // returns finite garbage for x < -1 (-3.24 at x = -80): it reads only the exponent of x.
    if (!(x >= T(1))) return x != x ? x : std::numeric_limits<T>::quiet_NaN();
    return std::acosh(x);
}
template <class T>
BURN_HD inline T atanh(T x) {
    return std::atanh(x);
}
template <class T>
BURN_HD inline T log2(T x) {
    return std::log2(x);
}
template <class T>
BURN_HD inline T hypot(T a, T b) {
    return std::hypot(a, b);
}
template <class T>
BURN_HD inline T atan2(T a, T b) {
    return std::atan2(a, b);
}
template <class T>
BURN_HD inline T floor(T x) {
    return std::floor(x);
}
template <class T>
BURN_HD inline T ceil(T x) {
    return std::ceil(x);
}
template <class T>
BURN_HD inline T trunc(T x) {
    return std::trunc(x);
}
/// Rounds half to even, as PyTorch and NumPy do.
template <class T>
BURN_HD inline T round_even(T x) {
    return std::nearbyint(x);
}
template <class T>
BURN_HD inline T pow(T a, T b) {
#ifdef __CUDA_ARCH__
    // CUDA's pow is not exact for integral results (pow(-3.0, 1.0) can give -2.9999...); small
    // integral exponents go through exact repeated squaring, as the host's pow rounds them.
    if (b == T(int(b)) && b >= T(-64) && b <= T(64)) {
        int n = int(b);
        const bool inv = n < 0;
        if (inv) n = -n;
        T r = T(1), base = a;
        while (n) {
            if (n & 1) r *= base;
            base *= base;
            n >>= 1;
        }
        return inv ? T(1) / r : r;
    }
#endif
    return std::pow(a, b);
}
template <class T>
BURN_HD inline bool isnan(T x) {
    return std::isnan(x);
}
template <class T>
BURN_HD inline bool isinf(T x) {
    return std::isinf(x);
}
/// Integers are always finite.
template <class T>
BURN_HD inline bool isfinite(T x) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isfinite(x);
    else
        return true;
}

template <class T>
BURN_HD inline T sigmoid(T x) {
    // Split by sign so exp never overflows.
    if (x >= T(0)) return T(1) / (T(1) + std::exp(-x));
    T e = std::exp(x);
    return e / (T(1) + e);
}
template <class T>
BURN_HD inline T gelu(T x) {
    return T(0.5) * x * (T(1) + std::erf(x * T(0.70710678118654752440)));
}
/// d gelu / dx = Phi(x) + x phi(x) (the erf form).
template <class T>
BURN_HD inline T gelu_grad(T x) {
    const T cdf = T(0.5) * (T(1) + std::erf(x * T(0.70710678118654752440)));
    const T pdf = T(0.39894228040143267794) * std::exp(T(-0.5) * x * x);
    return cdf + x * pdf;
}
template <class T>
BURN_HD inline T gelu_tanh(T x) {
    const T k = T(0.79788456080286535588);  // sqrt(2 / pi)
    return T(0.5) * x * (T(1) + std::tanh(k * (x + T(0.044715) * x * x * x)));
}
/// log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (PyTorch's rule).
template <class T>
BURN_HD inline T softplus(T x, T beta, T threshold) {
    T bx = beta * x;
    if (bx > threshold) return x;
    return std::log1p(std::exp(bx)) / beta;
}
template <class T>
BURN_HD inline T clamp(T x, double lo, double hi) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(x)) return x;
        return x < T(lo) ? T(lo) : (x > T(hi) ? T(hi) : x);
    } else {
        // Bounds beyond the integer range clamp nothing.
        double v = static_cast<double>(x);
        if (v < lo) return static_cast<T>(lo);
        if (v > hi) return static_cast<T>(hi);
        return x;
    }
}
template <class T>
BURN_HD inline T powi(T x, int n) {
    if constexpr (std::is_floating_point_v<T>) {
        return std::pow(x, static_cast<T>(n));
    } else {
        if (n < 0) return (x == T(1)) ? T(1) : (x == T(-1) ? (n % 2 ? T(-1) : T(1)) : T(0));
        T r = T(1);
        T b = x;
        while (n) {
            if (n & 1) r = T(r * b);
            b = T(b * b);
            n >>= 1;
        }
        return r;
    }
}
/// Division; integer division truncates toward zero and gives 0 for a zero divisor (never traps).
template <class T>
BURN_HD inline T div(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a / b;
    } else {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>)
            if (b == T(-1)) return T(-a);  // avoids INT_MIN / -1 overflow trap
        return T(a / b);
    }
}
/// Remainder with the sign of the divisor (Python/PyTorch `remainder`).
template <class T>
BURN_HD inline T remainder(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        T r = std::fmod(a, b);
        if (r != T(0) && ((r < T(0)) != (b < T(0)))) r += b;
        return r;
    } else {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>) {
            if (b == T(-1)) return T(0);
            T r = T(a % b);
            if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = T(r + b);
            return r;
        } else {
            return T(a % b);
        }
    }
}
/// Remainder with the sign of the dividend (C fmod, PyTorch `fmod`); integers give 0 for a zero divisor
/// (never traps), as remainder does.
template <class T>
BURN_HD inline T fmod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return std::fmod(a, b);
    } else {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>)
            if (b == T(-1)) return T(0);
        return T(a % b);
    }
}
/// max/min that propagate NaN (PyTorch maximum/minimum).
template <class T>
BURN_HD inline T max_nan(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    return a > b ? a : b;
}
template <class T>
BURN_HD inline T min_nan(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    return a < b ? a : b;
}

// Bit operations of the I rows (integer dtypes). Instantiated for floats too (the fused f32 blocks and
// generic dispatch compile every row for every type), where they give 0: no float ever reaches them.
template <class T>
inline constexpr bool kBitInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
BURN_HD inline T bit_not(T x) {
    if constexpr (kBitInt<T>)
        return T(~x);
    else
        return T(0);
}
template <class T>
BURN_HD inline T bit_and(T a, T b) {
    if constexpr (kBitInt<T>)
        return T(a & b);
    else
        return T(0);
}
template <class T>
BURN_HD inline T bit_or(T a, T b) {
    if constexpr (kBitInt<T>)
        return T(a | b);
    else
        return T(0);
}
template <class T>
BURN_HD inline T bit_xor(T a, T b) {
    if constexpr (kBitInt<T>)
        return T(a ^ b);
    else
        return T(0);
}
/// a << b (torch.bitwise_left_shift): 0 for a count outside [0, bits); the bits shifted out are lost
/// (computed unsigned, so a negative a wraps as two's complement).
template <class T>
BURN_HD inline T shl(T a, T b) {
    if constexpr (kBitInt<T>) {
        using U = std::make_unsigned_t<T>;
        if constexpr (std::is_signed_v<T>)
            if (b < T(0)) return T(0);
        if (b >= T(sizeof(T) * 8)) return T(0);
        return T(U(U(a) << int(b)));
    } else {
        return T(0);
    }
}
/// a >> b (torch.bitwise_right_shift): arithmetic for signed dtypes; a count outside [0, bits) gives the
/// sign fill (-1 for negative a, else 0).
template <class T>
BURN_HD inline T shr(T a, T b) {
    if constexpr (kBitInt<T>) {
        T fill = T(0);
        if constexpr (std::is_signed_v<T>) {
            if (a < T(0)) fill = T(-1);
            if (b < T(0)) return fill;
        }
        if (b >= T(sizeof(T) * 8)) return fill;
        return T(a >> int(b));
    } else {
        return T(0);
    }
}

}  // namespace burn::bm
