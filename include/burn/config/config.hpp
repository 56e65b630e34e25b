#pragma once
/// Configs: plain aggregates with default member initialisers, made serialisable by one macro.
///
///     struct TrainingConfig {
///         size_t hidden_size = 0;  // required: give it first
///         double learning_rate = 0.001;
///         BURN_CONFIG(TrainingConfig, hidden_size, learning_rate)
///     };
///     auto config = TrainingConfig{128}.with_learning_rate(0.01);
///     config.save("training.json");
///     auto loaded = TrainingConfig::load("training.json");
///
/// BURN_CONFIG adds member functions only (no data, constructors or bases), so the struct stays an
/// aggregate: `TrainingConfig{128}` and designated initialisers keep working. See docs/config.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "burn/build_config.hpp"
#include "burn/config/pp.hpp"
#include "burn/config/value.hpp"

#if BURN_FILESYSTEM
#include <filesystem>
#endif

namespace burn::config {

/// Where save() and load() write and read. A build without files (BURN_FILESYSTEM=OFF) keeps the names
/// (they then raise a clear error); to_json_string/from_json_string work everywhere.
#if BURN_FILESYSTEM
using Path = std::filesystem::path;
#else
using Path = std::string;
#endif

/// Where a value sits in the document being read, for error messages ("optimizer.betas[1]").
class KeyPath {
  public:
    /// root: the type being read ("TrainingConfig"); source: the file it came from, or "".
    explicit KeyPath(std::string_view root, std::string_view source = {}) : root_(root), source_(source) {}
    KeyPath child(std::string_view key) const;
    KeyPath index(std::size_t i) const;
    /// The dotted path, "" at the document root.
    const std::string& key() const { return key_; }
    /// "[config] TrainingConfig ('file.json'), key 'optimizer.beta_1': ", the start of every message.
    std::string prefix() const;

  private:
    std::string_view root_, source_;
    std::string key_;
};

/// How a field type maps to JSON. Specialise it (fully, or partially with a requires-clause) to
/// support a type of your own:
///     static Value encode(const T&);
///     static void decode(const Value&, T& out, const KeyPath&);  // reads into `out` in place
///     static std::string expected();                            // "an integer", for error messages
template <class T>
struct Codec {
    static_assert(sizeof(T*) == 0,
                  "BURN_CONFIG: this field type is not supported. Supported: bool, integers, float, double, "
                  "std::string, enums declared with BURN_ENUM, configs (BURN_CONFIG), std::vector, "
                  "std::array, std::optional, std::pair, std::variant; or specialise burn::config::Codec.");
};

/// One name of an enum declared with BURN_ENUM.
template <class E>
struct EnumEntry {
    E value;
    std::string_view name;
};
/// All names of an enum declared with BURN_ENUM; burn_enum_entries(E{}) returns it (found by ADL).
template <class E>
struct EnumTable {
    std::string_view type_name;
    const EnumEntry<E>* entries;
    std::size_t size;
    const EnumEntry<E>* begin() const { return entries; }
    const EnumEntry<E>* end() const { return entries + size; }
};

namespace detail {
struct FieldProbe {
    template <class F>
    void operator()(const char*, F&) const;
};
}  // namespace detail

/// A type with BURN_CONFIG (anything with burn_visit_config).
template <class T>
concept ConfigType = std::is_class_v<T> && requires(T& t, const T& c) {
    t.burn_visit_config(detail::FieldProbe{});
    c.burn_visit_config(detail::FieldProbe{});
};
/// An enum declared with BURN_ENUM.
template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) {
    burn_enum_entries(e);
};

/// The name of an enum value; "" when the value is not one BURN_ENUM listed.
template <NamedEnum E>
std::string_view enum_name(E e) {
    for (const auto& entry : burn_enum_entries(E{})) {
        if (entry.value == e) return entry.name;
    }
    return {};
}
/// The enum value with that name, if any.
template <NamedEnum E>
std::optional<E> enum_from_name(std::string_view name) {
    for (const auto& entry : burn_enum_entries(E{})) {
        if (entry.name == name) return entry.value;
    }
    return std::nullopt;
}

namespace detail {
// Non-template halves, in src/config/config.cpp, so each instantiation stays small.
[[noreturn]] void wrong_type(const KeyPath& path, std::string_view expected, const Value& got);
[[noreturn]] void unknown_key(const KeyPath& path, std::string_view key, std::string_view owner,
                              const std::vector<std::string_view>& accepted);
[[noreturn]] void missing_key(const KeyPath& path, std::string_view key, std::string_view why);
[[noreturn]] void unknown_name(const KeyPath& path, const Value& got, std::string_view what,
                               const std::vector<std::string_view>& accepted);
[[noreturn]] void wrong_length(const KeyPath& path, std::size_t expected, std::size_t got);
[[noreturn]] void unnamed_enum(std::string_view type, long long value);
[[noreturn]] void bad_variant_names(std::string_view why);
std::int64_t decode_signed(const Value& v, const KeyPath& path, std::int64_t min, std::int64_t max);
std::uint64_t decode_unsigned(const Value& v, const KeyPath& path, std::uint64_t max);
/// Any number, or "nan", "inf", "-inf" (how non-finite values are written); `single`: range of float.
double decode_double(const Value& v, const KeyPath& path, bool single);
/// Numbers, with non-finite values as the strings "nan", "inf", "-inf" (JSON has no such numbers).
Value encode_double(double d);
/// The shortest decimal that reads back as the same float (0.1f prints as 0.1, not 0.100000001).
Value encode_float(float f);
std::string integer_expected(std::int64_t min, std::uint64_t max);
std::string names_list(const std::vector<std::string_view>& names);
Value read_json_file(const Path& path, std::string_view type);
inline std::string path_string(const Path& path) {
#if BURN_FILESYSTEM
    return path.string();
#else
    return path;
#endif
}
void write_json_file(const Path& path, const Value& value, std::string_view type);
std::ostream& print_enum(std::ostream& os, std::string_view name, std::string_view type, long long value);

template <class T>
std::string_view type_name() {
    if constexpr (requires { T::burn_config_name(); }) {
        return T::burn_config_name();
    } else if constexpr (NamedEnum<T>) {
        return burn_enum_entries(T{}).type_name;
    } else {
        return "value";
    }
}

template <class E>
std::ostream& print_enum(std::ostream& os, E e) {
    return print_enum(os, enum_name(e), burn_enum_entries(E{}).type_name, static_cast<long long>(e));
}

template <class T>
void decode_into(const Value& v, T& out, const KeyPath& path) {
    Codec<T>::decode(v, out, path);
}
}  // namespace detail

// ---------------------------------------------------------------- scalars

template <>
struct Codec<bool> {
    static Value encode(bool b) { return Value(b); }
    static void decode(const Value& v, bool& out, const KeyPath& path) {
        if (!v.is_bool()) detail::wrong_type(path, expected(), v);
        out = v.as_bool();
    }
    static std::string expected() { return "a boolean"; }
};

template <class T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) struct Codec<T> {
    static Value encode(T v) { return Value(v); }
    static void decode(const Value& v, T& out, const KeyPath& path) {
        if constexpr (std::is_signed_v<T>) {
            out = static_cast<T>(
                detail::decode_signed(v, path, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        } else {
            out = static_cast<T>(detail::decode_unsigned(v, path, std::numeric_limits<T>::max()));
        }
    }
    static std::string expected() {
        return detail::integer_expected(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    }
};

template <class T>
requires std::is_floating_point_v<T>
struct Codec<T> {
    static Value encode(T v) {
        if constexpr (std::is_same_v<T, float>) {
            return detail::encode_float(v);
        } else {
            return detail::encode_double(static_cast<double>(v));
        }
    }
    static void decode(const Value& v, T& out, const KeyPath& path) {
        out = static_cast<T>(detail::decode_double(v, path, std::is_same_v<T, float>));
    }
    static std::string expected() { return "a number"; }
};

template <>
struct Codec<std::string> {
    static Value encode(const std::string& s) { return Value(s); }
    static void decode(const Value& v, std::string& out, const KeyPath& path) {
        if (!v.is_string()) detail::wrong_type(path, expected(), v);
        out = v.as_string();
    }
    static std::string expected() { return "a string"; }
};

template <>
struct Codec<std::monostate> {
    static Value encode(std::monostate) { return Value(); }
    static void decode(const Value& v, std::monostate&, const KeyPath& path) {
        if (!v.is_null()) detail::wrong_type(path, expected(), v);
    }
    static std::string expected() { return "null"; }
};

template <NamedEnum E>
struct Codec<E> {
    static std::vector<std::string_view> names() {
        std::vector<std::string_view> out;
        for (const auto& entry : burn_enum_entries(E{})) out.push_back(entry.name);
        return out;
    }
    static Value encode(E e) {
        std::string_view name = enum_name(e);
        if (name.empty()) detail::unnamed_enum(burn_enum_entries(E{}).type_name, static_cast<long long>(e));
        return Value(name);
    }
    static void decode(const Value& v, E& out, const KeyPath& path) {
        if (v.is_string()) {
            if (auto e = enum_from_name<E>(v.as_string())) {
                out = *e;
                return;
            }
        } else {
            detail::wrong_type(path, expected(), v);
        }
        detail::unknown_name(path, v, burn_enum_entries(E{}).type_name, names());
    }
    static std::string expected() {
        return "a " + std::string(burn_enum_entries(E{}).type_name) + " name (" +
               detail::names_list(names()) + ")";
    }
};

// ---------------------------------------------------------------- configs

template <ConfigType T>
struct Codec<T> {
    static std::vector<std::string_view> fields(const T& c) {
        std::vector<std::string_view> out;
        c.burn_visit_config([&](const char* name, const auto&) { out.push_back(name); });
        return out;
    }
    static Value encode(const T& c) {
        Value object = Value::object();
        c.burn_visit_config([&](const char* name, const auto& field) {
            object.append(name, Codec<std::remove_cvref_t<decltype(field)>>::encode(field));
        });
        return object;
    }
    /// Reads the keys present into `out`; missing keys keep the values `out` already has.
    static void decode(const Value& v, T& out, const KeyPath& path) {
        if (!v.is_object()) detail::wrong_type(path, expected(), v);
        for (const auto& [key, item] : v.as_object()) {
            bool found = false;
            out.burn_visit_config([&, &key = key, &item = item](const char* name, auto& field) {
                if (found || key != name) return;
                found = true;
                detail::decode_into(item, field, path.child(key));
            });
            if (!found) detail::unknown_key(path, key, detail::type_name<T>(), fields(out));
        }
    }
    static std::string expected() {
        // appended in place: g++ 12 -O3 reads `"..." + std::string(...) + ")"` inlined in a precompiled
        // header's context as a memcpy past a short string's buffer (a false -Warray-bounds)
        std::string s = "an object (";
        s += detail::type_name<T>();
        s += ')';
        return s;
    }
};

// ---------------------------------------------------------------- containers

template <class T, class A>
struct Codec<std::vector<T, A>> {
    static Value encode(const std::vector<T, A>& items) {
        Value array = Value::array();
        for (const auto& item : items) array.push_back(Codec<T>::encode(item));
        return array;
    }
    static void decode(const Value& v, std::vector<T, A>& out, const KeyPath& path) {
        if (!v.is_array()) detail::wrong_type(path, expected(), v);
        std::vector<T, A> items;
        items.reserve(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            T item{};  // each element starts from its default (vector<bool> has no T& to decode into)
            Codec<T>::decode(v[i], item, path.index(i));
            items.push_back(std::move(item));
        }
        out = std::move(items);
    }
    static std::string expected() { return "an array of " + Codec<T>::expected(); }
};

template <class T, std::size_t N>
struct Codec<std::array<T, N>> {
    static Value encode(const std::array<T, N>& items) {
        Value array = Value::array();
        for (const auto& item : items) array.push_back(Codec<T>::encode(item));
        return array;
    }
    static void decode(const Value& v, std::array<T, N>& out, const KeyPath& path) {
        if (!v.is_array()) detail::wrong_type(path, expected(), v);
        if (v.size() != N) detail::wrong_length(path, N, v.size());
        for (std::size_t i = 0; i < N; ++i) Codec<T>::decode(v[i], out[i], path.index(i));
    }
    static std::string expected() {
        return "an array of " + std::to_string(N) + " elements (" + Codec<T>::expected() + ")";
    }
};

template <class T>
struct Codec<std::optional<T>> {
    static Value encode(const std::optional<T>& o) { return o ? Codec<T>::encode(*o) : Value(); }
    static void decode(const Value& v, std::optional<T>& out, const KeyPath& path) {
        if (v.is_null()) {
            out.reset();
            return;
        }
        if (!out) out.emplace();
        Codec<T>::decode(v, *out, path);
    }
    static std::string expected() { return "null or " + Codec<T>::expected(); }
};

template <class A, class B>
struct Codec<std::pair<A, B>> {
    static Value encode(const std::pair<A, B>& p) {
        Value array = Value::array();
        array.push_back(Codec<A>::encode(p.first));
        array.push_back(Codec<B>::encode(p.second));
        return array;
    }
    static void decode(const Value& v, std::pair<A, B>& out, const KeyPath& path) {
        if (!v.is_array()) detail::wrong_type(path, expected(), v);
        if (v.size() != 2) detail::wrong_length(path, 2, v.size());
        Codec<A>::decode(v[0], out.first, path.index(0));
        Codec<B>::decode(v[1], out.second, path.index(1));
    }
    static std::string expected() {
        return "an array [" + Codec<A>::expected() + ", " + Codec<B>::expected() + "]";
    }
};

}  // namespace burn::config

#include "burn/config/variant.hpp"

namespace burn::config {

// ---------------------------------------------------------------- entry points

/// The JSON value of anything a config field may hold.
template <class T>
Value to_json(const T& value) {
    return Codec<T>::encode(value);
}
/// Reads a T, starting from T{} (so missing config keys keep their default member initialisers).
template <class T>
T from_json(const Value& value) {
    T out{};
    Codec<T>::decode(value, out, KeyPath(detail::type_name<T>()));
    return out;
}
template <class T>
T from_json_string(const std::string& text) {
    return from_json<T>(parse(text));
}
/// Writes dump(to_json(value)) atomically (a temporary beside `path`, then a rename).
template <class T>
void save(const T& value, const Path& path) {
    detail::write_json_file(path, to_json(value), detail::type_name<T>());
}
/// Reads a file written by save(). IoError naming the path when it is missing or unreadable; parse
/// and type errors name the file, the line/column or the key.
template <class T>
T load(const Path& path) {
    Value value = detail::read_json_file(path, detail::type_name<T>());
    std::string source = detail::path_string(path);
    T out{};
    Codec<T>::decode(value, out, KeyPath(detail::type_name<T>(), source));
    return out;
}

}  // namespace burn::config

// ---------------------------------------------------------------- macros

namespace burn::config::detail {
/// T, spelled so that it depends on U: delays instantiation in the macros' templates until use.
template <class T, class U>
struct Dependent {
    using type = T;
};
}  // namespace burn::config::detail

/// Inside an aggregate, after its fields: BURN_CONFIG(Type, field1, field2, ...) (up to 63 fields, or
/// none). Adds with_<field>(value) const, burn_visit_config(fn), to_json(), from_json(value),
/// to_json_string(indent), from_json_string(text), save(path), load(path), operator<< (the JSON) and
/// operator== (defaulted; deleted if a field cannot be compared).
#define BURN_CONFIG(...) BURN_CONFIG_X_(BURN_PP_FIRST(__VA_ARGS__), __VA_ARGS__)
#define BURN_CONFIG_X_(Type, ...) BURN_CONFIG_I_(Type, __VA_ARGS__)
#define BURN_CONFIG_I_(Type, ...)                                                                       \
    BURN_PP_FOR_EACH(BURN_CONFIG_WITH_, __VA_ARGS__)                                                    \
    static constexpr const char* burn_config_name() {                                                   \
        return #Type;                                                                                   \
    }                                                                                                   \
    template <class BurnFn>                                                                             \
    void burn_visit_config([[maybe_unused]] BurnFn&& burn_fn) {                                         \
        BURN_PP_FOR_EACH(BURN_CONFIG_VISIT_, __VA_ARGS__)                                               \
    }                                                                                                   \
    template <class BurnFn>                                                                             \
    void burn_visit_config([[maybe_unused]] BurnFn&& burn_fn) const {                                   \
        BURN_PP_FOR_EACH(BURN_CONFIG_VISIT_, __VA_ARGS__)                                               \
    }                                                                                                   \
    /* Members below are templates (BurnSelf = Type) so that they are instantiated only when used:  */  \
    /* the prelude declares dozens of configs, and eager instantiation would cost every user file.   */ \
    template <class BurnSelf = Type>                                                                    \
    ::burn::config::Value to_json() const {                                                             \
        return ::burn::config::to_json(static_cast<const BurnSelf&>(*this));                            \
    }                                                                                                   \
    template <class BurnSelf = Type>                                                                    \
    static BurnSelf from_json(const ::burn::config::Value& burn_json) {                                 \
        return ::burn::config::from_json<BurnSelf>(burn_json);                                          \
    }                                                                                                   \
    template <class BurnSelf = Type>                                                                    \
    ::std::string to_json_string(int burn_indent = 2) const {                                           \
        return ::burn::config::dump(::burn::config::to_json(static_cast<const BurnSelf&>(*this)),       \
                                    burn_indent);                                                       \
    }                                                                                                   \
    template <class BurnSelf = Type>                                                                    \
    static BurnSelf from_json_string(const ::std::string& burn_text) {                                  \
        return ::burn::config::from_json_string<BurnSelf>(burn_text);                                   \
    }                                                                                                   \
    template <class BurnSelf = Type>                                                                    \
    void save(const ::burn::config::Path& burn_path) const {                                            \
        ::burn::config::save(static_cast<const BurnSelf&>(*this), burn_path);                           \
    }                                                                                                   \
    template <class BurnSelf = Type>                                                                    \
    static BurnSelf load(const ::burn::config::Path& burn_path) {                                       \
        return ::burn::config::load<BurnSelf>(burn_path);                                               \
    }                                                                                                   \
    template <class BurnChar, class BurnTraits>                                                         \
    friend ::std::basic_ostream<BurnChar, BurnTraits>& operator<<(                                      \
        ::std::basic_ostream<BurnChar, BurnTraits>& burn_os, const Type& burn_config) {                 \
        const typename ::burn::config::detail::Dependent<Type, BurnChar>::type& burn_c = burn_config;   \
        return burn_os << burn_c.to_json_string();                                                      \
    }                                                                                                   \
    friend bool operator==(const Type&, const Type&) = default;

// (Parameter and local names carry a burn_ prefix so that no field name can shadow them.)
#define BURN_CONFIG_WITH_(Type, field)                    \
    Type with_##field(decltype(field) burn_value) const { \
        Type burn_copy(*this);                            \
        burn_copy.field = ::std::move(burn_value);        \
        return burn_copy;                                 \
    }
#define BURN_CONFIG_VISIT_(Type, field) burn_fn(#field, field);

/// At namespace scope, in the enum's namespace: BURN_ENUM(Enum, value1, value2, ...) (up to 63 values).
/// Enum values then serialise by name, print by name, and work with enum_name / enum_from_name.
/// For an enum declared inside a class, use BURN_NESTED_ENUM inside that class.
#define BURN_ENUM(...) BURN_ENUM_X_(inline, BURN_PP_FIRST(__VA_ARGS__), __VA_ARGS__)
#define BURN_NESTED_ENUM(...) BURN_ENUM_X_(friend, BURN_PP_FIRST(__VA_ARGS__), __VA_ARGS__)
#define BURN_ENUM_X_(spec, E, ...) BURN_ENUM_I_(spec, E, __VA_ARGS__)
#define BURN_ENUM_I_(spec, E, ...)                                           \
    spec ::burn::config::EnumTable<E> burn_enum_entries(E) {                 \
        static constexpr ::burn::config::EnumEntry<E> entries[] = {          \
            BURN_PP_FOR_EACH(BURN_ENUM_ENTRY_, __VA_ARGS__)};                \
        return {#E, entries, sizeof(entries) / sizeof(entries[0])};          \
    }                                                                        \
    spec ::std::ostream& operator<<(::std::ostream& burn_os, E burn_value) { \
        return ::burn::config::detail::print_enum(burn_os, burn_value);      \
    }
#define BURN_ENUM_ENTRY_(E, value) ::burn::config::EnumEntry<E>{E::value, #value},
