#include "burn/core/shape.hpp"

#include <ostream>

#include "burn/core/error.hpp"

namespace burn {

Dims::Dims(std::initializer_list<int64_t> v) {
    BURN_CHECK_KIND(v.size() <= kMaxRank, shape, "rank ", v.size(), " exceeds the maximum rank ", kMaxRank);
    for (int64_t x : v) v_[rank_++] = x;
}

Dims Dims::filled(int rank, int64_t value) {
    BURN_CHECK_KIND(rank >= 0 && rank <= kMaxRank, shape, "rank ", rank, " exceeds the maximum rank ",
                    kMaxRank);
    Dims d;
    d.rank_ = rank;
    for (int i = 0; i < rank; ++i) d.v_[i] = value;
    return d;
}

Dims Dims::from(const int64_t* data, int rank) {
    Dims d = filled(rank, 0);
    for (int i = 0; i < rank; ++i) d.v_[i] = data[i];
    return d;
}

void Dims::push_back(int64_t x) {
    BURN_CHECK_KIND(rank_ < kMaxRank, shape, "rank exceeds the maximum rank ", kMaxRank);
    v_[rank_++] = x;
}

void Dims::insert(int pos, int64_t x) {
    BURN_CHECK_KIND(rank_ < kMaxRank, shape, "rank exceeds the maximum rank ", kMaxRank);
    for (int i = rank_; i > pos; --i) v_[i] = v_[i - 1];
    v_[pos] = x;
    ++rank_;
}

void Dims::erase(int pos) {
    for (int i = pos; i + 1 < rank_; ++i) v_[i] = v_[i + 1];
    --rank_;
}

void Dims::resize(int rank, int64_t fill) {
    BURN_CHECK_KIND(rank >= 0 && rank <= kMaxRank, shape, "rank ", rank, " exceeds the maximum rank ",
                    kMaxRank);
    for (int i = rank_; i < rank; ++i) v_[i] = fill;
    rank_ = rank;
}

int64_t Dims::numel() const {
    int64_t n = 1;
    for (int i = 0; i < rank_; ++i)
        BURN_CHECK_KIND(checked_mul(n, v_[i], n), shape, "[numel] the element count of shape ", *this,
                        " overflows int64");
    return n;
}

Dims Dims::contiguous_strides() const {
    Dims s = filled(rank_, 1);
    int64_t acc = 1;
    for (int i = rank_ - 1; i >= 0; --i) {
        s.v_[i] = acc;
        BURN_CHECK_KIND(checked_mul(acc, v_[i] > 0 ? v_[i] : 1, acc), shape,
                        "[strides] the element count of shape ", *this, " overflows int64");
    }
    return s;
}

namespace {
/// check_shape's checks one at a time, in the order their errors are reported.
[[gnu::noinline, gnu::cold]] int64_t check_shape_each(const Dims& shape, const char* op,
                                                      std::size_t elem_size) {
    int64_t n = 1;
    bool zero = false;
    for (int i = 0; i < shape.rank(); ++i) {
        BURN_CHECK_KIND(shape[i] >= 0, shape, "[", op, "] negative dimension ", shape[i], " in shape ",
                        shape);
        zero |= shape[i] == 0;
    }
    // A shape with a zero dim holds nothing, but its other dims still feed strides and offsets: they
    // must not overflow either, so the product of the non-zero dims is checked too.
    for (int i = 0; i < shape.rank(); ++i)
        BURN_CHECK_KIND(checked_mul(n, shape[i] == 0 ? 1 : shape[i], n), shape, "[", op, "] shape ", shape,
                        " has more elements than int64 can count (the product of its dims overflows)");
    int64_t bytes = 0;
    BURN_CHECK_KIND(checked_mul(n, static_cast<int64_t>(elem_size), bytes), shape, "[", op, "] shape ", shape,
                    " has ", n, " elements of ", elem_size, " bytes: the byte count overflows int64");
    return zero ? 0 : n;
}
}  // namespace

bool shape_fits(const Dims& shape, std::size_t elem_size, int64_t& n) {
    n = 1;
    bool zero = false;
    for (const int64_t d : shape) {
        if (d > 0) {
            if (!checked_mul(n, d, n)) [[unlikely]]
                return false;
        } else if (d == 0) {
            zero = true;
        } else [[unlikely]] {
            return false;
        }
    }
    int64_t bytes = 0;
    if (!checked_mul(n, static_cast<int64_t>(elem_size), bytes)) [[unlikely]]
        return false;
    if (zero) n = 0;
    return true;
}

int64_t check_shape(const Dims& shape, const char* op, std::size_t elem_size) {
    // Every op's output passes here (and every allocation): the common case is one pass over the dims;
    // any failure runs the checks again one at a time for the error.
    int64_t n = 0;
    return shape_fits(shape, elem_size, n) ? n : check_shape_each(shape, op, elem_size);
}

int64_t mul_size(int64_t a, int64_t b, const char* op, const char* what) {
    int64_t out = 0;
    BURN_CHECK_KIND(checked_mul(a, b, out), shape, "[", op, "] ", what, " ", a, " * ", b, " overflows int64");
    return out;
}

int64_t add_size(int64_t a, int64_t b, const char* op, const char* what) {
    int64_t out = 0;
    BURN_CHECK_KIND(checked_add(a, b, out), shape, "[", op, "] ", what, " ", a, " + ", b, " overflows int64");
    return out;
}

std::string Dims::str() const {
    return detail::to_text(*this);
}

bool operator==(const Dims& a, const Dims& b) {
    if (a.rank_ != b.rank_) return false;
    for (int i = 0; i < a.rank_; ++i)
        if (a.v_[i] != b.v_[i]) return false;
    return true;
}

detail::Text& operator<<(detail::Text& os, const Dims& d) {
    os << '[';
    for (int i = 0; i < d.rank(); ++i) os << (i ? ", " : "") << d[i];
    return os << ']';
}

std::ostream& operator<<(std::ostream& os, const Dims& d) {
    return os << detail::to_text(d);
}

int normalize_dim(int64_t dim, int rank, const char* op) {
    int64_t d = dim < 0 ? dim + rank : dim;
    BURN_CHECK_KIND(d >= 0 && d < rank, index, "[", op, "] dim ", dim,
                    " is out of range for a tensor of rank ", rank, " (valid: ", -rank, "..", rank - 1, ")");
    return static_cast<int>(d);
}

Dims broadcast_shapes(const Dims& a, const Dims& b, const char* op) {
    BURN_CHECK_KIND(a.rank() == b.rank(), shape, "[", op, "] rank mismatch: lhs ", a, " vs rhs ", b);
    Dims out = a;
    for (int i = 0; i < a.rank(); ++i) {
        if (a[i] == b[i]) continue;
        if (a[i] == 1) {
            out[i] = b[i];
        } else if (b[i] != 1) {
            BURN_THROW_KIND(shape, "[", op, "] shapes ", a, " and ", b, " cannot be broadcast: dim ", i,
                            " is ", a[i], " vs ", b[i], " (each must be equal or 1)");
        }
    }
    return out;
}

}  // namespace burn
