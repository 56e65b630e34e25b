#include "burn/core/dtype.hpp"

#include <ostream>
#include <string>

#include "burn/core/error.hpp"

namespace burn {

std::ostream& operator<<(std::ostream& os, DType d) {
    return os << name(d);
}

detail::Text& operator<<(detail::Text& os, DType d) {
    return os << name(d);
}

DType dtype_from_name(std::string_view n) {
    for (int i = 0; i < kNumDTypes; ++i)
        if (kDTypeInfo[i].name == n) return static_cast<DType>(i);
    BURN_THROW_KIND(dtype, "unknown dtype '", std::string(n),
                    "'; expected one of f32, f64, f16, bf16, i64, i32, i16, i8, u8, bool");
}

}  // namespace burn
