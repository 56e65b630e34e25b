#pragma once
/// Modules are plain structs. BURN_MODULE(Type, fields...) inside the struct generates only the list of
/// named fields plus thin member functions; ordinary templates here walk it: a Param is a parameter, a
/// Buffer a saved non-trainable tensor, a nested module adds a path segment, std::vector/std::array add
/// an index, std::map adds its key (a string or an integer; in key order), std::optional adds nothing,
/// std::variant walks its active alternative and adds nothing (so `head.weight` names the weight of
/// whichever module `head` holds), anything else (numbers, enums, activation structs) is a constant.
/// Pointers, std::unordered_map, std::list and std::deque fields are compile errors: walking them
/// would be unordered or would share tensors between copies, and skipping them would lose weights.
#include <algorithm>
#include <array>
#include <concepts>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "burn/config/pp.hpp"
#include "burn/module/param.hpp"
#include "burn/module/param_group.hpp"
#include "burn/store/module_store.hpp"

namespace burn::module {

template <class T>
struct is_param : std::false_type {};
template <class T>
struct is_param<Param<T>> : std::true_type {};
template <class T>
struct is_buffer : std::false_type {};
template <class T>
struct is_buffer<Buffer<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_map : std::false_type {};
template <class K, class T, class C, class A>
struct is_map<std::map<K, T, C, A>> : std::true_type {};

/// Owners that cannot be walked (see the header comment); element is what they hold.
template <class T>
struct unwalkable_owner : std::false_type {};
template <class T>
struct unwalkable_owner<T*> : std::true_type {
    using element = T;
};
template <class T, class D>
struct unwalkable_owner<std::unique_ptr<T, D>> : std::true_type {
    using element = T;
};
template <class T>
struct unwalkable_owner<std::shared_ptr<T>> : std::true_type {
    using element = T;
};
template <class K, class T, class H, class E, class A>
struct unwalkable_owner<std::unordered_map<K, T, H, E, A>> : std::true_type {
    using element = T;
};
template <class T, class A>
struct unwalkable_owner<std::list<T, A>> : std::true_type {
    using element = T;
};
template <class T, class A>
struct unwalkable_owner<std::deque<T, A>> : std::true_type {
    using element = T;
};

template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};

template <class M>
concept HasFields = requires(M& m) {
    m.burn_visit_fields([](const char*, auto&) {});
};

inline std::string join(const std::string& path, const std::string& name) {
    return path.empty() ? name : path + "." + name;
}
template <class K>
std::string key_segment(const K& key) {
    if constexpr (std::is_integral_v<K>) {
        return std::to_string(key);
    } else {
        static_assert(std::is_convertible_v<const K&, std::string>,
                      "BURN_MODULE: a std::map field needs string or integer keys (they name the tensors)");
        return std::string(key);
    }
}

/// Walks m calling v.param(path, Param&), v.buffer(path, Buffer&) and v.enter/exit(path, module).
template <class M, class V>
void walk(M& m, const std::string& path, V& v) {
    using U = std::remove_cv_t<M>;
    if constexpr (is_param<U>::value) {
        v.param(path, m);
    } else if constexpr (is_buffer<U>::value) {
        v.buffer(path, m);
    } else if constexpr (is_vector<U>::value || is_std_array<U>::value) {
        for (std::size_t i = 0; i < m.size(); ++i) walk(m[i], join(path, std::to_string(i)), v);
    } else if constexpr (is_map<U>::value) {
        for (auto& [key, value] : m) walk(value, join(path, key_segment(key)), v);
    } else if constexpr (is_optional<U>::value) {
        if (m) walk(*m, path, v);
    } else if constexpr (is_variant<U>::value) {
        std::visit([&](auto& alt) { walk(alt, path, v); }, m);
    } else if constexpr (HasFields<U>) {
        v.enter(path, m);
        m.burn_visit_fields([&](const char* name, auto& field) { walk(field, join(path, name), v); });
        v.exit(path, m);
    } else if constexpr (unwalkable_owner<U>::value) {
        // Only an owner of modules or tensors is an error: a shared_ptr to a tokenizer is a constant.
        using E = std::remove_cv_t<typename unwalkable_owner<U>::element>;
        static_assert(!(HasFields<E> || is_param<E>::value || is_buffer<E>::value),
                      "BURN_MODULE: pointer, std::unique_ptr, std::shared_ptr, std::unordered_map, std::list "
                      "and std::deque fields cannot be walked; hold modules by value in std::vector, "
                      "std::array, std::map, std::optional or std::variant");
    }
}

/// A visitor built from callables: param(path, Param&), buffer(path, Buffer&), and optionally
/// enter(path, module) / exit(path, module) around nested modules.
struct NoOp {
    template <class... A>
    void operator()(A&&...) const {}
};
template <class P, class B, class En = NoOp, class Ex = NoOp>
struct Visitor {
    P param;
    B buffer;
    En enter{};
    Ex exit{};
};
// Deduction guides: clang before 17 (and so emscripten) has no class template argument deduction for
// aggregates, which `Visitor v{param, buffer, enter, exit}` needs.
template <class P, class B>
Visitor(P, B) -> Visitor<P, B>;
template <class P, class B, class En>
Visitor(P, B, En) -> Visitor<P, B, En>;
template <class P, class B, class En, class Ex>
Visitor(P, B, En, Ex) -> Visitor<P, B, En, Ex>;
template <class P, class B>
Visitor<P, B> visitor(P p, B b) {
    return {std::move(p), std::move(b)};
}

template <class M>
std::size_t num_params(const M& m) {
    std::size_t n = 0;
    auto v = visitor(
        [&](const std::string&, const auto& p) {
            if (!p.is_initialized())
                n += static_cast<std::size_t>(p.lazy_shape().numel());  // without running the init
            else if (p.val().defined())
                n += static_cast<std::size_t>(p.val().numel());
        },
        NoOp{});
    walk(m, "", v);
    return n;
}

/// fn(path, const Param<Tensor<D, K>>&) for every parameter, in declaration order.
template <class M, class F>
void visit_params(const M& m, F&& fn) {
    auto v = visitor([&](const std::string& path, const auto& p) { fn(path, p); }, NoOp{});
    walk(m, "", v);
}

/// fn(path, Param<Tensor>&) for every parameter, mutable (optimizers, initialisation, freezing).
template <class M, class F>
void visit_params_mut(M& m, F&& fn) {
    auto v = visitor([&](const std::string& path, auto& p) { fn(path, p); }, NoOp{});
    walk(m, "", v);
}

/// Replaces every parameter's tensor by fn(path, tensor) (ids and grad flags kept).
template <class M, class F>
void map_params(M& m, F&& fn) {
    visit_params_mut(m, [&](const std::string& path, auto& p) { p.set(fn(path, p.val())); });
}

/// Moves every parameter and buffer to device (ids kept; parameters stay marked).
template <class M>
void to_device(M& m, const Device& device) {
    auto move = [&](const std::string&, auto& p) {
        if (p.val().defined()) p.set(p.val().to_device(device));
    };
    auto v = visitor(move, move);
    walk(m, "", v);
}

/// The distinct devices of the module's tensors.
template <class M>
std::vector<Device> devices(const M& m) {
    std::vector<Device> out;
    auto add = [&](const std::string&, const auto& p) {
        if (p.val().defined() && std::find(out.begin(), out.end(), p.val().device()) == out.end())
            out.push_back(p.val().device());
    };
    auto v = visitor(add, add);
    walk(m, "", v);
    return out;
}

/// Sets require_grad on every parameter whose path satisfies pred (freeze with false).
template <class M, class Pred>
void set_require_grad_where(M& m, bool on, Pred&& pred) {
    visit_params_mut(m, [&](const std::string& path, auto& p) {
        if (pred(path)) p.set_require_grad(on);
    });
}

/// Sets require_grad on every parameter of group (burn's freeze_group / unfreeze_group).
template <class M>
void set_require_grad_group(M& m, bool on, const ParamGroup& group) {
    visit_params_mut(m, [&](const std::string& path, auto& p) {
        if (group.matches(p.id(), &path)) p.set_require_grad(on);
    });
}

/// The ids of every parameter (burn's ParamGroup::ids_from_module, with from_ids).
template <class M>
std::vector<ParamId> param_ids(const M& m) {
    std::vector<ParamId> ids;
    visit_params(m, [&](const std::string&, const auto& p) { ids.push_back(p.id()); });
    return ids;
}

/// Moves every parameter and buffer to device as new graph leaves (burn's fork): the values are
/// detached first, so gradients of the forked module never reach whatever computed the originals.
/// Ids and grad flags are kept.
template <class M>
void fork(M& m, const Device& device) {
    auto move = [&](const std::string&, auto& p) {
        if (p.val().defined()) p.set(p.val().detach().to_device(device));
    };
    auto v = visitor(move, move);
    walk(m, "", v);
}

/// A module type's own text for module::format (burn's custom display): a member
/// `std::string display_settings() const` is printed after the type name.
template <class M>
concept HasDisplaySettings = requires(const M& m) {
    { m.display_settings() } -> std::convertible_to<std::string>;
};
template <class M>
std::string display_settings_of(const M& m) {
    if constexpr (HasDisplaySettings<M>)
        return " " + std::string(m.display_settings());
    else
        return std::string();
}

/// The module's tensors as store snapshots, each with the type of the module holding it.
template <class M>
std::vector<store::TensorSnapshot> snapshots(const M& m) {
    std::vector<store::TensorSnapshot> out;
    std::vector<const char*> types;  // the enclosing modules, innermost last
    auto type = [&] { return types.empty() ? std::string() : std::string(types.back()); };
    Visitor v{[&](const std::string& path, const auto& p) {
                  out.push_back({path, p.val().handle(), p.id().value(), false, type()});
              },
              [&](const std::string& path, const auto& b) {
                  out.push_back({path, b.val().handle(), b.id().value(), true, type()});
              },
              [&](const std::string&, const auto& x) {
                  types.push_back(std::remove_cv_t<std::remove_reference_t<decltype(x)>>::burn_module_name);
              },
              [&](const std::string&, const auto&) { types.pop_back(); }};
    walk(m, "", v);
    return out;
}

/// Writes the module through store.
template <class M>
void save_into(const M& m, store::ModuleStore& s) {
    s.save(snapshots(m));
}

/// Throws (naming what failed) when a load must not be applied.
void check_load(const store::ApplyResult& result, bool partial_allowed);
/// Throws burn::Error naming the first snapshot whose tensor is undefined (a default-constructed
/// module cannot receive tensors: its shapes are unknown).
void check_defined(const std::vector<store::TensorSnapshot>& snapshots);

/// Loads tensors from store into m: all or nothing (nothing is applied if the load fails). Parameters
/// and buffers also take the ids the file saved for them (Burnpack files keep ids; formats without
/// ids leave them as they are), so optimizer state saved by id (Optimizer::to_record) lines up with
/// the loaded module.
template <class M>
store::ApplyResult load_from(M& m, store::ModuleStore& s) {
    // The slots, from the tensors or, for uninitialized parameters, from what they declare (a load
    // into them does not run their init).
    std::vector<store::TensorSlot> slots;
    std::vector<const char*> types;
    auto type = [&] { return types.empty() ? std::string() : std::string(types.back()); };
    auto slot = [&](bool is_buffer) {
        return [&, is_buffer](const std::string& path, const auto& p) {
            using P = std::remove_cv_t<std::remove_reference_t<decltype(p)>>;
            if constexpr (is_param<P>::value) {
                if (!p.is_initialized()) {
                    slots.push_back({path, p.lazy_shape(), p.lazy_dtype(), p.lazy_device(), p.id().value(),
                                     false, type()});
                    return;
                }
            }
            const TensorAny& t = p.val().handle();
            if (!t.defined()) check_defined({{path, t, p.id().value(), is_buffer, type()}});
            slots.push_back({path, t.shape(), t.dtype(), t.device(), p.id().value(), is_buffer, type()});
        };
    };
    Visitor sv{slot(false), slot(true),
               [&](const std::string&, const auto& x) {
                   types.push_back(std::remove_cv_t<std::remove_reference_t<decltype(x)>>::burn_module_name);
               },
               [&](const std::string&, const auto&) { types.pop_back(); }};
    walk(m, "", sv);
    auto [result, values] = s.load(slots);
    check_load(result, s.partial_allowed());
    std::vector<store::LoadedTensor> by_slot(slots.size());
    for (auto& v : values) by_slot[v.slot] = std::move(v);
    std::size_t i = 0;
    auto apply = [&](const std::string&, auto& p) {
        store::LoadedTensor& t = by_slot[i++];
        using T = typename std::remove_reference_t<decltype(p)>::value_type;
        if (!t.tensor.defined()) return;
        p.set(T(std::move(t.tensor)));
        if (t.param_id && *t.param_id != 0) p.set_id(ParamId(*t.param_id));
    };
    auto v = visitor(apply, apply);
    walk(m, "", v);
    return result;
}

/// A tree of the module with parameter counts, like burn's Display.
template <class M>
std::string format(const M& m) {
    ::burn::detail::Text os;
    int depth = 0;
    auto indent = [&] { return std::string(static_cast<std::size_t>(2 * depth), ' '); };
    auto last = [](const std::string& path) {
        auto dot = path.rfind('.');
        return path.substr(dot == std::string::npos ? 0 : dot + 1);
    };
    auto leaf = [&](const char* kind) {
        return [&, kind](const std::string& path, const auto& p) {
            os << indent() << last(path) << ": " << kind << " "
               << (p.val().defined() ? p.val().shape().str() : std::string("undefined")) << "\n";
        };
    };
    Visitor v{leaf("Param"), leaf("Buffer"),
              [&](const std::string& path, const auto& x) {
                  os << indent() << (path.empty() ? "" : last(path) + ": ")
                     << std::remove_cv_t<std::remove_reference_t<decltype(x)>>::burn_module_name
                     << display_settings_of(x) << " {  // params: " << num_params(x) << "\n";
                  ++depth;
              },
              [&](const std::string&, const auto&) {
                  --depth;
                  os << indent() << "}\n";
              }};
    walk(m, "", v);
    return os.str();
}

}  // namespace burn::module

#define BURN_MODULE_FIELD_(fn, field) fn(#field, field);

/// Declares a struct's fields as a module: BURN_MODULE(Mlp, hidden, activation, output). Generates
/// num_params, visit_params, map_params, to_device, devices, valid, no_grad, freeze, save_into,
/// load_from and to_string (and freeze_group, unfreeze, unfreeze_group, fork). Up to 63 fields.
#define BURN_MODULE(Type, ...)                                                                             \
    [[maybe_unused]] static constexpr const char* burn_module_name = #Type;                                \
    template <class BurnFn>                                                                                \
    void burn_visit_fields(BurnFn&& burn_fn) {                                                             \
        BURN_PP_FOR_EACH(BURN_MODULE_FIELD_, burn_fn, __VA_ARGS__)                                         \
    }                                                                                                      \
    template <class BurnFn>                                                                                \
    void burn_visit_fields(BurnFn&& burn_fn) const {                                                       \
        BURN_PP_FOR_EACH(BURN_MODULE_FIELD_, burn_fn, __VA_ARGS__)                                         \
    }                                                                                                      \
    /* The members below are templates (BurnSelf = Type) so that they are instantiated only when used. */  \
    /** Number of trainable scalars (buffers excluded). */                                                 \
    template <class BurnSelf = Type>                                                                       \
    std::size_t num_params() const {                                                                       \
        return ::burn::module::num_params(static_cast<const BurnSelf&>(*this));                            \
    }                                                                                                      \
    /** fn(path, param) for every parameter, in declaration order. */                                      \
    template <class BurnFn>                                                                                \
    void visit_params(BurnFn&& burn_fn) const {                                                            \
        ::burn::module::visit_params(*this, burn_fn);                                                      \
    }                                                                                                      \
    /** A copy whose parameters are fn(path, tensor). */                                                   \
    template <class BurnFn>                                                                                \
    Type map_params(BurnFn&& burn_fn) const {                                                              \
        Type burn_copy = *this;                                                                            \
        ::burn::module::map_params(burn_copy, burn_fn);                                                    \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    /** A copy on device (parameters keep their ids). */                                                   \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf to_device(const ::burn::Device& burn_device) const {                                          \
        BurnSelf burn_copy = *this;                                                                        \
        ::burn::module::to_device(burn_copy, burn_device);                                                 \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    template <class BurnSelf = Type>                                                                       \
    std::vector<::burn::Device> devices() const {                                                          \
        return ::burn::module::devices(static_cast<const BurnSelf&>(*this));                               \
    }                                                                                                      \
    /** The same module on the inner (non-autodiff) device, for evaluation. */                             \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf valid() const {                                                                               \
        auto burn_devs = devices<BurnSelf>();                                                              \
        return burn_devs.empty() ? BurnSelf(*this) : to_device<BurnSelf>(burn_devs.front().inner());       \
    }                                                                                                      \
    /** A copy whose parameters require no gradient. */                                                    \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf no_grad() const {                                                                             \
        BurnSelf burn_copy = *this;                                                                        \
        ::burn::module::set_require_grad_where(burn_copy, false, [](const std::string&) { return true; }); \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    /** A copy with the parameters whose path satisfies pred frozen. */                                    \
    template <class BurnPred>                                                                              \
    Type freeze(BurnPred&& burn_pred) const {                                                              \
        Type burn_copy = *this;                                                                            \
        ::burn::module::set_require_grad_where(burn_copy, false, burn_pred);                               \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    /** A copy with the parameters whose path satisfies pred trainable again. */                           \
    template <class BurnPred>                                                                              \
    Type unfreeze(BurnPred&& burn_pred) const {                                                            \
        Type burn_copy = *this;                                                                            \
        ::burn::module::set_require_grad_where(burn_copy, true, burn_pred);                                \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    /** A copy with the group's parameters frozen / trainable (burn's freeze_group, unfreeze_group). */    \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf freeze_group(const ::burn::module::ParamGroup& burn_group) const {                            \
        BurnSelf burn_copy = *this;                                                                        \
        ::burn::module::set_require_grad_group(burn_copy, false, burn_group);                              \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf unfreeze_group(const ::burn::module::ParamGroup& burn_group) const {                          \
        BurnSelf burn_copy = *this;                                                                        \
        ::burn::module::set_require_grad_group(burn_copy, true, burn_group);                               \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    /** A copy on device whose tensors are new graph leaves (burn's fork; see module::fork). */            \
    template <class BurnSelf = Type>                                                                       \
    BurnSelf fork(const ::burn::Device& burn_device) const {                                               \
        BurnSelf burn_copy = *this;                                                                        \
        ::burn::module::fork(burn_copy, burn_device);                                                      \
        return burn_copy;                                                                                  \
    }                                                                                                      \
    template <class BurnSelf = Type>                                                                       \
    void save_into(::burn::store::ModuleStore& burn_store) const {                                         \
        ::burn::module::save_into(static_cast<const BurnSelf&>(*this), burn_store);                        \
    }                                                                                                      \
    template <class BurnSelf = Type>                                                                       \
    ::burn::store::ApplyResult load_from(::burn::store::ModuleStore& burn_store) {                         \
        return ::burn::module::load_from(static_cast<BurnSelf&>(*this), burn_store);                       \
    }                                                                                                      \
    template <class BurnSelf = Type>                                                                       \
    std::string to_string() const {                                                                        \
        return ::burn::module::format(static_cast<const BurnSelf&>(*this));                                \
    }
