#include "store/convert.hpp"

#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <type_traits>

#include "burn/core/error.hpp"

namespace burn::store::detail {

namespace {

template <class T>
constexpr bool is_half_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;

template <class T>
double as_double(T v) {
    if constexpr (is_half_v<T>)
        return static_cast<float>(v);
    else
        return static_cast<double>(v);
}

template <class T>
bool is_finite(T v) {
    if constexpr (std::is_integral_v<T>)
        return true;
    else
        return std::isfinite(as_double(v));
}

/// Whether integer or float value v is exactly representable in the integer type Out.
template <class Out, class In>
bool fits_int(In v) {
    if constexpr (std::is_same_v<Out, bool>) {
        if constexpr (std::is_integral_v<In>)
            return v == In(0) || v == In(1);
        else
            return as_double(v) == 0.0 || as_double(v) == 1.0;
    } else if constexpr (std::is_same_v<In, bool>) {
        return true;
    } else if constexpr (std::is_integral_v<In>) {
        using L = std::numeric_limits<Out>;
        if constexpr (std::is_signed_v<In>) {
            auto x = static_cast<int64_t>(v);
            if (x < 0) return std::is_signed_v<Out> && x >= static_cast<int64_t>(L::min());
            return static_cast<uint64_t>(x) <= static_cast<uint64_t>(L::max());
        } else {
            return static_cast<uint64_t>(v) <= static_cast<uint64_t>(L::max());
        }
    } else {
        double x = as_double(v);
        if (!std::isfinite(x) || std::trunc(x) != x) return false;
        // min() is exact in double for every integer type; 2^63 (max()+1 for i64) is too.
        const double lo = static_cast<double>(std::numeric_limits<Out>::min());
        const double hi_excl = 2.0 * (static_cast<double>(std::numeric_limits<Out>::max() / 2 + 1));
        return x >= lo && x < hi_excl;
    }
}

template <class T>
std::string show(T v) {
    std::ostringstream os;
    if constexpr (std::is_same_v<T, bool>)
        os << (v ? "true" : "false");
    else if constexpr (std::is_integral_v<T>)
        os << static_cast<int64_t>(v);
    else
        os << std::setprecision(17) << as_double(v);
    return os.str();
}

template <class T>
std::string range_of() {
    if constexpr (std::is_same_v<T, bool>)
        return "0 or 1";
    else if constexpr (std::is_integral_v<T>)
        return show(std::numeric_limits<T>::min()) + ".." + show(std::numeric_limits<T>::max());
    else
        return "finite";
}

}  // namespace

TensorData convert_checked(const TensorData& data, DType to, const std::string& name) {
    if (data.dtype() == to) return data;
    const DType from = data.dtype();
    const int64_t n = data.numel();
    const uint8_t* in = data.bytes().data();
    auto fail = [&](int64_t i, const std::string& value, const std::string& why) {
        BURN_THROW_KIND(dtype, "[load_from] tensor '", name, "': element ", i, " (value ", value,
                        ") of the file's ", from, " ", why, " in the module's ", to,
                        "; nothing was applied. Give the module the file's dtype (", from,
                        "), or convert the file");
    };
    // Integer targets: check every value before converting (out-of-range float -> int is undefined).
    if (!is_float(to)) {
        visit_dtype(from, [&](auto tin) {
            using In = decltype(tin);
            visit_dtype(to, [&](auto tout) {
                using Out = decltype(tout);
                if constexpr (!std::is_floating_point_v<Out> && !is_half_v<Out>) {
                    for (int64_t i = 0; i < n; ++i) {
                        In v;
                        std::memcpy(&v, in + i * static_cast<int64_t>(sizeof(In)), sizeof(In));
                        if (!fits_int<Out>(v))
                            fail(i, show(v),
                                 std::string(is_float(from) && is_finite(v) &&
                                                     std::trunc(as_double(v)) != as_double(v)
                                                 ? "is not an integer, so it has no equal"
                                                 : "does not fit (range " + range_of<Out>() + ")"));
                    }
                }
            });
        });
        return data.convert(to);
    }
    // Float targets: rounding is accepted, a finite value becoming inf is not.
    TensorData out = data.convert(to);
    const uint8_t* o = out.bytes().data();
    visit_dtype(from, [&](auto tin) {
        using In = decltype(tin);
        visit_dtype(to, [&](auto tout) {
            using Out = decltype(tout);
            if constexpr (std::is_floating_point_v<Out> || is_half_v<Out>) {
                for (int64_t i = 0; i < n; ++i) {
                    Out r;
                    std::memcpy(&r, o + i * static_cast<int64_t>(sizeof(Out)), sizeof(Out));
                    if (is_finite(r)) continue;
                    In v;
                    std::memcpy(&v, in + i * static_cast<int64_t>(sizeof(In)), sizeof(In));
                    if (is_finite(v)) fail(i, show(v), "overflows to infinity");
                }
            }
        });
    });
    return out;
}

}  // namespace burn::store::detail
