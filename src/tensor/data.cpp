#include "burn/tensor/data.hpp"

#include <cmath>
#include <iomanip>
#include <ostream>

#include "burn/tensor/print_options.hpp"

namespace burn {

namespace {
// A double into an integer type with defined results (a plain cast is undefined behaviour outside the
// target's range): truncated toward zero to int64 (NaN is 0, beyond int64 saturates), then reduced
// modulo the target's width, as the x86 conversion PyTorch and NumPy rely on does (-2 -> u8 254).
template <class T>
T int_from_double(double d) {
    int64_t w = 0;
    if (d != d)
        w = 0;
    else if (d >= 9223372036854775808.0)
        w = INT64_MAX;
    else if (d < -9223372036854775808.0)
        w = INT64_MIN;
    else
        w = static_cast<int64_t>(d);
    return static_cast<T>(w);
}

template <class T>
double load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
        return static_cast<float>(v);
    else
        return static_cast<double>(v);
}
}  // namespace

TensorData::TensorData(std::vector<uint8_t> bytes, Dims shape, DType dtype)
    : bytes_(std::move(bytes)), shape_(shape), dtype_(dtype) {
    const int64_t want =
        check_shape(shape_, "TensorData", size_of(dtype)) * static_cast<int64_t>(size_of(dtype));
    BURN_CHECK_KIND(bytes_.size() == static_cast<uint64_t>(want), shape, "[TensorData] ", bytes_.size(),
                    " bytes do not hold a ", dtype, " tensor of shape ", shape_, " (", want, " bytes)");
}

void TensorData::check_count(int64_t n) const {
    check_shape(shape_, "TensorData", size_of(dtype_));
    BURN_CHECK_KIND(n == shape_.numel(), shape, "[TensorData] ", n, " values do not fill shape ", shape_,
                    " (", shape_.numel(), " elements)");
}

double TensorData::value_as_double(int64_t i) const {
    BURN_CHECK_KIND(i >= 0 && i < numel(), index, "[TensorData] element ", i, " out of range for shape ",
                    shape_);
    const uint8_t* p = bytes_.data() + i * static_cast<int64_t>(size_of(dtype_));
    return visit_dtype(dtype_, [&](auto tag) { return load<decltype(tag)>(p); });
}

TensorData TensorData::convert(DType to) const {
    if (to == dtype_) return *this;
    std::vector<uint8_t> out(static_cast<std::size_t>(numel()) * size_of(to));
    const std::size_t in_size = size_of(dtype_), out_size = size_of(to);
    visit_dtype(dtype_, [&](auto tin) {
        using TIn = decltype(tin);
        visit_dtype(to, [&](auto tout) {
            using TOut = decltype(tout);
            for (int64_t i = 0; i < numel(); ++i) {
                TIn v;
                std::memcpy(&v, bytes_.data() + i * in_size, sizeof(TIn));
                TOut o;
                if constexpr (std::is_same_v<TOut, bool>) {
                    o = static_cast<double>(load<TIn>(reinterpret_cast<const uint8_t*>(&v))) != 0.0;
                } else if constexpr (std::is_same_v<TOut, f16> || std::is_same_v<TOut, bf16>) {
                    o = TOut(static_cast<float>(load<TIn>(reinterpret_cast<const uint8_t*>(&v))));
                } else if constexpr (std::is_same_v<TIn, int64_t> && std::is_integral_v<TOut>) {
                    o = static_cast<TOut>(v);  // exact for integers beyond 2^53
                } else if constexpr (std::is_integral_v<TOut>) {
                    o = int_from_double<TOut>(load<TIn>(reinterpret_cast<const uint8_t*>(&v)));
                } else {
                    o = static_cast<TOut>(load<TIn>(reinterpret_cast<const uint8_t*>(&v)));
                }
                std::memcpy(out.data() + i * out_size, &o, sizeof(TOut));
            }
        });
    });
    return TensorData(std::move(out), shape_, to);
}

bool operator==(const TensorData& a, const TensorData& b) {
    return a.dtype_ == b.dtype_ && a.shape_ == b.shape_ && a.bytes_ == b.bytes_;
}

void TensorData::assert_approx_eq(const TensorData& expected, double rtol, double atol) const {
    BURN_CHECK_KIND(shape_ == expected.shape_, shape, "[assert_approx_eq] shape ", shape_, " vs expected ",
                    expected.shape_);
    for (int64_t i = 0; i < numel(); ++i) {
        double a = value_as_double(i), b = expected.value_as_double(i);
        if (std::isnan(a) && std::isnan(b)) continue;
        if (a == b) continue;
        BURN_CHECK(std::abs(a - b) <= atol + rtol * std::abs(b), "[assert_approx_eq] element ", i, ": ",
                   std::setprecision(9), a, " vs expected ", b, " (rtol ", rtol, ", atol ", atol, ")");
    }
}

std::string TensorData::str() const {
    return detail::to_text(*this);
}

std::ostream& operator<<(std::ostream& os, const TensorData& d) {
    return os << detail::to_text(d);
}

namespace {
tensor::PrintOptions g_print_options;
}  // namespace

void tensor::set_print_options(const PrintOptions& options) {
    BURN_CHECK(!options.precision || (*options.precision >= 0 && *options.precision <= 30),
               "[set_print_options] precision must be in [0, 30] digits after the point, got ",
               options.precision.value_or(0));
    g_print_options = options;
}

tensor::PrintOptions tensor::print_options() {
    return g_print_options;
}

detail::Text& operator<<(detail::Text& os, const TensorData& d) {
    // Nested brackets, eliding the middle of long dims like PyTorch (tensor::PrintOptions).
    const Dims& s = d.shape();
    const int rank = s.rank();
    const tensor::PrintOptions& opt = g_print_options;
    const bool summarise = static_cast<uint64_t>(d.numel()) > opt.threshold;
    const int64_t edge = static_cast<int64_t>(opt.edge_items);
    Dims strides = s.contiguous_strides();
    auto print = [&](auto&& self, int dim, int64_t base) -> void {
        if (dim == rank) {
            double v = d.value_as_double(base);
            if (is_bool(d.dtype()))
                os << (v != 0 ? "true" : "false");
            else if (is_float(d.dtype()) && opt.precision)
                os << std::fixed << std::setprecision(*opt.precision) << v << std::defaultfloat;
            else if (is_float(d.dtype()))
                os << std::setprecision(6) << v;
            else
                os << static_cast<int64_t>(v);
            return;
        }
        os << '[';
        int64_t n = s[dim];
        for (int64_t i = 0; i < n; ++i) {
            if (summarise && n > 2 * edge + 1 && i == edge) {
                os << (i ? ", ..." : "...");
                i = n - edge - 1;
                continue;
            }
            if (i) os << ", ";
            self(self, dim + 1, base + i * strides[dim]);
        }
        os << ']';
    };
    if (d.numel() == 0 && rank > 0) {
        os << "[]";
    } else {
        print(print, 0, 0);
    }
    return os;
}

}  // namespace burn
