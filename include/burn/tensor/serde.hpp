#pragma once
/// Tensors as JSON (burn's serde Serialize/Deserialize of a tensor): {"shape": [2, 3], "dtype": "f32",
/// "data": [...]}, the values row-major. Floats are written in their shortest exact form (NaN and
/// infinities as the strings "nan", "inf", "-inf"), integers exactly (i64 included), bools as true/false,
/// so every tensor reads back bit for bit (f16/bf16 included).
///
///     std::string text = tensor_to_json_string(t);              // one line; indent >= 0 pretty-prints
///     auto back = tensor_from_json_string<2>(text, device);     // Tensor<2>
///
/// TensorData fields of a BURN_CONFIG struct use the same form (config::Codec<TensorData>).
#include <string>

#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn {

/// The JSON value of data, and back. Reading checks the keys, the dtype name, that the data holds
/// shape's element count, and that every value fits the dtype (an integer dtype takes integers).
config::Value tensor_data_to_json(const TensorData& data);
TensorData tensor_data_from_json(const config::Value& value, std::string_view source = {});

std::string tensor_to_json_string(const TensorData& data, int indent = -1);
template <std::size_t D, class K>
std::string tensor_to_json_string(const Tensor<D, K>& t, int indent = -1) {
    return tensor_to_json_string(t.to_data(), indent);
}
TensorData tensor_data_from_json_string(const std::string& text);
/// A tensor of rank D and kind K from JSON on device (the file's dtype, which must be of kind K).
template <std::size_t D, class K = Float>
Tensor<D, K> tensor_from_json_string(const std::string& text, const Device& device = Device()) {
    return Tensor<D, K>::from_data(tensor_data_from_json_string(text), device);
}

namespace config {
template <>
struct Codec<TensorData> {
    static Value encode(const TensorData& d) { return tensor_data_to_json(d); }
    static void decode(const Value& v, TensorData& out, const KeyPath& path) {
        out = tensor_data_from_json(v, path.prefix());
    }
    static std::string expected() { return "a tensor {\"shape\", \"dtype\", \"data\"}"; }
};
}  // namespace config

}  // namespace burn
