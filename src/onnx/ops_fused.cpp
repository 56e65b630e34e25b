// com.microsoft FusedConv (onnxruntime's contrib op, which its optimiser writes and some exported
// files contain): Conv, + Z, then an activation. Relu and Clip run as burn's conv_fused row (on the CPU,
// oneDNN post-ops); the other activations onnxruntime allows run after it. The runtime's own fusion pass
// (fuse.cpp) writes these nodes for Conv -> (Add) -> (Relu | Clip) chains.
#include <cmath>
#include <limits>

#include "burn/tensor/module_ops.hpp"
#include "onnx/op_util.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

Outs fused_conv(const OpContext& c) {
    const TensorAny &x = c.in(0), &w = c.in(1);
    std::vector<int64_t> kernel;
    for (int i = 2; i < w.rank(); ++i) kernel.push_back(w.shape()[i]);
    const Window win = window_of(c, x, c.attr_ints("kernel_shape", kernel));
    attrs::Conv spec;
    spec.spatial = win.s;
    Dims out{x.shape()[0], w.shape()[0]};
    for (int i = 0; i < win.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        c.check(win.stride[k] >= 1 && win.dilation[k] >= 1 && win.pad_begin[k] >= 0 && win.pad_end[k] >= 0,
                "strides, dilations must be positive and pads non-negative");
        spec.stride[k] = win.stride[k], spec.pad_begin[k] = win.pad_begin[k],
        spec.pad_end[k] = win.pad_end[k];
        spec.dilation[k] = win.dilation[k];
        const int64_t span =
            x.shape()[i + 2] + win.pad_begin[k] + win.pad_end[k] - win.dilation[k] * (win.kernel[k] - 1) - 1;
        out.push_back(span < 0 ? 0 : span / win.stride[k] + 1);
    }
    spec.groups = c.attr_int("group", 1);
    const std::string act = c.attr_string("activation", "");
    const std::vector<double> p = c.attr_floats("activation_params");
    const double inf = std::numeric_limits<double>::infinity();
    double lo = -inf, hi = inf;
    if (act == "Relu") {
        lo = 0;
    } else if (act == "Clip") {
        c.check(p.size() == 2, "activation Clip needs activation_params {min, max}, got ", p.size(),
                " values");
        lo = p[0], hi = p[1];
    } else {
        c.check(
            act.empty() || act == "LeakyRelu" || act == "Sigmoid" || act == "Tanh" || act == "HardSigmoid",
            "activation '", act, "' is not one of Relu, Clip, LeakyRelu, Sigmoid, Tanh, HardSigmoid");
    }
    std::optional<TensorAny> b, z;
    if (c.has(2)) b = c.in(2);
    if (c.has(3)) z = c.in(3);
    // Z of another shape (numpy broadcasting, which the row does not do): added after
    std::optional<TensorAny> late;
    if (z && z->shape() != out) late = std::exchange(z, std::nullopt);
    const bool after = late.has_value();
    TensorAny y = ops::detail::conv_fused(x, w, b, z, spec, out, after ? -inf : lo, after ? inf : hi);
    if (late) {
        auto [a, r] = align(std::move(y), *late);
        y = ops::add(std::move(a), std::move(r));
        if (!std::isinf(lo) || !std::isinf(hi)) y = ops::clamp(std::move(y), lo, hi);
    }
    if (act == "LeakyRelu") return {ops::leaky_relu(y, p.empty() ? 0.01 : p[0])};
    if (act == "Sigmoid") return {ops::sigmoid(y)};
    if (act == "Tanh") return {ops::tanh(y)};
    if (act == "HardSigmoid") {
        const double alpha = p.size() > 0 ? p[0] : 0.2, beta = p.size() > 1 ? p[1] : 0.5;
        return {ops::clamp(ops::add_scalar(ops::mul_scalar(y, alpha), beta), 0.0, 1.0)};
    }
    return {y};
}

}  // namespace

void add_fused_ops(OpTable& t) {
    t.add("FusedConv", 1, fused_conv, "com.microsoft");
}

}  // namespace burn::onnx::detail
