// The page's "ONNX from disk" (linked into the training module, burn_web.js, so models run in the Web
// Worker): load any .onnx file from bytes with burn's importer (built for WebAssembly with its
// wire-format decoder, BURN_ONNX=WIRE), describe its inputs and outputs, run it on the drawn digit or
// on generated inputs, and classify the held-out digits with it. Results are JSON in bw_text().
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "burn/onnx/model.hpp"
#include "web_api.hpp"

using namespace web;
using json = nlohmann::json;

namespace {

std::optional<onnx::Model>& onnx_model() {
    static std::optional<onnx::Model> m;
    return m;
}

json spec_json(const onnx::ValueSpec& v) {
    json dims = json::array();
    for (std::size_t i = 0; i < v.shape.size(); ++i) {
        if (v.shape[i] >= 0)
            dims.push_back(v.shape[i]);
        else
            dims.push_back(i < v.names.size() && !v.names[i].empty() ? v.names[i] : "?");
    }
    return {{"name", v.name}, {"dtype", v.dtype}, {"shape", v.has_shape ? dims : json(nullptr)}};
}

/// How drawn grey levels in [0, 1] become the model's input: 0 standardised as the MNIST examples
/// ((x - 0.1307) / 0.3081), 1 as they are, 2 scaled to [0, 255].
float scale_pixel(float x, int scaling) {
    if (scaling == 1) return x;
    if (scaling == 2) return x * 255.0f;
    return (x - 0.1307f) / 0.3081f;
}

/// The inputs of one run: dynamic dims are 1; a float input of 784 values takes the digit (when given),
/// any other float input a fixed pattern in [0, 1), integer and bool inputs zeros.
std::vector<TensorAny> make_inputs(const onnx::Model& model, const float* digit, int scaling) {
    std::vector<TensorAny> inputs;
    for (const auto& spec : model.inputs()) {
        BURN_CHECK(spec.has_shape, "[onnx page] input '", spec.name,
                   "' has no declared shape, so the page cannot make a value for it");
        std::vector<int64_t> dims;
        for (int64_t d : spec.shape) dims.push_back(d < 0 ? 1 : d);
        const Dims shape = Dims::from(dims.data(), static_cast<int>(dims.size()));
        const auto n = static_cast<std::size_t>(shape.numel());
        const DType dtype = dtype_from_name(spec.dtype);
        std::vector<float> x(n, 0.0f);
        if (is_float(dtype)) {
            for (std::size_t i = 0; i < n; ++i)
                x[i] = digit && n == kPixels ? scale_pixel(digit[i], scaling)
                                             : static_cast<float>((i * 37) % 101) / 100.0f;
        }
        inputs.push_back(ops::cast(ops::from_data(TensorData(x, shape), Device::cpu()), dtype));
    }
    return inputs;
}

}  // namespace

/// Loads a serialized ONNX model (an .onnx file picked in the page); bw_text() then describes it.
WEB_EXPORT int bw_onnx_load(const uint8_t* data, int size) {
    return guarded([&] {
        BURN_CHECK(data != nullptr && size >= 0, "[bw_onnx_load] no bytes");
        onnx_model().reset();
        auto model =
            onnx::Model::from_bytes(std::string(reinterpret_cast<const char*>(data), std::size_t(size)),
                                    Device::cpu(), "", "the ONNX file");
        json ins = json::array(), outs = json::array();
        for (const auto& v : model.inputs()) ins.push_back(spec_json(v));
        for (const auto& v : model.outputs()) outs.push_back(spec_json(v));
        json ops = json::object();
        for (const auto& [op, count] : model.op_histogram()) ops[op] = count;
        state().text = json{
            {"inputs", ins},
            {"outputs", outs},
            {"opset", model.opset()},
            {"producer", model.producer()},
            {"nodes", model.num_file_nodes()},
            {"nodes_run", model.num_nodes()},
            {"ops", ops}}.dump();
        onnx_model().emplace(std::move(model));
    });
}

/// Runs the loaded model once, on the digit (count 784 grey levels in [0, 1], or 0: generated inputs),
/// and describes the outputs in bw_text(): shape, dtype, the first values, the arg max of each.
WEB_EXPORT int bw_onnx_run(const float* pixels, int count, int scaling) {
    return guarded([&] {
        BURN_CHECK(onnx_model().has_value(), "[bw_onnx_run] no ONNX model is loaded");
        BURN_CHECK(count == 0 || (pixels != nullptr && count == static_cast<int>(kPixels)),
                   "[bw_onnx_run] a digit is 28 x 28 = ", kPixels, " grey levels, got ", count);
        const auto start = std::chrono::steady_clock::now();
        const auto inputs = make_inputs(*onnx_model(), count ? pixels : nullptr, scaling);
        const auto outputs = onnx_model()->run(inputs);
        json outs = json::array();
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            const TensorData d = ops::into_data(ops::cast(outputs[k], DType::f32));
            const auto v = d.to_vec<float>();
            json shape = json::array();
            for (int i = 0; i < d.shape().rank(); ++i) shape.push_back(d.shape()[i]);
            const std::size_t shown = std::min<std::size_t>(v.size(), 16);
            json o{{"name", onnx_model()->outputs()[k].name},
                   {"dtype", std::string(name(outputs[k].dtype()))},
                   {"shape", shape},
                   {"values", std::vector<float>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(shown))}};
            if (!v.empty()) o["argmax"] = std::max_element(v.begin(), v.end()) - v.begin();
            outs.push_back(std::move(o));
        }
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        state().text = json{{"outputs", outs}, {"ms", took.count()}}.dump();
    });
}

/// Classifies the first limit held-out digits (0: all 2,000) with the loaded ONNX model (its first
/// output's arg max is the class) and puts {accuracy, digits, ms_per_digit} in bw_text().
WEB_EXPORT int bw_onnx_evaluate(int limit, int scaling) {
    return guarded([&] {
        BURN_CHECK(onnx_model().has_value(), "[bw_onnx_evaluate] no ONNX model is loaded");
        const auto& test = test_digits();
        BURN_CHECK(test != nullptr, "[bw_onnx_evaluate] no digits: call bw_load_digits first");
        const std::size_t n =
            limit > 0 ? std::min<std::size_t>(std::size_t(limit), test->len()) : test->len();
        std::size_t correct = 0;
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < n; ++i) {
            const auto item = test->get(i);
            const auto out = onnx_model()->run(make_inputs(*onnx_model(), item->image.data(), scaling));
            BURN_CHECK(!out.empty(), "[bw_onnx_evaluate] the model has no output");
            const auto v = ops::into_data(ops::cast(out[0], DType::f32)).to_vec<float>();
            BURN_CHECK(v.size() == kClasses, "[bw_onnx_evaluate] the first output has ", v.size(),
                       " values; a digit classifier gives ", kClasses);
            correct += static_cast<int32_t>(std::max_element(v.begin(), v.end()) - v.begin()) == item->label;
        }
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        state().text = json{{"accuracy", n ? 100.0 * double(correct) / double(n) : 0.0},
                            {"digits", n},
                            {"ms_per_digit", n ? took.count() / double(n) : 0.0}}
                           .dump();
    });
}

/// The JSON of the last bw_onnx_* call.
WEB_EXPORT const char* bw_text() {
    return state().text.c_str();
}
