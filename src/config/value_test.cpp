// burn::config::Value, parse and dump.
#include <gtest/gtest.h>

#include <burn/config/value.hpp>
#include <burn/core/error.hpp>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

using burn::config::dump;
using burn::config::Kind;
using burn::config::parse;
using burn::config::Value;

namespace {

std::string parse_error(const std::string& text) {
    try {
        parse(text);
    } catch (const burn::Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "parse accepted: " << text;
    return {};
}

}  // namespace

TEST(ConfigValue, KindsAndIntegerNormalisation) {
    EXPECT_EQ(Value().kind(), Kind::null);
    EXPECT_EQ(Value(nullptr).kind(), Kind::null);
    EXPECT_EQ(Value(true).kind(), Kind::boolean);
    EXPECT_EQ(Value(-1).kind(), Kind::int64);
    EXPECT_EQ(Value(1).kind(), Kind::uint64);  // non-negative integers are uint64, as parsed
    EXPECT_EQ(Value(int64_t{5}), Value(uint64_t{5}));
    EXPECT_EQ(Value(uint64_t{5}), parse("5"));
    EXPECT_EQ(Value(-5), parse("-5"));
    EXPECT_EQ(Value(2.5).kind(), Kind::number);
    EXPECT_NE(Value(1.0), Value(1));  // a double is not an integer
    EXPECT_EQ(Value("s").kind(), Kind::string);
    EXPECT_EQ(Value::array().kind(), Kind::array);
    EXPECT_EQ(Value::object().kind(), Kind::object);
    EXPECT_EQ(Value(std::numeric_limits<int64_t>::min()).as_int64(), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(Value(std::numeric_limits<uint64_t>::max()).as_uint64(), std::numeric_limits<uint64_t>::max());
    EXPECT_THROW(Value(std::numeric_limits<uint64_t>::max()).as_int64(), burn::Error);
    EXPECT_THROW(Value(-1).as_uint64(), burn::Error);
    EXPECT_THROW(Value("x").as_double(), burn::Error);
    EXPECT_EQ(Value(3).as_double(), 3.0);
}

TEST(ConfigValue, ObjectsKeepInsertionOrderAndArraysGrow) {
    Value o;
    o["zeta"] = 1;
    o["alpha"] = "two";
    o["mid"]["inner"] = true;
    o["zeta"] = 3;  // replaces in place
    EXPECT_EQ(o.size(), 3u);
    EXPECT_EQ(dump(o, -1), R"({"zeta":3,"alpha":"two","mid":{"inner":true}})");
    EXPECT_EQ(o.at("alpha").as_string(), "two");
    EXPECT_EQ(o.find("missing"), nullptr);
    EXPECT_THROW(o.at("missing"), burn::Error);
    Value a;
    a.push_back(1);
    a.push_back(Value::object());
    a.push_back(nullptr);
    EXPECT_EQ(dump(a, -1), "[1,{},null]");
    EXPECT_EQ(a[0], Value(1));
    EXPECT_THROW(a[3], burn::IndexError);
    EXPECT_THROW(o.push_back(1), burn::Error);  // not an array
    std::ostringstream os;
    os << a;
    EXPECT_EQ(os.str(), "[1,{},null]");
}

TEST(ConfigValue, ParseDumpRoundTrip) {
    const std::string texts[] = {
        R"({"b":1,"a":[true,false,null],"c":{"x":-1.5,"y":"s"}})",
        R"([18446744073709551615,-9223372036854775808,0.1,1e+300,1.0])",
        R"("esc \" \\ \n \t \u0001 é ☃ 😀")",
        R"({})",
        R"([])",
        R"(0)",
    };
    for (const auto& text : texts) {
        Value v = parse(text);
        EXPECT_EQ(parse(dump(v, -1)), v) << text;
        EXPECT_EQ(parse(dump(v, 4)), v) << text;
    }
    EXPECT_EQ(dump(parse(texts[0]), -1), texts[0]);  // compact dump is byte-identical here
    EXPECT_EQ(parse(texts[2]).as_string(), "esc \" \\ \n \t \x01 é ☃ 😀");
    EXPECT_EQ(dump(parse(R"({"a":[1]})"), 2), "{\n  \"a\": [\n    1\n  ]\n}");
    EXPECT_EQ(parse("1e300").kind(), Kind::number);
    EXPECT_EQ(parse("18446744073709551616").kind(), Kind::number);  // beyond uint64: a double
    EXPECT_EQ(parse("  \n 7 \n").as_uint64(), 7u);                  // whitespace around
}

TEST(ConfigValue, ParseErrorsGiveLineAndColumn) {
    auto m = parse_error("{\"a\": 1,\n \"b\": }");
    EXPECT_NE(m.find("[config.parse] line 2, column 7: "), std::string::npos) << m;
    EXPECT_NE(m.find("unexpected '}'"), std::string::npos) << m;
    m = parse_error("[1,");
    EXPECT_NE(m.find("line 1, column 4"), std::string::npos) << m;
    EXPECT_NE(m.find("unexpected end of input"), std::string::npos) << m;
    m = parse_error("");
    EXPECT_NE(m.find("line 1, column 1"), std::string::npos) << m;
    m = parse_error("{\"a\": 1} trailing");  // the lexer stops at the 'a' of "tra"
    EXPECT_NE(m.find("line 1, column 12"), std::string::npos) << m;
    m = parse_error("[1e400]");  // column of the number's last character
    EXPECT_NE(m.find("[config.parse] line 1, column 6: number overflow parsing '1e400'"), std::string::npos)
        << m;
    m = parse_error("{\"a\": 1, // comment\n}");
    EXPECT_NE(m.find("line 1, column 10"), std::string::npos) << m;
    m = parse_error("{\"a\": 1, \"b\": {\"c\": 1, \"c\": 2}}");
    EXPECT_NE(m.find("duplicate key 'c'"), std::string::npos) << m;
    m = parse_error("[\"\xff\"]");
    EXPECT_NE(m.find("[config.parse]"), std::string::npos) << m;
    try {
        parse("{", "settings.json");
        ADD_FAILURE();
    } catch (const burn::Error& e) {
        EXPECT_NE(std::string(e.what()).find("[config.parse] 'settings.json' line 1, column 2"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ConfigValue, DumpRejectsInvalidUtf8) {
    EXPECT_THROW(dump(Value(std::string("\xff"))), burn::Error);
}
