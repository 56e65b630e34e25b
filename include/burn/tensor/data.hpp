#pragma once
/// TensorData: host bytes with a dtype and a shape, the currency between tensors and the outside.
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/core/error.hpp"
#include "burn/core/shape.hpp"

namespace burn {

class TensorData {
  public:
    TensorData() = default;
    /// Raw bytes, checked against shape.numel() * size_of(dtype).
    TensorData(std::vector<uint8_t> bytes, Dims shape, DType dtype);
    /// Values of a host type; the dtype is that type's (float -> f32, int32_t -> i32, ...).
    template <class T>
    TensorData(const std::vector<T>& values, Dims shape) : shape_(shape), dtype_(dtype_of<T>) {
        check_count(static_cast<int64_t>(values.size()));
        bytes_.resize(values.size() * sizeof(T));
        if constexpr (std::is_same_v<T, bool>) {
            for (std::size_t i = 0; i < values.size(); ++i) bytes_[i] = values[i] ? 1 : 0;
        } else if (!values.empty()) {
            std::memcpy(bytes_.data(), values.data(), bytes_.size());
        }
    }
    /// A 1-D TensorData from values.
    template <class T>
    explicit TensorData(const std::vector<T>& values)
        : TensorData(values, Dims{static_cast<int64_t>(values.size())}) {}

    const Dims& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    int64_t numel() const { return shape_.numel(); }
    const std::vector<uint8_t>& bytes() const { return bytes_; }
    std::vector<uint8_t>& bytes() { return bytes_; }

    /// The values as T. Throws burn::DTypeError when T is not this data's dtype: it never converts.
    template <class T>
    std::vector<T> to_vec() const {
        BURN_CHECK_KIND(
            dtype_of<T> == dtype_, dtype, "[to_vec] the data is ", dtype_, " but ", name(dtype_of<T>),
            " was asked for; convert first with .convert(DType::", name(dtype_of<T>), ") or cast the tensor");
        std::vector<T> out(static_cast<std::size_t>(numel()));
        if constexpr (std::is_same_v<T, bool>) {
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = bytes_[i] != 0;
        } else if (!out.empty()) {
            std::memcpy(out.data(), bytes_.data(), bytes_.size());
        }
        return out;
    }
    /// The same values in another dtype (explicit conversion, rounding as static_cast does).
    TensorData convert(DType dtype) const;
    /// Element i converted to double (for printing and tests).
    double value_as_double(int64_t i) const;
    /// Equal dtype, shape and bytes.
    friend bool operator==(const TensorData& a, const TensorData& b);
    /// Element-wise closeness in float64: |a-b| <= atol + rtol*|b|; throws on shape mismatch with details.
    void assert_approx_eq(const TensorData& expected, double rtol = 1e-5, double atol = 1e-6) const;
    std::string str() const;

  private:
    void check_count(int64_t n) const;
    std::vector<uint8_t> bytes_;
    Dims shape_;
    DType dtype_ = DType::f32;
};

std::ostream& operator<<(std::ostream& os, const TensorData& d);
detail::Text& operator<<(detail::Text& os, const TensorData& d);

}  // namespace burn
