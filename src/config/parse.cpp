// JSON text into burn::config::Value, through nlohmann-json's SAX parser (value.cpp says why nlohmann
// stays behind .cpp files).
//
// Hostile text is bounded: nesting deeper than kMaxDepth is refused before anything is built (a tree
// 10^5 levels deep would otherwise be walked recursively when it is copied, printed or compared), and
// duplicate keys are found with a hash set, so an object of n keys costs O(n), not O(n^2).
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "burn/config/value.hpp"
#include "burn/core/error.hpp"
#include "config/depth.hpp"

namespace burn::config {

namespace {

using Json = nlohmann::ordered_json;

/// nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 4: <reason>";
/// keeps the reason (the caller adds its own line and column).
std::string reason(const std::string& what) {
    std::size_t start = 0;
    if (what.rfind("[json.exception.", 0) == 0) {
        auto close = what.find("] ");
        if (close != std::string::npos) start = close + 2;
    }
    if (what.compare(start, 15, "parse error at ") == 0) {
        auto colon = what.find(": ", start);
        if (colon != std::string::npos) start = colon + 2;
    }
    return what.substr(start);
}

/// Builds a Value straight from nlohmann's SAX events (no intermediate nlohmann DOM), and rejects
/// duplicate keys, which a DOM would silently collapse.
class Builder : public nlohmann::json_sax<Json> {
  public:
    Value root;
    std::string error;  // set on failure
    std::size_t error_byte = 0;

    bool null() override { return put(Value()); }
    bool boolean(bool b) override { return put(Value(b)); }
    bool number_integer(number_integer_t v) override { return put(Value(static_cast<std::int64_t>(v))); }
    bool number_unsigned(number_unsigned_t v) override { return put(Value(static_cast<std::uint64_t>(v))); }
    bool number_float(number_float_t v, const string_t&) override {
        return put(Value(static_cast<double>(v)));
    }
    bool string(string_t& s) override { return put(Value(std::move(s))); }
    bool binary(binary_t&) override {
        error = "binary values are not JSON";
        return false;
    }
    bool start_object(std::size_t) override { return open(Value::object()); }
    bool key(string_t& k) override {
        Open& top = stack_.back();
        Value::Object& members = top.value->as_object();
        bool duplicate = false;
        if (members.size() < kLinearKeys) {
            for (const auto& m : members) duplicate = duplicate || m.first == k;
        } else {
            if (top.keys.empty())
                for (const auto& m : members) top.keys.insert(m.first);
            duplicate = !top.keys.insert(k).second;
        }
        if (duplicate) {
            error = "duplicate key '" + k + "'";
            return false;
        }
        members.emplace_back(std::move(k), Value());
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Value::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
        error_byte = position;
        error = reason(ex.what());
        return false;
    }

  private:
    /// Objects up to this many keys look for duplicates by scanning; larger ones through a hash set.
    static constexpr std::size_t kLinearKeys = 16;
    struct Open {
        Value* value;                          // stays valid: only the innermost container grows
        std::unordered_set<std::string> keys;  // an object's keys, once it has kLinearKeys of them
    };
    std::vector<Open> stack_;  // the open containers, outermost first

    Value* slot() {
        if (stack_.empty()) return &root;
        Value& top = *stack_.back().value;
        if (top.is_array()) {
            top.as_array().emplace_back();
            return &top.as_array().back();
        }
        return &top.as_object().back().second;  // key() appended the member
    }
    bool put(Value v) {
        *slot() = std::move(v);
        return true;
    }
    bool open(Value v) {
        if (stack_.size() >= kMaxDepth) {  // parse() checked already; kept so the builder stands alone
            error = "arrays and objects nest deeper than " + std::to_string(kMaxDepth) + " levels";
            return false;
        }
        Value* s = slot();
        *s = std::move(v);
        stack_.push_back(Open{s, {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
};

/// 1-based line and column of the byte at 1-based `position` (nlohmann's "last read character").
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t position) {
    std::size_t end = std::min(position == 0 ? 0 : position - 1, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

/// Where the text first nests deeper than kMaxDepth: the 1-based position of that bracket, or 0.
/// Brackets inside strings do not count; the text need not be valid JSON (the parser judges that).
std::size_t too_deep_at(const std::string& text) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;  // the escaped character, whatever it is
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth) return i + 1;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return 0;
}

}  // namespace

Value parse(const std::string& text, std::string_view source) {
    if (std::size_t at = too_deep_at(text)) {
        auto [line, column] = line_column(text, at);
        BURN_THROW("[config.parse] ", source.empty() ? std::string() : "'" + std::string(source) + "' ",
                   "line ", line, ", column ", column, ": arrays and objects nest deeper than ", kMaxDepth,
                   " levels; a config or state file never needs that many");
    }
    Builder builder;
    bool ok = false;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
        ok = Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true);
    } catch (const nlohmann::json::exception& e) {
        builder.error = reason(e.what());
    }
#else
    ok = Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true);
#endif
    if (!ok) {
        std::string where = source.empty() ? std::string() : "'" + std::string(source) + "' ";
        if (builder.error_byte == 0 && builder.error.rfind("duplicate key", 0) == 0) {
            BURN_THROW("[config.parse] ", where, builder.error);
        }
        auto [line, column] = line_column(text, builder.error_byte);
        BURN_THROW("[config.parse] ", where, "line ", line, ", column ", column, ": ", builder.error);
    }
    return std::move(builder.root);
}

}  // namespace burn::config
