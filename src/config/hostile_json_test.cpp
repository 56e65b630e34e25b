// Hostile JSON for configs and state files: nesting deep enough to overflow the stack, trees built
// deep in code, and objects with tens of thousands of keys. Each gives a clean burn::Error (or works)
// in time linear in the input.
#include <gtest/gtest.h>

#include <string>

#include "config_test_types.hpp"

using burn::config::dump;
using burn::config::parse;
using burn::config::Value;

namespace {

std::string json_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const burn::Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

std::string nested(std::size_t depth, bool objects, bool closed) {
    std::string s;
    s.reserve(depth * 8);
    for (std::size_t i = 0; i < depth; ++i) s += objects ? "{\"k\":" : "[";
    s += "1";
    if (closed)
        for (std::size_t i = 0; i < depth; ++i) s += objects ? "}" : "]";
    return s;
}

}  // namespace

TEST(ConfigHostile, DeepNestingIsRefusedCleanly) {
    for (std::size_t depth : {10000u, 100000u})
        for (bool objects : {false, true})
            for (bool closed : {false, true}) {
                SCOPED_TRACE(std::to_string(depth) + (objects ? " objects" : " arrays") +
                             (closed ? ", closed" : ", unclosed"));
                const std::string m =
                    json_error_of([&] { parse(nested(depth, objects, closed), "deep.json"); });
                EXPECT_NE(m.find("[config.parse] 'deep.json' line 1, column "), std::string::npos) << m;
                EXPECT_NE(m.find("nest deeper than 128 levels"), std::string::npos) << m;
                // ... and through a config type, as a user loads a file
                const std::string c = json_error_of(
                    [&] { cfgtest::AdamConfig::from_json_string(nested(depth, objects, closed)); });
                EXPECT_NE(c.find("nest deeper than 128 levels"), std::string::npos) << c;
            }
    // 128 levels are read; the 129th bracket is the one named.
    EXPECT_NO_THROW(parse(nested(128, false, true)));
    EXPECT_NO_THROW(parse(nested(128, true, true)));
    EXPECT_NE(json_error_of([] { parse(nested(129, false, true)); }).find("column 129:"), std::string::npos);
    // Brackets inside strings are text, not nesting.
    const std::string brackets = "[\"" + std::string(5000, '[') + "\\\"" + std::string(5000, '{') + "\"]";
    EXPECT_EQ(parse(brackets).element(0).as_string().size(), 10001u);
}

TEST(ConfigHostile, TreesBuiltDeepInCodeAreDestroyedCopiedAndComparedWithoutRecursion) {
    for (bool objects : {false, true}) {
        Value root;
        Value* leaf = &root;
        for (int i = 0; i < 100000; ++i) {
            if (objects) {
                *leaf = Value::object();
                leaf = &leaf->append("k", Value());
            } else {
                *leaf = Value::array();
                leaf->push_back(Value());
                leaf = &leaf->element(0);
            }
        }
        *leaf = Value(7);
        Value copy = root;  // copies iteratively
        EXPECT_TRUE(copy == root);
        *leaf = Value(8);
        EXPECT_FALSE(copy == root);
        // Printing is bounded as parsing is: a clean error, not a stack overflow.
        EXPECT_NE(json_error_of([&] { (void)dump(root); }).find("nest deeper than 128 levels"),
                  std::string::npos);
        Value moved = std::move(copy);
        copy = std::move(moved);  // the old value of copy (empty) goes, the tree comes back
        EXPECT_EQ(copy.size(), 1u);
    }  // root and copy are destroyed here: iteratively
    Value wide = Value::array();
    for (int i = 0; i < 1000; ++i) wide.push_back(Value::array());
    Value wide_copy = wide;
    EXPECT_EQ(wide_copy, wide);
}

TEST(ConfigHostile, TwentyThousandUnknownKeysAreRejected) {
    std::string text = "{";
    for (int i = 0; i < 20000; ++i)
        text += (i ? ",\"key_" : "\"key_") + std::to_string(i) + "\":" + std::to_string(i);
    text += "}";
    const Value v = parse(text);  // distinct keys: parsed (duplicates are found through a hash set)
    EXPECT_EQ(v.size(), 20000u);
    const std::string m = json_error_of([&] { cfgtest::AdamConfig::from_json_string(text); });
    EXPECT_NE(m.find("key 'key_0': unknown key"), std::string::npos) << m;

    // A duplicate at the end of 20,000 keys is still found.
    std::string dup = text.substr(0, text.size() - 1) + ",\"key_3\":1}";
    EXPECT_NE(json_error_of([&] { parse(dup); }).find("duplicate key 'key_3'"), std::string::npos);
    // ... and in a small object (the linear scan below the hash set's threshold).
    EXPECT_NE(json_error_of([] { parse(R"({"a": 1, "b": {"c": 1, "c": 2}})"); }).find("duplicate key 'c'"),
              std::string::npos);
}
