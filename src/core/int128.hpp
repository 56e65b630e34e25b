#pragma once
// 128-bit signed integers for exact size arithmetic (sums and products of int64 shape terms, checked to
// fit int64 afterwards: ops/common.hpp's fit_size). GCC and Clang provide __int128 on 64-bit targets and
// wasm32; 32-bit ARM (bare metal) has none, so there `wide` is Int128, a two's-complement emulation of
// the operations the size checks use: + - * (wrapping modulo 2^128, like __int128's unsigned core),
// division by a value that fits int64 (truncating toward zero), comparisons, and conversions.
// int128_test.cpp checks it against __int128 on the host.
#include <cstdint>

namespace burn {

class Int128 {
  public:
    constexpr Int128() = default;
    constexpr Int128(int64_t v) : hi_(v < 0 ? ~uint64_t{0} : 0), lo_(static_cast<uint64_t>(v)) {}  // NOLINT

    friend constexpr Int128 operator+(Int128 a, Int128 b) {
        Int128 r;
        r.lo_ = a.lo_ + b.lo_;
        r.hi_ = a.hi_ + b.hi_ + (r.lo_ < a.lo_ ? 1 : 0);
        return r;
    }
    friend constexpr Int128 operator-(Int128 a) { return Int128(~a.hi_, ~a.lo_) + Int128(1); }
    friend constexpr Int128 operator-(Int128 a, Int128 b) { return a + -b; }
    friend constexpr Int128 operator*(Int128 a, Int128 b) {
        // (ah 2^64 + al)(bh 2^64 + bl) mod 2^128 = al bl + 2^64 (ah bl + al bh)
        Int128 r = mul_64x64(a.lo_, b.lo_);
        r.hi_ += a.hi_ * b.lo_ + a.lo_ * b.hi_;
        return r;
    }
    /// Truncating division by d, where d fits int64 and is not 0.
    friend constexpr Int128 operator/(Int128 a, Int128 d) {
        const bool neg = a.negative() != d.negative();
        const Int128 n = a.negative() ? -a : a, m = d.negative() ? -d : d;
        const Int128 q = udiv_64(n, m.lo_);
        return neg ? -q : q;
    }
    constexpr Int128& operator+=(Int128 b) { return *this = *this + b; }
    constexpr Int128& operator-=(Int128 b) { return *this = *this - b; }
    constexpr Int128& operator--() { return *this = *this - Int128(1); }
    /// a << s for 0 <= s < 127 (what the size checks shift: 1 << 53).
    friend constexpr Int128 operator<<(Int128 a, int s) {
        if (s == 0) return a;
        if (s >= 64) return Int128(a.lo_ << (s - 64), 0);
        return Int128((a.hi_ << s) | (a.lo_ >> (64 - s)), a.lo_ << s);
    }

    friend constexpr bool operator==(Int128 a, Int128 b) { return a.hi_ == b.hi_ && a.lo_ == b.lo_; }
    friend constexpr bool operator<(Int128 a, Int128 b) {
        const auto ah = static_cast<int64_t>(a.hi_), bh = static_cast<int64_t>(b.hi_);
        return ah != bh ? ah < bh : a.lo_ < b.lo_;
    }
    friend constexpr bool operator!=(Int128 a, Int128 b) { return !(a == b); }
    friend constexpr bool operator>(Int128 a, Int128 b) { return b < a; }
    friend constexpr bool operator<=(Int128 a, Int128 b) { return !(b < a); }
    friend constexpr bool operator>=(Int128 a, Int128 b) { return !(a < b); }

    /// The low 64 bits as int64 (the value itself once it is known to fit).
    constexpr explicit operator int64_t() const { return static_cast<int64_t>(lo_); }
    explicit operator long double() const {
        const Int128 m = negative() ? -*this : *this;
        const long double v = static_cast<long double>(m.hi_) * 18446744073709551616.0L + m.lo_;
        return negative() ? -v : v;
    }
    constexpr uint64_t high_bits() const { return hi_; }
    constexpr uint64_t low_bits() const { return lo_; }

  private:
    constexpr Int128(uint64_t hi, uint64_t lo) : hi_(hi), lo_(lo) {}
    constexpr bool negative() const { return static_cast<int64_t>(hi_) < 0; }
    /// The full 128-bit product of two 64-bit values, from 32-bit halves.
    static constexpr Int128 mul_64x64(uint64_t a, uint64_t b) {
        const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
        const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
        return Int128(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & 0xffffffffu));
    }
    /// n / d for n >= 0 and d >= 1 (restoring long division, one bit at a time).
    static constexpr Int128 udiv_64(Int128 n, uint64_t d) {
        uint64_t q_hi = n.hi_ / d, r = n.hi_ % d, q_lo = 0;
        for (int i = 63; i >= 0; --i) {
            const bool carry = (r >> 63) != 0;  // r << 1 would drop a bit: r >= 2^63 > d - 2^63
            r = (r << 1) | ((n.lo_ >> i) & 1);
            if (carry || r >= d) {
                r -= d;
                q_lo |= uint64_t{1} << i;
            }
        }
        return Int128(q_hi, q_lo);
    }

    uint64_t hi_ = 0, lo_ = 0;
};

#if defined(__SIZEOF_INT128__)
using wide = __int128;
#else
using wide = Int128;
#endif

}  // namespace burn
