// Int128 (core/int128.hpp), the emulation 32-bit targets use for `wide`, against the compiler's
// __int128 on values around the int64 range: sums, differences, products, negation, division by int64
// values, shifts, comparisons and the conversions.
#include "core/int128.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#if defined(__SIZEOF_INT128__)

namespace burn {
namespace {

bool same(Int128 a, __int128 b) {
    const auto u = static_cast<unsigned __int128>(b);
    return a.high_bits() == static_cast<uint64_t>(u >> 64) && a.low_bits() == static_cast<uint64_t>(u);
}

std::vector<int64_t> samples() {
    std::vector<int64_t> v{0,
                           1,
                           -1,
                           2,
                           -2,
                           3,
                           7,
                           INT64_MAX,
                           INT64_MIN,
                           INT64_MAX - 1,
                           INT64_MIN + 1,
                           INT32_MAX,
                           INT32_MIN,
                           int64_t{1} << 32,
                           -(int64_t{1} << 32),
                           int64_t{1} << 53,
                           (int64_t{1} << 62) + 12345};
    std::mt19937_64 rng(17);
    for (int i = 0; i < 40; ++i) {
        const auto r = static_cast<int64_t>(rng());
        v.push_back(r);
        v.push_back(r >> (i % 63));
    }
    return v;
}

TEST(Int128, ArithmeticMatchesTheCompilersInt128) {
    const auto v = samples();
    for (int64_t x : v)
        for (int64_t y : v) {
            const __int128 a = x, b = y;
            const Int128 p = x, q = y;
            ASSERT_TRUE(same(p + q, a + b)) << x << " + " << y;
            ASSERT_TRUE(same(p - q, a - b)) << x << " - " << y;
            ASSERT_TRUE(same(p * q, a * b)) << x << " * " << y;
            ASSERT_TRUE(same(-p, -a)) << "-" << x;
            ASSERT_EQ(p < q, a < b) << x << " < " << y;
            ASSERT_EQ(p == q, a == b) << x << " == " << y;
            // products of int64 values, then + - * and division by an int64 (what the size checks do)
            const __int128 big = a * b + a;
            const Int128 bigp = p * q + p;
            ASSERT_TRUE(same(bigp, big));
            // the reference wraps like Int128 (signed __int128 overflow would be undefined)
            using U = unsigned __int128;
            ASSERT_TRUE(same(bigp * Int128(3) - q, static_cast<__int128>(U(big) * 3u - U(b))));
            if (y != 0) {
                ASSERT_TRUE(same(bigp / q, big / b)) << x << " * " << y << " + " << x << " / " << y;
                ASSERT_TRUE(same(p / q, a / b)) << x << " / " << y;
            }
            ASSERT_EQ(bigp <= Int128(INT64_MAX), big <= INT64_MAX);
            ASSERT_EQ(bigp >= Int128(INT64_MIN), big >= INT64_MIN);
        }
}

TEST(Int128, ShiftsAndConversions) {
    for (int s : {0, 1, 31, 53, 63, 64, 65, 100, 126}) {
        ASSERT_TRUE(same(Int128(1) << s, __int128(1) << s)) << s;
        ASSERT_TRUE(same(Int128(-3) << s, static_cast<__int128>(static_cast<unsigned __int128>(-3) << s)))
            << s;
    }
    EXPECT_EQ(static_cast<int64_t>(Int128(INT64_MIN)), INT64_MIN);
    EXPECT_EQ(static_cast<long double>(Int128(-12345)), -12345.0L);
    const Int128 two64 = Int128(1) << 64;
    EXPECT_EQ(static_cast<long double>(two64), 18446744073709551616.0L);
    Int128 c = 5;
    --c;
    c += 10;
    c -= 2;
    EXPECT_TRUE(same(c, 12));
}

}  // namespace
}  // namespace burn

#endif
