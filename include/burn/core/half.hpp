#pragma once
/// 16-bit floating point storage types. Arithmetic converts to float; these only store.
#include <cstdint>
#include <cstring>

namespace burn {

namespace detail {
inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
}  // namespace detail

/// IEEE 754 binary16.
struct f16 {
    uint16_t bits = 0;
    f16() = default;
    f16(float f) : bits(from_float(f)) {}  // NOLINT: implicit, like a number
    operator float() const { return to_float(bits); }

    static uint16_t from_float(float f) {
        uint32_t x = detail::float_bits(f);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t mag = x & 0x7fffffffu;
        if (mag >= 0x7f800000u) return static_cast<uint16_t>(sign | (mag > 0x7f800000u ? 0x7e00u : 0x7c00u));
        if (mag >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
        if (mag < 0x38800000u) {                                               // subnormal or zero
            if (mag < 0x33000000u) return static_cast<uint16_t>(sign);
            uint32_t e = mag >> 23;
            uint32_t m = (mag & 0x7fffffu) | 0x800000u;
            uint32_t shift = 126 - e;  // 14 + (113 - e) - 1
            uint32_t half = m >> shift;
            uint32_t rem = m & ((1u << shift) - 1);
            uint32_t mid = 1u << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1))) ++half;
            return static_cast<uint16_t>(sign | half);
        }
        uint32_t h = ((mag - 0x38000000u) >> 13);
        uint32_t rem = mag & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    static float to_float(uint16_t h) {
        uint32_t sign = (uint32_t(h) & 0x8000u) << 16;
        uint32_t e = (h >> 10) & 0x1f;
        uint32_t m = h & 0x3ffu;
        uint32_t out;
        if (e == 0) {
            if (m == 0) {
                out = sign;
            } else {  // subnormal: normalise
                e = 113;
                while (!(m & 0x400u)) {
                    m <<= 1;
                    --e;
                }
                m &= 0x3ffu;
                out = sign | (e << 23) | (m << 13);
            }
        } else if (e == 31) {
            out = sign | 0x7f800000u | (m << 13);
        } else {
            out = sign | ((e + 112) << 23) | (m << 13);
        }
        return detail::bits_float(out);
    }
};

/// bfloat16: the upper half of a float, rounded to nearest even.
struct bf16 {
    uint16_t bits = 0;
    bf16() = default;
    bf16(float f) : bits(from_float(f)) {}  // NOLINT: implicit, like a number
    operator float() const { return detail::bits_float(uint32_t(bits) << 16); }

    static uint16_t from_float(float f) {
        uint32_t x = detail::float_bits(f);
        if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
        x += 0x7fffu + ((x >> 16) & 1u);
        return static_cast<uint16_t>(x >> 16);
    }
};

}  // namespace burn
