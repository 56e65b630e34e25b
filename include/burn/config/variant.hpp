#pragma once
/// std::variant fields of configs (included by config.hpp; not a header of its own).
///
/// A variant is written as {"type": <name>, "value": <the alternative>}; "value" is left out when the
/// alternative is a config without fields (a unit setting such as `Same`), and when it is missing on
/// load the alternative keeps its current or default value. The name of an alternative is, in order:
///   1. the name given by `burn_variant_names(V*)` found by ADL (write it with BURN_VARIANT_NAMES);
///   2. otherwise its natural name: the config's struct name, the enum's name, bool, i32, u64, f32,
///      f64, string, none (std::monostate);
///   3. otherwise, when any alternative has no natural name or two share one, the index (0, 1, ...).
/// On load "type" may be the name or the index.
///
///     struct Valid { BURN_CONFIG(Valid) };
///     struct Same { BURN_CONFIG(Same) };
///     struct Explicit { size_t height = 0, width = 0; BURN_CONFIG(Explicit, height, width) };
///     using PaddingConfig2d = std::variant<Valid, Same, Explicit>;
///     // {"type": "Same"}  or  {"type": "Explicit", "value": {"height": 1, "width": 2}}
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace burn::config {

namespace detail {

template <class V, class... Names>
constexpr std::array<std::string_view, std::variant_size_v<V>> variant_names(Names... names) {
    static_assert(sizeof...(Names) == std::variant_size_v<V>,
                  "BURN_VARIANT_NAMES: give exactly one name per alternative, in order");
    return {std::string_view(names)...};
}

template <class V>
concept HasVariantNames = requires {
    burn_variant_names(static_cast<V*>(nullptr));
};

/// The natural name of an alternative type, or "" when it has none.
template <class T>
std::string alternative_name() {
    if constexpr (requires { T::burn_config_name(); }) {
        return T::burn_config_name();
    } else if constexpr (NamedEnum<T>) {
        return std::string(burn_enum_entries(T{}).type_name);
    } else if constexpr (std::is_same_v<T, bool>) {
        return "bool";
    } else if constexpr (std::is_integral_v<T>) {
        return (std::is_signed_v<T> ? "i" : "u") + std::to_string(8 * sizeof(T));
    } else if constexpr (std::is_floating_point_v<T>) {
        return "f" + std::to_string(8 * sizeof(T));
    } else if constexpr (std::is_same_v<T, std::string>) {
        return "string";
    } else if constexpr (std::is_same_v<T, std::monostate>) {
        return "none";
    } else {
        return {};
    }
}

/// Validates names (custom ones must be non-empty and distinct: an error otherwise); for natural
/// names, returns {} (use indices) when one is missing or two collide.
std::vector<std::string> checked_variant_names(std::vector<std::string> names, bool custom,
                                               std::size_t count);
/// "0", "1", ...: what an index-named variant accepts.
std::vector<std::string> index_names(std::size_t count);

}  // namespace detail

template <class... Ts>
struct Codec<std::variant<Ts...>> {
    using V = std::variant<Ts...>;
    static constexpr std::size_t N = sizeof...(Ts);

    /// The alternatives' names, or empty when they are written as indices.
    static const std::vector<std::string>& names() {
        static const std::vector<std::string> names = [] {
            if constexpr (detail::HasVariantNames<V>) {
                const auto custom = burn_variant_names(static_cast<V*>(nullptr));
                return detail::checked_variant_names(std::vector<std::string>(custom.begin(), custom.end()),
                                                     true, N);
            } else {
                return detail::checked_variant_names({detail::alternative_name<Ts>()...}, false, N);
            }
        }();
        return names;
    }

    static Value encode(const V& v) {
        const auto& n = names();
        Value object = Value::object();
        object.append("type", n.empty() ? Value(v.index()) : Value(n[v.index()]));
        Value inner = std::visit(
            [](const auto& alt) { return Codec<std::remove_cvref_t<decltype(alt)>>::encode(alt); }, v);
        if (!(inner.is_object() && inner.size() == 0)) object.append("value", std::move(inner));
        return object;
    }

    static void decode(const Value& v, V& out, const KeyPath& path) {
        if (!v.is_object()) detail::wrong_type(path, expected(), v);
        const Value* type = nullptr;
        const Value* value = nullptr;
        for (const auto& [key, item] : v.as_object()) {
            if (key == "type") {
                type = &item;
            } else if (key == "value") {
                value = &item;
            } else {
                detail::unknown_key(path, key, "a variant", {"type", "value"});
            }
        }
        if (type == nullptr) detail::missing_key(path, "type", expected());
        std::size_t index = resolve(*type, path.child("type"));
        if (out.index() != index) emplace(out, index, std::make_index_sequence<N>{});
        if (value != nullptr) {
            std::visit(
                [&](auto& alt) {
                    Codec<std::remove_cvref_t<decltype(alt)>>::decode(*value, alt, path.child("value"));
                },
                out);
        }
    }

    static std::string expected() {
        return "an object {\"type\": " + detail::names_list(accepted_views(accepted())) + ", \"value\": ...}";
    }

  private:
    static std::vector<std::string> accepted() { return names().empty() ? detail::index_names(N) : names(); }
    static std::vector<std::string_view> accepted_views(const std::vector<std::string>& names) {
        return std::vector<std::string_view>(names.begin(), names.end());
    }

    static std::size_t resolve(const Value& type, const KeyPath& path) {
        if (type.kind() == Kind::uint64 && type.as_uint64() < N)
            return static_cast<std::size_t>(type.as_uint64());
        if (type.is_string()) {
            const auto& n = names();
            for (std::size_t i = 0; i < n.size(); ++i) {
                if (n[i] == type.as_string()) return i;
            }
            if (n.empty()) {
                for (std::size_t i = 0; i < N; ++i) {
                    if (std::to_string(i) == type.as_string()) return i;
                }
            }
        }
        auto names = accepted();
        detail::unknown_name(path, type, "alternative", accepted_views(names));
    }

    template <std::size_t... I>
    static void emplace(V& out, std::size_t index, std::index_sequence<I...>) {
        ((index == I ? (void)out.template emplace<I>() : (void)0), ...);
    }
};

}  // namespace burn::config

/// At namespace scope, in the namespace of one of the alternatives:
///     BURN_VARIANT_NAMES(PaddingConfig2d, "Valid", "Same", "Explicit")
/// V must be one name (an alias), not `std::variant<A, B>` written out.
#define BURN_VARIANT_NAMES(V, ...)                                    \
    inline constexpr auto burn_variant_names(V*) {                    \
        return ::burn::config::detail::variant_names<V>(__VA_ARGS__); \
    }
