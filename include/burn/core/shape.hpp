#pragma once
/// Shapes. Shape<D> is the typed shape of the public API; Dims is the rank-erased shape (and
/// strides) used inside the library: up to kMaxRank dimensions stored inline, no allocation.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>

namespace burn {

template <std::size_t D>
using Shape = std::array<std::size_t, D>;

inline constexpr int kMaxRank = 8;

class Dims {
  public:
    Dims() = default;
    Dims(std::initializer_list<int64_t> v);
    template <std::size_t D>
    Dims(const Shape<D>& s) {  // NOLINT: a typed shape is a shape
        static_assert(D <= kMaxRank, "burn supports tensors of rank at most 8");
        rank_ = static_cast<int>(D);
        for (std::size_t i = 0; i < D; ++i) v_[i] = static_cast<int64_t>(s[i]);
    }
    /// A shape of the given rank filled with value.
    static Dims filled(int rank, int64_t value);
    static Dims from(const int64_t* data, int rank);

    int rank() const { return rank_; }
    bool empty() const { return rank_ == 0; }
    int64_t operator[](int i) const { return v_[i]; }
    int64_t& operator[](int i) { return v_[i]; }
    const int64_t* begin() const { return v_.data(); }
    const int64_t* end() const { return v_.data() + rank_; }
    int64_t* begin() { return v_.data(); }
    int64_t* end() { return v_.data() + rank_; }
    const int64_t* data() const { return v_.data(); }
    int64_t back() const { return v_[rank_ - 1]; }

    void push_back(int64_t x);
    void insert(int pos, int64_t x);
    void erase(int pos);
    void resize(int rank, int64_t fill = 0);

    /// Product of all dimensions (1 for rank 0). Throws ShapeError when it overflows int64 (shapes
    /// are checked with check_shape where they are made, so this is a backstop).
    int64_t numel() const;
    /// Row-major strides of this shape, in elements.
    Dims contiguous_strides() const;
    std::string str() const;

    template <std::size_t D>
    Shape<D> to_shape() const {
        Shape<D> s{};
        for (std::size_t i = 0; i < D; ++i) s[i] = static_cast<std::size_t>(v_[i]);
        return s;
    }

    friend bool operator==(const Dims& a, const Dims& b);
    friend bool operator!=(const Dims& a, const Dims& b) { return !(a == b); }

  private:
    std::array<int64_t, kMaxRank> v_{};
    int rank_ = 0;
};

namespace detail {
class Text;
}
std::ostream& operator<<(std::ostream& os, const Dims& d);
detail::Text& operator<<(detail::Text& os, const Dims& d);

/// out = a * b and out = a + b, or false when the result overflows int64. The one checked arithmetic
/// that element counts, byte counts, output sizes and index arithmetic go through.
inline bool checked_mul(int64_t a, int64_t b, int64_t& out) {
    return !__builtin_mul_overflow(a, b, &out);
}
inline bool checked_add(int64_t a, int64_t b, int64_t& out) {
    return !__builtin_add_overflow(a, b, &out);
}
inline bool checked_sub(int64_t a, int64_t b, int64_t& out) {
    return !__builtin_sub_overflow(a, b, &out);
}

/// Checks a shape that op is about to make: every dim >= 0, and both the element count and the byte
/// count (elements * elem_size) fit int64 (and so size_t). Returns the element count; throws
/// ShapeError "[op] shape [..] ..." otherwise.
int64_t check_shape(const Dims& shape, const char* op, std::size_t elem_size = 1);
/// check_shape's test without an error: true and the element count in n when the shape is valid.
bool shape_fits(const Dims& shape, std::size_t elem_size, int64_t& n);
/// a * b or a + b for a size op computes, or a ShapeError naming op, what and the operands.
int64_t mul_size(int64_t a, int64_t b, const char* op, const char* what);
int64_t add_size(int64_t a, int64_t b, const char* op, const char* what);

/// Normalises a possibly negative dimension index against rank; throws naming op otherwise.
int normalize_dim(int64_t dim, int rank, const char* op);

/// The broadcast of two shapes (numpy rules), or a ShapeError naming op.
Dims broadcast_shapes(const Dims& a, const Dims& b, const char* op);

}  // namespace burn
