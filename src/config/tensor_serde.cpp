// Tensors as JSON (burn/tensor/serde.hpp): {"shape", "dtype", "data"}, exact in both directions.
#include <cmath>
#include <cstring>

#include "burn/tensor/serde.hpp"

namespace burn {

namespace {

[[noreturn]] void bad(std::string_view source, const std::string& what) {
    BURN_THROW_KIND(
        generic, "[tensor_data_from_json] ", source, source.empty() ? "" : ": ", what,
        "; expected {\"shape\": [...], \"dtype\": \"f32\", \"data\": [...]} as tensor_to_json_string "
        "writes");
}

}  // namespace

config::Value tensor_data_to_json(const TensorData& d) {
    config::Value shape = config::Value::array(), data = config::Value::array();
    for (int i = 0; i < d.shape().rank(); ++i) shape.push_back(d.shape()[i]);
    const DType t = d.dtype();
    for (int64_t i = 0; i < d.numel(); ++i) {
        if (t == DType::i64) {
            int64_t v;
            std::memcpy(&v, d.bytes().data() + i * 8, 8);
            data.push_back(v);
        } else if (is_bool(t)) {
            data.push_back(d.value_as_double(i) != 0);
        } else if (t == DType::f32) {
            data.push_back(config::detail::encode_float(static_cast<float>(d.value_as_double(i))));
        } else if (is_float(t)) {
            data.push_back(config::detail::encode_double(d.value_as_double(i)));
        } else {
            data.push_back(static_cast<int64_t>(d.value_as_double(i)));
        }
    }
    config::Value out = config::Value::object();
    out.append("shape", std::move(shape));
    out.append("dtype", std::string(name(t)));
    out.append("data", std::move(data));
    return out;
}

TensorData tensor_data_from_json(const config::Value& v, std::string_view source) {
    if (!v.is_object()) bad(source, "not an object");
    const config::Value* shape_v = v.find("shape");
    const config::Value* dtype_v = v.find("dtype");
    const config::Value* data_v = v.find("data");
    if (!shape_v || !dtype_v || !data_v) bad(source, "a key is missing");
    if (!shape_v->is_array() || !dtype_v->is_string() || !data_v->is_array())
        bad(source, "shape and data must be arrays, dtype a string");
    Dims shape;
    std::vector<int64_t> dims;
    for (const auto& e : shape_v->as_array()) {
        if (!e.is_integer() || e.as_int64() < 0) bad(source, "shape entries must be non-negative integers");
        dims.push_back(e.as_int64());
    }
    BURN_CHECK_KIND(dims.size() <= 8, shape, "[tensor_data_from_json] rank ", dims.size(), " is above 8");
    shape = Dims::from(dims.data(), static_cast<int>(dims.size()));
    const DType t = dtype_from_name(dtype_v->as_string());
    const auto& items = data_v->as_array();
    BURN_CHECK_KIND(static_cast<int64_t>(items.size()) == shape.numel(), shape, "[tensor_data_from_json] ",
                    items.size(), " values do not fill shape ", shape, " (", shape.numel(), " elements)");
    const config::KeyPath path("tensor", source);
    if (t == DType::i64) {
        std::vector<int64_t> out;
        for (const auto& e : items) out.push_back(e.as_int64());
        return TensorData(out, shape);
    }
    if (is_bool(t)) {
        std::vector<bool> out;
        for (const auto& e : items) out.push_back(e.is_bool() ? e.as_bool() : e.as_double() != 0);
        return TensorData(out, shape);
    }
    std::vector<double> out;
    for (const auto& e : items) {
        const double x = config::detail::decode_double(e, path, false);
        BURN_CHECK_KIND(is_float(t) || (std::isfinite(x) && x == std::trunc(x)), dtype,
                        "[tensor_data_from_json] ", x, " is not a value of dtype ", t);
        out.push_back(x);
    }
    return TensorData(out, shape).convert(t);
}

std::string tensor_to_json_string(const TensorData& data, int indent) {
    return config::dump(tensor_data_to_json(data), indent);
}

TensorData tensor_data_from_json_string(const std::string& text) {
    return tensor_data_from_json(config::parse(text, "tensor JSON"));
}

}  // namespace burn
