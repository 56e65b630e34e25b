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
#include "config/depth.hpp"

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
// Copies, comparisons and destruction walk the tree with an explicit stack, not recursion: a tree
// built in code may nest 10^5 levels deep (parse() refuses more than kMaxDepth).

namespace {

bool is_container(const Value& v) {
    return v.is_array() || v.is_object();
}

/// An empty container of v's kind, with room for v's elements.
Value empty_like(const Value& v) {
    if (v.is_array()) {
        Value::Array a;
        a.reserve(v.size());
        return Value(std::move(a));
    }
    Value::Object o;
    o.reserve(v.size());
    return Value(std::move(o));
}

}  // namespace

Value::Value(const Value& other) {
    if (!is_container(other)) {
        data_ = other.data_;
        return;
    }
    // (source, copy) pairs still to fill; a copy's elements never move, as it was reserved in full.
    std::vector<std::pair<const Value*, Value*>> todo{{&other, this}};
    *this = empty_like(other);
    while (!todo.empty()) {
        auto [from, to] = todo.back();
        todo.pop_back();
        auto copy = [&](const Value& item) -> Value {
            return is_container(item) ? empty_like(item) : Value(item);  // Value(item): a leaf
        };
        if (from->is_array()) {
            Array& out = std::get<Array>(to->data_);
            for (const Value& item : std::get<Array>(from->data_)) {
                out.push_back(copy(item));
                if (is_container(item)) todo.emplace_back(&item, &out.back());
            }
        } else {
            Object& out = std::get<Object>(to->data_);
            for (const auto& [key, item] : std::get<Object>(from->data_)) {
                out.emplace_back(key, copy(item));
                if (is_container(item)) todo.emplace_back(&item, &out.back().second);
            }
        }
    }
}

Value::Value(Value&& other) noexcept = default;

Value& Value::operator=(const Value& other) {
    if (this != &other) *this = Value(other);
    return *this;
}

Value& Value::operator=(Value&& other) noexcept {
    if (this == &other) return *this;
    Value old(std::move(*this));  // destroyed iteratively below, after the move
    data_ = std::move(other.data_);
    return *this;
}

Value::~Value() {
    if (!is_container(*this) || size() == 0) return;
    // Children that are non-empty containers are moved into a worklist, so that no destructor call
    // ever sees a child with children of its own: the recursion is one level deep at most.
    std::vector<Value> todo;
    auto take_children = [&todo](Value& v) {
        if (v.is_array()) {
            for (Value& item : std::get<Array>(v.data_))
                if (is_container(item) && item.size() > 0) todo.push_back(std::move(item));
        } else if (v.is_object()) {
            for (auto& member : std::get<Object>(v.data_))
                if (is_container(member.second) && member.second.size() > 0)
                    todo.push_back(std::move(member.second));
        }
    };
    take_children(*this);
    while (!todo.empty()) {
        Value v = std::move(todo.back());
        todo.pop_back();
        take_children(v);
    }  // v's children are empty containers or leaves: destroying v recurses no further
}

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
    if (!is_container(a) || !is_container(b)) return a.data_ == b.data_;  // leaves: no worklist
    std::vector<std::pair<const Value*, const Value*>> todo{{&a, &b}};
    while (!todo.empty()) {
        auto [x, y] = todo.back();
        todo.pop_back();
        if (x->kind() != y->kind()) return false;
        if (x->is_array()) {
            const auto& xs = std::get<Value::Array>(x->data_);
            const auto& ys = std::get<Value::Array>(y->data_);
            if (xs.size() != ys.size()) return false;
            for (std::size_t i = 0; i < xs.size(); ++i) todo.emplace_back(&xs[i], &ys[i]);
        } else if (x->is_object()) {
            const auto& xs = std::get<Value::Object>(x->data_);
            const auto& ys = std::get<Value::Object>(y->data_);
            if (xs.size() != ys.size()) return false;
            for (std::size_t i = 0; i < xs.size(); ++i) {
                if (xs[i].first != ys[i].first) return false;
                todo.emplace_back(&xs[i].second, &ys[i].second);
            }
        } else if (!(x->data_ == y->data_)) {
            return false;
        }
    }
    return true;
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

Json to_nlohmann(const Value& v, std::size_t depth) {
    if (is_container(v) && depth >= kMaxDepth)
        BURN_THROW("[config.dump] arrays and objects nest deeper than ", kMaxDepth,
                   " levels; parse() would refuse the text, so it is not written");
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
            for (const Value& item : v.as_array()) out.push_back(to_nlohmann(item, depth + 1));
            return out;
        }
        case Kind::object: {
            Json out = Json::object();
            // ordered_json keeps insertion order; Value objects never hold duplicate keys when they
            // come from parse(), and operator[] reuses a key, so emplace loses nothing in practice.
            for (const auto& [k, item] : v.as_object()) out[k] = to_nlohmann(item, depth + 1);
            return out;
        }
    }
    return Json(nullptr);
}

}  // namespace

std::string dump(const Value& value, int indent) {
    Json j = to_nlohmann(value, 0);
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

}  // namespace burn::config
