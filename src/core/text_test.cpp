// detail::Text (core/text.hpp), the iostream-free message builder behind BURN_CHECK, against
// std::ostringstream: the same parts must give the same text (numbers of every kind, std::hex,
// std::fixed, std::setprecision, characters, bools, pointers) and burn's own types print as their
// std::ostream operators do.
#include "burn/core/text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>

#include "burn/backend/op.hpp"
#include "burn/core/device.hpp"
#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"

namespace burn::detail {
namespace {

template <class... Parts>
void expect_same(const Parts&... parts) {
    std::ostringstream want;
    (want << ... << parts);
    Text got;
    (got << ... << parts);
    EXPECT_EQ(got.str(), want.str());
}

TEST(Text, NumbersAsOstreamPrintsThem) {
    expect_same(0, -1, 42u, INT64_MIN, INT64_MAX, UINT64_MAX, static_cast<short>(-7),
                static_cast<uint16_t>(65535));
    for (double v : {0.0, -0.0, 1.0, 0.1, 1.0 / 3.0, 123456789.0, 1e-7, 1e300, -2.5e-300,
                     std::numeric_limits<double>::infinity(), std::nan("")})
        expect_same(v, " ", static_cast<float>(v));
    expect_same(std::hex, 0x4255524Eu, " ", 255, " ", -1, std::dec, " ", 255);
    expect_same(std::fixed, 3.14159, " ", std::setprecision(2), 2.0 / 3.0, " ", 1e10);
    expect_same(std::setprecision(9), 1.0f / 3.0f, " ", 0.1);
}

TEST(Text, CharactersStringsAndBools) {
    expect_same('x', static_cast<signed char>('y'), static_cast<unsigned char>('z'),
                static_cast<int8_t>('A'));
    expect_same(true, false, "text", std::string("string"), std::string_view("view"));
    const char* null_text = nullptr;
    Text t;
    t << null_text;
    EXPECT_EQ(t.str(), "(null)");
}

TEST(Text, BurnTypesPrintAsTheirStreamOperators) {
    expect_same(Dims{2, 3, 4}, " ", Dims{}, " ", DType::f32, " ", DType::u8, " ", Device::cpu(), " ",
                OpId::matmul, " ", TensorMeta{DType::i64, Dims{5}});
    EXPECT_EQ(to_text(Dims{1, 28, 28}), "[1, 28, 28]");
    EXPECT_EQ(Dims({7}).str(), "[7]");
}

}  // namespace
}  // namespace burn::detail
