#pragma once
// A Burnpack tensor's dtype as the metadata spells it, shared by the store's reader
// (store/burnpack_format.cpp) and the in-place bare-metal one (embed/burnpack_view.cpp): Rust burn's
// serde spellings ("F32", "Flex32" stored as f32, {"Bool": "Native" | "U8"}, the older unit "Bool")
// and this project's earlier lowercase names ("f32").
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "burn/core/dtype.hpp"

namespace burn::store::detail {

inline std::optional<DType> burnpack_dtype(const nlohmann::json& v) {
    if (v.is_object() && v.size() == 1 && v.begin().key() == "Bool") {
        const auto& store = v.begin().value();
        if (store.is_string() && (store == "Native" || store == "U8")) return DType::boolean;
        return std::nullopt;
    }
    if (!v.is_string()) return std::nullopt;
    const std::string& t = v.get_ref<const std::string&>();
    static const std::pair<const char*, DType> kBurn[] = {
        {"F32", DType::f32},   {"Flex32", DType::f32}, {"F64", DType::f64},     {"F16", DType::f16},
        {"BF16", DType::bf16}, {"I64", DType::i64},    {"I32", DType::i32},     {"I16", DType::i16},
        {"I8", DType::i8},     {"U8", DType::u8},      {"Bool", DType::boolean}};
    for (const auto& [n, d] : kBurn)
        if (t == n) return d;
    for (int i = 0; i < kNumDTypes; ++i)
        if (name(static_cast<DType>(i)) == t) return static_cast<DType>(i);
    return std::nullopt;
}

/// The spelling Rust burn writes (serde's): a unit variant's name, Bool with its storage.
inline nlohmann::json burnpack_dtype_value(DType d) {
    switch (d) {
        case DType::f32:
            return "F32";
        case DType::f64:
            return "F64";
        case DType::f16:
            return "F16";
        case DType::bf16:
            return "BF16";
        case DType::i64:
            return "I64";
        case DType::i32:
            return "I32";
        case DType::i16:
            return "I16";
        case DType::i8:
            return "I8";
        case DType::u8:
            return "U8";
        case DType::boolean:
            return nlohmann::json{{"Bool", "Native"}};
    }
    return "F32";
}

}  // namespace burn::store::detail
