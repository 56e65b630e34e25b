#pragma once
/// Records: named tensors, typed scalars and string metadata, the generic content of a Burnpack file.
/// Optimizer and scheduler state are saved as records (moments as tensors, step counts as scalars).
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <type_traits>

#include "burn/core/error.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::store {

/// A typed scalar: i64, u64, f64 or bool, kept exactly (an i64 step count never becomes a double).
class Scalar {
  public:
    enum class Kind : uint8_t { i64, u64, f64, boolean };

    Scalar() = default;
    Scalar(bool v) : kind_(Kind::boolean), b_(v) {}  // NOLINT: scalars convert implicitly
    Scalar(double v) : kind_(Kind::f64), f_(v) {}    // NOLINT
    Scalar(float v) : kind_(Kind::f64), f_(v) {}     // NOLINT
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Scalar(T v) {  // NOLINT
        if constexpr (std::is_signed_v<T>) {
            kind_ = Kind::i64;
            i_ = static_cast<int64_t>(v);
        } else {
            kind_ = Kind::u64;
            u_ = static_cast<uint64_t>(v);
        }
    }

    Kind kind() const { return kind_; }
    /// The value as i64: exact for i64, u64 below 2^63 and bool; throws burn::Error otherwise.
    int64_t as_i64() const;
    /// The value as u64: exact for u64, non-negative i64 and bool; throws burn::Error otherwise.
    uint64_t as_u64() const;
    /// The value as f64 (integers convert; bool is 0 or 1).
    double as_f64() const;
    /// The value of a bool scalar; throws burn::Error for other kinds.
    bool as_bool() const;

    friend bool operator==(const Scalar& a, const Scalar& b);
    friend bool operator!=(const Scalar& a, const Scalar& b) { return !(a == b); }

  private:
    Kind kind_ = Kind::i64;
    union {
        int64_t i_ = 0;
        uint64_t u_;
        double f_;
        bool b_;
    };
};
std::ostream& operator<<(std::ostream& os, const Scalar& s);

/// Named tensors, scalars and metadata. Names are free-form ("state.42.moment_1", "scheduler.step").
struct Record {
    std::map<std::string, TensorAny> tensors;
    std::map<std::string, Scalar> scalars;
    std::map<std::string, std::string> metadata;
};

/// Hard limits applied when reading files (Burnpack, SafeTensors, PyTorch): a hostile or corrupt file
/// gives a burn::Error naming the limit instead of exhausting memory.
struct Limits {
    uint64_t max_header_bytes = 100ull << 20;  // Burnpack CBOR metadata, SafeTensors JSON header, pickles
    uint64_t max_tensors = 100000;
    uint64_t max_tensor_bytes = sizeof(void*) >= 8 ? (10ull << 30) : (2ull << 30);
    uint64_t max_file_bytes = 100ull << 30;
    int max_depth = 128;  // nesting of CBOR/JSON/pickle containers
};

}  // namespace burn::store
