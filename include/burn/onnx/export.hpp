#pragma once
/// ONNX export by tracing (docs/onnx.md, "Export"): one forward pass runs on the device wrapped in the
/// "trace" decorator, which records every OpCall (and still runs it, so shapes and values are real);
/// each recorded call becomes ONNX nodes (opset 17), the module's parameters and buffers become
/// initializers named by their module path (`fc1.weight`), other constants initializers.
///
///     burn::onnx::save(model, x, "model.onnx");                          // forward(x)
///     burn::onnx::save(model, std::tuple{x, mask}, "m.onnx", {.dynamic_batch = true});
///     std::string bytes = burn::onnx::trace(fn, {x});                   // a ModelProto, serialized
///
/// A row export has no mapping for is decomposed into the primitives it is written with when it has
/// a decomposition; otherwise export throws a burn::Error naming the row.
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "burn/module/module.hpp"
#include "burn/tensor/tensor.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::onnx {

struct ExportOptions {
    /// The default-domain opset the graph declares. Only 17 is written today.
    int64_t opset = 17;
    /// Graph input and output names, in order; missing ones are "input_0".., "output_0".. ("input" and
    /// "output" when there is one).
    std::vector<std::string> input_names{};
    std::vector<std::string> output_names{};
    /// Dim 0 of every input and output becomes the symbolic dim "batch", and reshape targets that
    /// carry the batch are written as -1, so the graph runs at another batch size.
    bool dynamic_batch = false;
    std::string producer_name = "burn";
    std::string graph_name = "burn";
};

/// A named tensor that the traced function reads: a parameter or buffer (an initializer of that name).
struct NamedTensor {
    std::string name;
    TensorAny tensor;
};

/// What a forward pass on the traced device computes from its inputs (on the traced device).
using TraceFn = std::function<std::vector<TensorAny>(const std::vector<TensorAny>& inputs)>;

/// The device that records: device's physical device with the "trace" decorator on top.
Device trace_device(const Device& device);

/// Runs fn once on inputs moved to trace_device(inputs[0].device()) and returns the serialized
/// ModelProto. `named` are tensors of the traced device that fn reads (their names become the
/// initializers' names). Throws burn::Error naming a row that export lacks.
std::string trace(const TraceFn& fn, const std::vector<TensorAny>& inputs, const ExportOptions& options = {},
                  const std::vector<NamedTensor>& named = {});

/// Writes bytes to path (throws burn::IoError).
void write_model(const std::string& bytes, const std::string& path);

namespace detail {
inline void collect_outputs(const TensorAny& t, std::vector<TensorAny>& out) {
    out.push_back(t);
}
template <std::size_t D, class K>
void collect_outputs(const Tensor<D, K>& t, std::vector<TensorAny>& out) {
    out.push_back(t.handle());
}
template <class T>
void collect_outputs(const std::vector<T>& v, std::vector<TensorAny>& out) {
    for (const auto& x : v) collect_outputs(x, out);
}
template <class... T>
void collect_outputs(const std::tuple<T...>& t, std::vector<TensorAny>& out) {
    std::apply([&](const auto&... x) { (collect_outputs(x, out), ...); }, t);
}
template <class A, class B>
void collect_outputs(const std::pair<A, B>& t, std::vector<TensorAny>& out) {
    collect_outputs(t.first, out);
    collect_outputs(t.second, out);
}

template <class T>
TensorAny handle_of(const T& t) {
    if constexpr (std::is_same_v<T, TensorAny>) {
        return t;
    } else {
        return t.handle();
    }
}
template <class T>
T typed_as(const TensorAny& t) {
    if constexpr (std::is_same_v<T, TensorAny>) {
        return t;
    } else {
        return T(t);
    }
}

/// The module's parameters and buffers by path, as it holds them now.
template <class M>
std::vector<NamedTensor> named_tensors(const M& m) {
    std::vector<NamedTensor> named;
    auto add = [&](const std::string& path, const auto& p) {
        if (p.val().defined()) named.push_back({path, p.val().handle()});
    };
    auto v = module::visitor(add, add);
    module::walk(m, "", v);
    return named;
}
}  // namespace detail

/// Traces module.forward(inputs...) (inputs: Tensor<D, K>s or TensorAny in a tuple) and returns the
/// serialized ModelProto.
template <class M, class... In>
std::string trace_module(const M& module, const std::tuple<In...>& inputs,
                         const ExportOptions& options = {}) {
    static_assert(sizeof...(In) > 0, "onnx::save needs at least one example input");
    std::vector<TensorAny> xs;
    std::apply([&](const auto&... x) { (xs.push_back(detail::handle_of(x)), ...); }, inputs);
    const Device dev = trace_device(xs.front().device());
    M traced = module;
    module::to_device(traced, dev);
    TraceFn fn = [&](const std::vector<TensorAny>& in) {
        std::vector<TensorAny> out;
        auto call = [&]<std::size_t... I>(std::index_sequence<I...>) {
            detail::collect_outputs(traced.forward(detail::typed_as<In>(in[I])...), out);
        };
        call(std::index_sequence_for<In...>{});
        return out;
    };
    return trace(fn, xs, options, detail::named_tensors(traced));
}

/// Exports module.forward(inputs...) to an .onnx file at path.
template <class M, class... In>
void save(const M& module, const std::tuple<In...>& inputs, const std::string& path,
          const ExportOptions& options = {}) {
    write_model(trace_module(module, inputs, options), path);
}

/// Exports module.forward(input) to an .onnx file at path.
template <class M, std::size_t D, class K>
void save(const M& module, const Tensor<D, K>& input, const std::string& path,
          const ExportOptions& options = {}) {
    save(module, std::tuple<Tensor<D, K>>(input), path, options);
}

}  // namespace burn::onnx
