// The non-template half of burn/config/config.hpp: error messages, number conversions, files.
#include "burn/config/config.hpp"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "burn/build_config.hpp"
#include "burn/core/error.hpp"
#if BURN_FILESYSTEM
#include "platform/files.hpp"
#endif

namespace burn::config {

KeyPath KeyPath::child(std::string_view key) const {
    KeyPath out = *this;
    if (!out.key_.empty()) out.key_ += '.';
    out.key_ += key;
    return out;
}

KeyPath KeyPath::index(std::size_t i) const {
    KeyPath out = *this;
    out.key_ += '[';
    out.key_ += std::to_string(i);
    out.key_ += ']';
    return out;
}

std::string KeyPath::prefix() const {
    std::string s = "[config] " + std::string(root_);
    if (!source_.empty()) s += " ('" + std::string(source_) + "')";
    if (!key_.empty()) s += ", key '" + key_ + "'";
    return s + ": ";
}

namespace detail {

namespace {

/// "a string \"abc\"", "an integer -1", "null": what was found, for messages.
std::string describe(const Value& v) {
    std::string text = dump(v, -1);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    switch (v.kind()) {
        case Kind::null:
            return "null";
        case Kind::boolean:
            return "a boolean " + text;
        case Kind::int64:
        case Kind::uint64:
            return "an integer " + text;
        case Kind::number:
            return "a number " + text;
        case Kind::string:
            return "a string " + text;
        case Kind::array:
            return "an array " + text;
        case Kind::object:
            return "an object " + text;
    }
    return text;
}

[[noreturn]] void out_of_range(const KeyPath& path, const Value& got, const std::string& expected) {
    BURN_THROW(path.prefix(), dump(got, -1), " is out of range (expected ", expected, ")");
}

bool equals_lower(std::string_view s, std::string_view lower) {
    if (s.size() != lower.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(s[i])) != lower[i]) return false;
    }
    return true;
}

}  // namespace

void wrong_type(const KeyPath& path, std::string_view expected, const Value& got) {
    BURN_THROW(path.prefix(), "expected ", expected, ", got ", describe(got));
}

void unknown_key(const KeyPath& path, std::string_view key, std::string_view owner,
                 const std::vector<std::string_view>& accepted) {
    if (accepted.empty()) BURN_THROW(path.child(key).prefix(), "unknown key; ", owner, " has no fields");
    BURN_THROW(path.child(key).prefix(), "unknown key; ", owner, " accepts ", names_list(accepted));
}

void missing_key(const KeyPath& path, std::string_view key, std::string_view why) {
    BURN_THROW(path.child(key).prefix(), "missing (expected ", why, ")");
}

void unknown_name(const KeyPath& path, const Value& got, std::string_view what,
                  const std::vector<std::string_view>& accepted) {
    BURN_THROW(path.prefix(), "unknown ", what, " ", dump(got, -1), "; accepted: ", names_list(accepted));
}

void wrong_length(const KeyPath& path, std::size_t expected, std::size_t got) {
    BURN_THROW(path.prefix(), "expected an array of ", expected, " elements, got ", got, " elements");
}

void unnamed_enum(std::string_view type, long long value) {
    BURN_THROW("[config] ", type, " value ", value, " has no name; list it in BURN_ENUM(", type, ", ...)");
}

void bad_variant_names(std::string_view why) {
    BURN_THROW("[config] burn_variant_names: ", why);
}

std::string integer_expected(std::int64_t min, std::uint64_t max) {
    return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

std::string names_list(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += ", ";
        out += '"';
        out += names[i];
        out += '"';
    }
    return out;
}

std::int64_t decode_signed(const Value& v, const KeyPath& path, std::int64_t min, std::int64_t max) {
    auto expected = [&] { return integer_expected(min, static_cast<std::uint64_t>(max)); };
    std::int64_t x = 0;
    if (v.kind() == Kind::int64) {
        x = v.as_int64();
    } else if (v.kind() == Kind::uint64) {
        if (v.as_uint64() > static_cast<std::uint64_t>(max)) out_of_range(path, v, expected());
        x = static_cast<std::int64_t>(v.as_uint64());
    } else if (v.kind() == Kind::number && std::isfinite(v.as_double()) &&
               v.as_double() == std::trunc(v.as_double())) {
        // A whole number written as 1e3 or 128.0 is accepted; 0.5 is a type error.
        double d = v.as_double();
        if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) out_of_range(path, v, expected());
        x = static_cast<std::int64_t>(d);
    } else {
        wrong_type(path, expected(), v);
    }
    if (x < min || x > max) out_of_range(path, v, expected());
    return x;
}

std::uint64_t decode_unsigned(const Value& v, const KeyPath& path, std::uint64_t max) {
    auto expected = [&] { return integer_expected(0, max); };
    std::uint64_t x = 0;
    if (v.kind() == Kind::uint64) {
        x = v.as_uint64();
    } else if (v.kind() == Kind::int64) {
        out_of_range(path, v, expected());  // negative
    } else if (v.kind() == Kind::number && std::isfinite(v.as_double()) &&
               v.as_double() == std::trunc(v.as_double())) {
        double d = v.as_double();
        if (d < 0.0 || d >= 18446744073709551616.0) out_of_range(path, v, expected());
        x = static_cast<std::uint64_t>(d);
    } else {
        wrong_type(path, expected(), v);
    }
    if (x > max) out_of_range(path, v, expected());
    return x;
}

double decode_double(const Value& v, const KeyPath& path, bool single) {
    if (v.is_number()) {
        double d = v.as_double();
        // Out of range for float: what rounds to infinity, i.e. from FLT_MAX + half an ulp (2^103).
        if (single && std::isfinite(d) &&
            std::fabs(d) >= static_cast<double>(FLT_MAX) + std::ldexp(1.0, 103)) {
            out_of_range(path, v, "a number within the range of float");
        }
        return d;
    }
    if (v.is_string()) {
        const std::string& s = v.as_string();
        if (equals_lower(s, "nan")) return std::nan("");
        if (equals_lower(s, "inf") || equals_lower(s, "+inf") || equals_lower(s, "infinity")) return HUGE_VAL;
        if (equals_lower(s, "-inf") || equals_lower(s, "-infinity")) return -HUGE_VAL;
    }
    wrong_type(path, "a number (or \"nan\", \"inf\", \"-inf\")", v);
}

Value encode_double(double d) {
    if (std::isnan(d)) return Value("nan");
    if (std::isinf(d)) return Value(d > 0 ? "inf" : "-inf");
    return Value(d);
}

Value encode_float(float f) {
    if (!std::isfinite(f)) return encode_double(static_cast<double>(f));
    // The shortest %g form whose double reads back as f through the same path decode takes.
    char buffer[32];
    for (int precision = 1; precision <= 9; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, static_cast<double>(f));
        double d = std::strtod(buffer, nullptr);
        if (static_cast<float>(d) == f) return Value(d);
    }
    return Value(static_cast<double>(f));
}

std::vector<std::string> checked_variant_names(std::vector<std::string> names, bool custom,
                                               std::size_t count) {
    if (names.size() != count) {
        bad_variant_names(burn::detail::msg("gives ", names.size(), " names for ", count, " alternatives"));
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        bool bad = names[i].empty();
        for (std::size_t j = 0; j < i && !bad; ++j) bad = names[j] == names[i];
        if (!bad) continue;
        if (custom) bad_variant_names("name '" + names[i] + "' is empty or given twice");
        return {};  // natural names that do not identify the alternative: write indices
    }
    return names;
}

std::vector<std::string> index_names(std::size_t count) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(std::to_string(i));
    return out;
}

#if BURN_FILESYSTEM
Value read_json_file(const Path& path, std::string_view type) {
    std::string text = platform::read_file(path, std::string(type) + "::load");
    return parse(text, path.string());
}

void write_json_file(const Path& path, const Value& value, std::string_view type) {
    platform::write_file_atomic(path, dump(value, 2) + "\n", std::string(type) + "::save");
}
#else
Value read_json_file(const Path& path, std::string_view type) {
    BURN_THROW_KIND(io, "[config] ", type, "::load('", path,
                    "'): this build has no file system (BURN_FILESYSTEM=OFF); "
                    "read the text yourself and call ",
                    type, "::from_json_string");
}

void write_json_file(const Path& path, const Value&, std::string_view type) {
    BURN_THROW_KIND(io, "[config] ", type, "::save('", path,
                    "'): this build has no file system (BURN_FILESYSTEM=OFF); "
                    "call to_json_string() and store the text yourself");
}
#endif

std::ostream& print_enum(std::ostream& os, std::string_view name, std::string_view type, long long value) {
    if (name.empty()) return os << type << "(" << value << ")";
    return os << name;
}

}  // namespace detail
}  // namespace burn::config
