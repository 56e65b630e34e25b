#pragma once
/// A small JSON value: what configs are written to and read from.
///
/// Parsing and printing go through nlohmann-json inside the library (src/config/value.cpp); this
/// header does not include it, so user translation units do not pay for compiling it.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace burn::config {

/// The JSON kinds. Integers keep their full 64-bit range: a non-negative integer is always stored as
/// `uint64` and a negative one as `int64` (the same rule the parser follows), so equal numbers compare
/// equal whichever constructor made them. `number` is a double.
enum class Kind : std::uint8_t { null, boolean, int64, uint64, number, string, array, object };

/// "null", "boolean", "integer", "integer", "number", "string", "array", "object".
const char* kind_name(Kind kind);

class Value {
  public:
    using Array = std::vector<Value>;
    /// Keeps insertion order (configs print their fields in declaration order).
    using Object = std::vector<std::pair<std::string, Value>>;

    // Everything that touches the std::variant inside is defined in value.cpp, so that configs do not
    // instantiate variant copies, moves and comparisons in every user translation unit.
    Value() noexcept = default;
    Value(std::nullptr_t) noexcept {}
    Value(bool b);
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Value(T v) {
        if constexpr (std::is_signed_v<T>) {
            set_integer(static_cast<std::int64_t>(v));
        } else {
            set_integer(static_cast<std::uint64_t>(v));
        }
    }
    Value(double d);
    Value(float f);
    Value(std::string s);
    Value(std::string_view s);
    Value(const char* s);
    Value(Array a);
    Value(Object o);
    Value(const Value& other);
    Value(Value&& other) noexcept;
    Value& operator=(const Value& other);
    Value& operator=(Value&& other) noexcept;
    ~Value();

    static Value array();
    static Value object();

    Kind kind() const { return static_cast<Kind>(data_.index()); }
    bool is_null() const { return kind() == Kind::null; }
    bool is_bool() const { return kind() == Kind::boolean; }
    /// int64 or uint64.
    bool is_integer() const { return kind() == Kind::int64 || kind() == Kind::uint64; }
    /// Any number: int64, uint64 or double.
    bool is_number() const { return is_integer() || kind() == Kind::number; }
    bool is_string() const { return kind() == Kind::string; }
    bool is_array() const { return kind() == Kind::array; }
    bool is_object() const { return kind() == Kind::object; }

    // Accessors throw burn::Error naming the expected and the actual kind.
    bool as_bool() const;
    /// Throws if the value is not an integer or does not fit.
    std::int64_t as_int64() const;
    std::uint64_t as_uint64() const;
    /// Any number, converted to double.
    double as_double() const;
    const std::string& as_string() const;
    const Array& as_array() const;
    Array& as_array();
    const Object& as_object() const;
    Object& as_object();

    /// Elements of an array or members of an object; 0 otherwise.
    std::size_t size() const;
    /// Array element (throws when out of range or not an array).
    const Value& element(std::size_t i) const;
    Value& element(std::size_t i);
    // Integer indices are a template so that v[0] never means the null `const char*` key.
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    const Value& operator[](I i) const {
        return element(static_cast<std::size_t>(i));
    }
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    Value& operator[](I i) {
        return element(static_cast<std::size_t>(i));
    }
    /// Appends to an array; a null value becomes an empty array first.
    void push_back(Value v);

    /// Appends a member to an object (a null value becomes an empty object first) without looking for an
    /// existing one: the caller knows the key is new. Returns the new member.
    Value& append(std::string key, Value v);

    /// Object member or nullptr (also nullptr when this is not an object).
    const Value* find(std::string_view key) const;
    Value* find(std::string_view key);
    /// Object member; throws burn::Error naming the key when it is missing.
    const Value& at(std::string_view key) const;
    /// Object member, appended as null when missing; a null value becomes an empty object first.
    Value& operator[](std::string_view key);
    Value& operator[](const char* key) { return (*this)[std::string_view(key)]; }

    friend bool operator==(const Value& a, const Value& b);

  private:
    void set_integer(std::int64_t v);
    void set_integer(std::uint64_t v);

    std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Array, Object> data_;
};

/// JSON text. indent >= 0 pretty-prints with that many spaces; indent < 0 gives one compact line.
/// Doubles print in their shortest form that reads back exactly; NaN and infinities print as null.
std::string dump(const Value& value, int indent = 2);
/// Parses JSON text (RFC 8259, no comments). Errors are burn::Error "[config.parse] line L, column C:
/// ..."; `source` (a file name, say) is added to the message when given. Duplicate keys are errors.
Value parse(const std::string& text, std::string_view source = {});

/// Prints dump(value, -1).
std::ostream& operator<<(std::ostream& os, const Value& value);

}  // namespace burn::config
