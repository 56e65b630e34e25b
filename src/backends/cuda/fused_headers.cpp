// The headers a fused kernel's source includes under NVRTC (nvrtc.hpp): the rows' functors as the
// eager kernels compile them (functors.hpp, scalar_math.hpp, elementwise.def: their text, embedded at
// build time by cmake/cuda.cmake) and small stand-ins for the four standard headers scalar_math.hpp
// includes. NVRTC has no C++ standard library; these declare only what those bodies use, each std::
// function calling the CUDA math function nvcc's own <cmath> overloads call (expf for std::exp(float)),
// so a fused row computes what its eager kernel does.
#include "backends/cuda/nvrtc.hpp"

namespace burn::cuda::rtc {

namespace detail {
// generated/cuda_fused_headers.cpp (cmake/cuda.cmake)
extern const char* const kFunctorsHpp;
extern const char* const kScalarMathHpp;
extern const char* const kElementwiseDef;
}  // namespace detail

namespace {

const char* const kCmath = R"burn(#pragma once
namespace std {
#define BURN_RTC_F1(name)                                                          \
    __host__ __device__ inline float name(float x) { return ::name##f(x); }        \
    __host__ __device__ inline double name(double x) { return ::name(x); }
#define BURN_RTC_F2(name)                                                               \
    __host__ __device__ inline float name(float a, float b) { return ::name##f(a, b); } \
    __host__ __device__ inline double name(double a, double b) { return ::name(a, b); }
BURN_RTC_F1(sqrt) BURN_RTC_F1(exp) BURN_RTC_F1(log) BURN_RTC_F1(log1p) BURN_RTC_F1(expm1)
BURN_RTC_F1(erf) BURN_RTC_F1(sin) BURN_RTC_F1(cos) BURN_RTC_F1(tan) BURN_RTC_F1(tanh)
BURN_RTC_F1(sinh) BURN_RTC_F1(cosh) BURN_RTC_F1(asin) BURN_RTC_F1(acos) BURN_RTC_F1(atan)
BURN_RTC_F1(asinh) BURN_RTC_F1(acosh) BURN_RTC_F1(atanh) BURN_RTC_F1(log2) BURN_RTC_F1(floor)
BURN_RTC_F1(ceil) BURN_RTC_F1(trunc) BURN_RTC_F1(nearbyint)
BURN_RTC_F2(hypot) BURN_RTC_F2(atan2) BURN_RTC_F2(pow) BURN_RTC_F2(fmod)
#undef BURN_RTC_F1
#undef BURN_RTC_F2
__host__ __device__ inline bool isnan(float x) { return x != x; }
__host__ __device__ inline bool isnan(double x) { return x != x; }
__host__ __device__ inline bool isinf(float x) { return x - x != x - x && x == x; }
__host__ __device__ inline bool isinf(double x) { return x - x != x - x && x == x; }
__host__ __device__ inline bool isfinite(float x) { return x - x == x - x; }
__host__ __device__ inline bool isfinite(double x) { return x - x == x - x; }
}  // namespace std
)burn";

const char* const kCstdint = R"burn(#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;
)burn";

const char* const kLimits = R"burn(#pragma once
namespace std {
template <class T> struct numeric_limits;
template <> struct numeric_limits<float> {
    __host__ __device__ static float quiet_NaN() { return __int_as_float(0x7fc00000); }
    __host__ __device__ static float infinity() { return __int_as_float(0x7f800000); }
    __host__ __device__ static float max() { return __int_as_float(0x7f7fffff); }
    __host__ __device__ static float lowest() { return -__int_as_float(0x7f7fffff); }
};
template <> struct numeric_limits<double> {
    __host__ __device__ static double quiet_NaN() { return __longlong_as_double(0x7ff8000000000000LL); }
    __host__ __device__ static double infinity() { return __longlong_as_double(0x7ff0000000000000LL); }
    __host__ __device__ static double max() { return __longlong_as_double(0x7fefffffffffffffLL); }
    __host__ __device__ static double lowest() { return -__longlong_as_double(0x7fefffffffffffffLL); }
};
}  // namespace std
)burn";

const char* const kTypeTraits = R"burn(#pragma once
namespace std {
template <class T, T v> struct integral_constant { static constexpr T value = v; };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <class T> struct is_floating_point : false_type {};
template <> struct is_floating_point<float> : true_type {};
template <> struct is_floating_point<double> : true_type {};
template <class T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <class T> struct is_integral : false_type {};
#define BURN_RTC_INT(T) template <> struct is_integral<T> : true_type {};
BURN_RTC_INT(bool) BURN_RTC_INT(char) BURN_RTC_INT(signed char) BURN_RTC_INT(unsigned char)
BURN_RTC_INT(short) BURN_RTC_INT(unsigned short) BURN_RTC_INT(int) BURN_RTC_INT(unsigned)
BURN_RTC_INT(long) BURN_RTC_INT(unsigned long) BURN_RTC_INT(long long) BURN_RTC_INT(unsigned long long)
#undef BURN_RTC_INT
template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;
template <class T> inline constexpr bool is_signed_v = (is_integral_v<T> || is_floating_point_v<T>) && T(-1) < T(0);
template <class T> inline constexpr bool is_unsigned_v = is_integral_v<T> && !(T(-1) < T(0));
template <class T> struct make_unsigned { using type = T; };
template <> struct make_unsigned<signed char> { using type = unsigned char; };
template <> struct make_unsigned<short> { using type = unsigned short; };
template <> struct make_unsigned<int> { using type = unsigned; };
template <> struct make_unsigned<long> { using type = unsigned long; };
template <> struct make_unsigned<long long> { using type = unsigned long long; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;
}  // namespace std
)burn";

// The loads and stores of generated kernels (fused_source.cpp).
const char* const kSupport = R"burn(#pragma once
__device__ __forceinline__ float burn_half(unsigned short h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ float burn_bf16(unsigned short h) {
    return __uint_as_float(static_cast<unsigned>(h) << 16);
}
__device__ __forceinline__ void burn_load4(float* r, const float* p, long long j) {
    const float4 v = reinterpret_cast<const float4*>(p)[j];
    r[0] = v.x;
    r[1] = v.y;
    r[2] = v.z;
    r[3] = v.w;
}
__device__ __forceinline__ void burn_store4(float* p, long long j, const float* r) {
    reinterpret_cast<float4*>(p)[j] = make_float4(r[0], r[1], r[2], r[3]);
}
)burn";

}  // namespace

const std::vector<Header>& fused_headers() {
    static const std::vector<Header> headers = {
        {"backends/common/functors.hpp", detail::kFunctorsHpp},
        {"backends/common/scalar_math.hpp", detail::kScalarMathHpp},
        {"burn/backend/elementwise.def", detail::kElementwiseDef},
        {"burn_fused_support.h", kSupport},
        {"cmath", kCmath},
        {"cstdint", kCstdint},
        {"limits", kLimits},
        {"type_traits", kTypeTraits},
    };
    return headers;
}

}  // namespace burn::cuda::rtc
