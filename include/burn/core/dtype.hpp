#pragma once
/// Element types. One table (DTYPES below) drives the enum, names, sizes and host types.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

#include "burn/core/half.hpp"

namespace burn {

// X(enum value, host type, name, is_float, is_signed)
#define BURN_DTYPES(X)                        \
    X(f32, float, "f32", true, true)          \
    X(f64, double, "f64", true, true)         \
    X(f16, ::burn::f16, "f16", true, true)    \
    X(bf16, ::burn::bf16, "bf16", true, true) \
    X(i64, int64_t, "i64", false, true)       \
    X(i32, int32_t, "i32", false, true)       \
    X(i16, int16_t, "i16", false, true)       \
    X(i8, int8_t, "i8", false, true)          \
    X(u8, uint8_t, "u8", false, false)        \
    X(boolean, bool, "bool", false, false)

enum class DType : uint8_t {
#define BURN_X(e, T, n, f, s) e,
    BURN_DTYPES(BURN_X)
#undef BURN_X
};
inline constexpr int kNumDTypes = 10;

struct DTypeInfo {
    std::string_view name;
    std::size_t size;
    bool is_float;
    bool is_signed;
};

inline constexpr DTypeInfo kDTypeInfo[] = {
#define BURN_X(e, T, n, f, s) {n, sizeof(T), f, s},
    BURN_DTYPES(BURN_X)
#undef BURN_X
};
static_assert(sizeof(kDTypeInfo) / sizeof(kDTypeInfo[0]) == kNumDTypes);

constexpr const DTypeInfo& info(DType d) {
    return kDTypeInfo[static_cast<int>(d)];
}
constexpr std::string_view name(DType d) {
    return info(d).name;
}
constexpr std::size_t size_of(DType d) {
    return info(d).size;
}
constexpr bool is_float(DType d) {
    return info(d).is_float;
}
constexpr bool is_int(DType d) {
    return !info(d).is_float && d != DType::boolean;
}
constexpr bool is_bool(DType d) {
    return d == DType::boolean;
}

namespace detail {
class Text;
}
std::ostream& operator<<(std::ostream& os, DType d);
detail::Text& operator<<(detail::Text& os, DType d);
/// Parses "f32", "i64", "bool", ...; throws burn::Error naming the accepted names otherwise.
DType dtype_from_name(std::string_view name);

/// The DType of a host type: dtype_of<float> == DType::f32.
template <class T>
struct DTypeOf;
#define BURN_X(e, T, n, f, s)                    \
    template <>                                  \
    struct DTypeOf<T> {                          \
        static constexpr DType value = DType::e; \
    };
BURN_DTYPES(BURN_X)
#undef BURN_X
template <class T>
inline constexpr DType dtype_of = DTypeOf<T>::value;

/// Calls fn(T{}) with the host type of d: visit_dtype(d, [](auto tag){ using T = decltype(tag); ... }).
template <class Fn>
decltype(auto) visit_dtype(DType d, Fn&& fn) {
    switch (d) {
#define BURN_X(e, T, n, f, s) \
    case DType::e:            \
        return fn(T{});
        BURN_DTYPES(BURN_X)
#undef BURN_X
    }
    return fn(float{});
}

}  // namespace burn
