// burn::config::Value, and JSON text in and out through nlohmann-json.
//
// nlohmann-json is used only here, never in a public header: <nlohmann/json.hpp> is ~25k lines of
// templates and costs every translation unit that includes it about a second of compile time. Users
// include burn/burn.hpp in every file of their program, so the parser stays behind this .cpp.
#include "burn/config/value.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "burn/core/error.hpp"

namespace burn::config {

const char* kind_name(Kind kind) {
    switch (kind) {
        case Kind::null:
            return "null";
        case Kind::boolean:
            return "boolean";
        case Kind::int64:
        case Kind::uint64:
            return "integer";
        case Kind::number:
            return "number";
        case Kind::string:
            return "string";
        case Kind::array:
            return "array";
        case Kind::object:
            return "object";
    }
    return "?";
}

namespace {

[[noreturn]] void wrong_kind(const char* want, Kind got) {
    BURN_THROW("[config.value] expected ", want, ", got ", kind_name(got));
}

}  // namespace

Value::Value(bool b) : data_(b) {}
Value::Value(double d) : data_(d) {}
Value::Value(float f) : data_(static_cast<double>(f)) {}
Value::Value(std::string s) : data_(std::move(s)) {}
Value::Value(std::string_view s) : data_(std::string(s)) {}
Value::Value(const char* s) : data_(std::string(s)) {}
Value::Value(Array a) : data_(std::move(a)) {}
Value::Value(Object o) : data_(std::move(o)) {}
Value::Value(const Value& other) = default;
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(const Value& other) = default;
Value& Value::operator=(Value&& other) noexcept = default;
Value::~Value() = default;

Value Value::array() {
    return Value(Array{});
}
Value Value::object() {
    return Value(Object{});
}

void Value::set_integer(std::int64_t v) {
    if (v < 0) {
        data_ = v;
    } else {
        data_ = static_cast<std::uint64_t>(v);
    }
}
void Value::set_integer(std::uint64_t v) {
    data_ = v;
}

bool operator==(const Value& a, const Value& b) {
    return a.data_ == b.data_;
}

bool Value::as_bool() const {
    if (!is_bool()) wrong_kind("a boolean", kind());
    return std::get<bool>(data_);
}

std::int64_t Value::as_int64() const {
    if (kind() == Kind::int64) return std::get<std::int64_t>(data_);
    if (kind() == Kind::uint64) {
        auto u = std::get<std::uint64_t>(data_);
        BURN_CHECK(u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()),
                   "[config.value] ", u, " does not fit in int64");
        return static_cast<std::int64_t>(u);
    }
    wrong_kind("an integer", kind());
}

std::uint64_t Value::as_uint64() const {
    if (kind() == Kind::uint64) return std::get<std::uint64_t>(data_);
    if (kind() == Kind::int64) {
        BURN_THROW("[config.value] ", std::get<std::int64_t>(data_), " does not fit in uint64");
    }
    wrong_kind("an integer", kind());
}

double Value::as_double() const {
    switch (kind()) {
        case Kind::int64:
            return static_cast<double>(std::get<std::int64_t>(data_));
        case Kind::uint64:
            return static_cast<double>(std::get<std::uint64_t>(data_));
        case Kind::number:
            return std::get<double>(data_);
        default:
            wrong_kind("a number", kind());
    }
}

const std::string& Value::as_string() const {
    if (!is_string()) wrong_kind("a string", kind());
    return std::get<std::string>(data_);
}

const Value::Array& Value::as_array() const {
    if (!is_array()) wrong_kind("an array", kind());
    return std::get<Array>(data_);
}

Value::Array& Value::as_array() {
    if (!is_array()) wrong_kind("an array", kind());
    return std::get<Array>(data_);
}

const Value::Object& Value::as_object() const {
    if (!is_object()) wrong_kind("an object", kind());
    return std::get<Object>(data_);
}

Value::Object& Value::as_object() {
    if (!is_object()) wrong_kind("an object", kind());
    return std::get<Object>(data_);
}

std::size_t Value::size() const {
    if (is_array()) return std::get<Array>(data_).size();
    if (is_object()) return std::get<Object>(data_).size();
    return 0;
}

const Value& Value::element(std::size_t i) const {
    const Array& a = as_array();
    BURN_CHECK_KIND(i < a.size(), index, "[config.value] index ", i, " out of range for an array of ",
                    a.size());
    return a[i];
}

Value& Value::element(std::size_t i) {
    return const_cast<Value&>(static_cast<const Value*>(this)->element(i));
}

void Value::push_back(Value v) {
    if (is_null()) data_ = Array{};
    as_array().push_back(std::move(v));
}

Value& Value::append(std::string key, Value v) {
    if (is_null()) data_ = Object{};
    Object& o = as_object();
    o.emplace_back(std::move(key), std::move(v));
    return o.back().second;
}

const Value* Value::find(std::string_view key) const {
    if (!is_object()) return nullptr;
    for (const auto& [k, v] : std::get<Object>(data_)) {
        if (k == key) return &v;
    }
    return nullptr;
}

Value* Value::find(std::string_view key) {
    return const_cast<Value*>(static_cast<const Value*>(this)->find(key));
}

const Value& Value::at(std::string_view key) const {
    const Value* v = (static_cast<void>(as_object()), find(key));
    if (v == nullptr) BURN_THROW("[config.value] no key '", key, "' in the object");
    return *v;
}

Value& Value::operator[](std::string_view key) {
    if (is_null()) data_ = Object{};
    Object& o = as_object();
    for (auto& [k, v] : o) {
        if (k == key) return v;
    }
    o.emplace_back(std::string(key), Value());
    return o.back().second;
}

// ---------------------------------------------------------------- printing

namespace {

using Json = nlohmann::ordered_json;

Json to_nlohmann(const Value& v) {
    switch (v.kind()) {
        case Kind::null:
            return Json(nullptr);
        case Kind::boolean:
            return Json(v.as_bool());
        case Kind::int64:
            return Json(v.as_int64());
        case Kind::uint64:
            return Json(v.as_uint64());
        case Kind::number:
            return Json(v.as_double());  // nlohmann prints NaN/inf as null
        case Kind::string:
            return Json(v.as_string());
        case Kind::array: {
            Json out = Json::array();
            for (const Value& item : v.as_array()) out.push_back(to_nlohmann(item));
            return out;
        }
        case Kind::object: {
            Json out = Json::object();
            // ordered_json keeps insertion order; Value objects never hold duplicate keys when they
            // come from parse(), and operator[] reuses a key, so emplace loses nothing in practice.
            for (const auto& [k, item] : v.as_object()) out[k] = to_nlohmann(item);
            return out;
        }
    }
    return Json(nullptr);
}

}  // namespace

std::string dump(const Value& value, int indent) {
    Json j = to_nlohmann(value);
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
        return j.dump(indent < 0 ? -1 : indent);
    } catch (const nlohmann::json::type_error& e) {
        BURN_THROW("[config.dump] a string is not valid UTF-8 (", e.what(), ")");
    }
#else
    return j.dump(indent < 0 ? -1 : indent, ' ', false, Json::error_handler_t::replace);
#endif
}

std::ostream& operator<<(std::ostream& os, const Value& value) {
    return os << dump(value, -1);
}

// ---------------------------------------------------------------- parsing

namespace {

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
        Value& obj = *stack_.back();
        if (obj.find(k) != nullptr) {
            error = "duplicate key '" + k + "'";
            return false;
        }
        obj.as_object().emplace_back(std::move(k), Value());
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
    std::vector<Value*> stack_;  // open containers; pointers stay valid because only the back grows

    Value* slot() {
        if (stack_.empty()) return &root;
        Value& top = *stack_.back();
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
        Value* s = slot();
        *s = std::move(v);
        stack_.push_back(s);
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

}  // namespace

Value parse(const std::string& text, std::string_view source) {
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
