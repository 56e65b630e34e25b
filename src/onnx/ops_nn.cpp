// ONNX neural-network ops: Conv, ConvTranspose, MaxPool, AveragePool, the global pools,
// BatchNormalization (inference), InstanceNormalization and LayerNormalization.
#include <algorithm>
#include <limits>

#include "burn/tensor/module_ops.hpp"
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

/// The spatial geometry of a conv or pool node: kernel, strides, dilations and the begin/end pads
/// after auto_pad.
struct Window {
    int s = 0;
    std::vector<int64_t> kernel, stride, dilation, pad_begin, pad_end;
};

Window window_of(const OpContext& c, const TensorAny& x, std::vector<int64_t> kernel) {
    Window w;
    w.s = static_cast<int>(x.rank()) - 2;
    c.check(w.s >= 1 && w.s <= 3, "needs an input of rank 3 to 5 ([N, C, spatial...]), got ", x.shape());
    w.kernel = std::move(kernel);
    c.check(static_cast<int>(w.kernel.size()) == w.s, "kernel_shape has ", w.kernel.size(), " dims for ", w.s,
            " spatial dims");
    w.stride = c.attr_ints("strides", std::vector<int64_t>(static_cast<std::size_t>(w.s), 1));
    w.dilation = c.attr_ints("dilations", std::vector<int64_t>(static_cast<std::size_t>(w.s), 1));
    c.check(static_cast<int>(w.stride.size()) == w.s && static_cast<int>(w.dilation.size()) == w.s,
            "strides and dilations need one entry per spatial dim");
    const std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
    w.pad_begin.assign(static_cast<std::size_t>(w.s), 0);
    w.pad_end.assign(static_cast<std::size_t>(w.s), 0);
    if (auto_pad == "NOTSET") {
        const std::vector<int64_t> pads =
            c.attr_ints("pads", std::vector<int64_t>(2 * static_cast<std::size_t>(w.s), 0));
        c.check(static_cast<int>(pads.size()) == 2 * w.s, "pads has ", pads.size(), " entries, expected ",
                2 * w.s);
        for (int i = 0; i < w.s; ++i) {
            w.pad_begin[static_cast<std::size_t>(i)] = pads[static_cast<std::size_t>(i)];
            w.pad_end[static_cast<std::size_t>(i)] = pads[static_cast<std::size_t>(i + w.s)];
        }
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        for (int i = 0; i < w.s; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const int64_t in = x.shape()[i + 2], out = (in + w.stride[k] - 1) / w.stride[k];
            const int64_t total =
                std::max<int64_t>(0, (out - 1) * w.stride[k] + (w.kernel[k] - 1) * w.dilation[k] + 1 - in);
            const int64_t small = total / 2, big = total - small;
            w.pad_begin[k] = auto_pad == "SAME_UPPER" ? small : big;
            w.pad_end[k] = auto_pad == "SAME_UPPER" ? big : small;
        }
    } else {
        c.check(auto_pad == "VALID", "auto_pad '", auto_pad,
                "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    }
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        c.check(w.stride[k] >= 1 && w.dilation[k] >= 1 && w.kernel[k] >= 1 && w.pad_begin[k] >= 0 &&
                    w.pad_end[k] >= 0,
                "strides, dilations and the kernel must be positive and pads non-negative");
    }
    return w;
}

template <std::size_t N>
std::array<std::size_t, N> arr(const std::vector<int64_t>& v) {
    std::array<std::size_t, N> a{};
    for (std::size_t i = 0; i < N; ++i) a[i] = static_cast<std::size_t>(v[i]);
    return a;
}

template <std::size_t N>
ConvOptions<N> conv_options(const Window& w, int64_t groups) {
    ConvOptions<N> o;
    o.stride = arr<N>(w.stride);
    o.dilation = arr<N>(w.dilation);
    o.padding = arr<N>(w.pad_begin);
    o.padding_end = arr<N>(w.pad_end);
    o.groups = static_cast<std::size_t>(groups);
    return o;
}

std::vector<int64_t> weight_kernel(const TensorAny& w) {
    std::vector<int64_t> k;
    for (int i = 2; i < w.rank(); ++i) k.push_back(w.shape()[i]);
    return k;
}

Outs conv(const OpContext& c) {
    const TensorAny &x = c.in(0), &w = c.in(1);
    std::optional<TensorAny> b;
    if (c.has(2)) b = c.in(2);
    const Window win = window_of(c, x, c.attr_ints("kernel_shape", weight_kernel(w)));
    const int64_t groups = c.attr_int("group", 1);
    switch (win.s) {
        case 1:
            return {ops::conv1d(x, w, b, conv_options<1>(win, groups))};
        case 2:
            return {ops::conv2d(x, w, b, conv_options<2>(win, groups))};
        default:
            return {ops::conv3d(x, w, b, conv_options<3>(win, groups))};
    }
}

template <std::size_t N>
TensorAny conv_transpose_n(const TensorAny& x, const TensorAny& w, std::optional<TensorAny> b,
                           const Window& win, const std::vector<int64_t>& out_pad, int64_t groups) {
    ConvTransposeOptions<N> o;
    o.stride = arr<N>(win.stride);
    o.dilation = arr<N>(win.dilation);
    o.padding = arr<N>(win.pad_begin);
    o.padding_out = arr<N>(out_pad);
    o.groups = static_cast<std::size_t>(groups);
    if constexpr (N == 1) return ops::conv_transpose1d(x, w, std::move(b), o);
    if constexpr (N == 2) return ops::conv_transpose2d(x, w, std::move(b), o);
    if constexpr (N == 3) return ops::conv_transpose3d(x, w, std::move(b), o);
}

Outs conv_transpose(const OpContext& c) {
    const TensorAny &x = c.in(0), &w = c.in(1);
    std::optional<TensorAny> b;
    if (c.has(2)) b = c.in(2);
    c.check(!c.has_attr("output_shape"), "output_shape is not supported yet; give pads and output_padding");
    c.check(c.attr_string("auto_pad", "NOTSET") == "NOTSET",
            "auto_pad is not supported for ConvTranspose yet");
    const Window win = window_of(c, x, c.attr_ints("kernel_shape", weight_kernel(w)));
    std::vector<int64_t> out_pad =
        c.attr_ints("output_padding", std::vector<int64_t>(static_cast<std::size_t>(win.s), 0));
    // burn pads both ends alike; an asymmetric pair moves the difference into output_padding.
    std::vector<int64_t> extra(static_cast<std::size_t>(win.s), 0);
    Window sym = win;
    for (std::size_t i = 0; i < sym.pad_begin.size(); ++i) {
        c.check(win.pad_end[i] <= win.pad_begin[i], "pads with a larger end than begin are not supported");
        sym.pad_begin[i] = win.pad_end[i];
        extra[i] = win.pad_begin[i] - win.pad_end[i];
    }
    const int64_t groups = c.attr_int("group", 1);
    TensorAny y = win.s == 1   ? conv_transpose_n<1>(x, w, b, sym, out_pad, groups)
                  : win.s == 2 ? conv_transpose_n<2>(x, w, b, sym, out_pad, groups)
                               : conv_transpose_n<3>(x, w, b, sym, out_pad, groups);
    for (int i = 0; i < win.s; ++i)
        if (extra[static_cast<std::size_t>(i)] > 0) {
            const int64_t n = y.shape()[i + 2], e = extra[static_cast<std::size_t>(i)];
            y = ops::narrow(y, i + 2, e, n - e);
        }
    return {y};
}

/// x padded with value so that a pool with symmetric padding p equals the node's asymmetric one.
TensorAny pre_pad(const TensorAny& x, Window& w, double value) {
    TensorAny y = x;
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (w.pad_begin[k] == w.pad_end[k]) continue;
        const int64_t common = std::min(w.pad_begin[k], w.pad_end[k]);
        for (int side = 0; side < 2; ++side) {
            const int64_t n = (side == 0 ? w.pad_begin[k] : w.pad_end[k]) - common;
            if (!n) continue;
            Dims s = y.shape();
            s[i + 2] = n;
            TensorAny fill = ops::full(s, value, y.dtype(), y.device());
            y = side == 0 ? ops::cat({fill, y}, i + 2) : ops::cat({y, fill}, i + 2);
        }
        w.pad_begin[k] = w.pad_end[k] = common;
    }
    return y;
}

Outs max_pool(const OpContext& c) {
    Window w = window_of(c, c.in(0), c.attr_ints("kernel_shape"));
    c.check(w.s <= 2, "3-D max pooling is not supported yet");
    c.check(c.node().outputs.size() < 2 || c.node().outputs[1].empty(),
            "the Indices output is not supported yet");
    c.check(c.attr_int("storage_order", 0) == 0, "storage_order = 1 is not supported");
    const bool ceil = c.attr_int("ceil_mode", 0) != 0;
    TensorAny x = pre_pad(c.in(0), w, -std::numeric_limits<double>::infinity());
    if (w.s == 1)
        return {ops::max_pool1d(x, std::size_t(w.kernel[0]), std::size_t(w.stride[0]),
                                std::size_t(w.pad_begin[0]), std::size_t(w.dilation[0]), ceil)};
    return {ops::max_pool2d(x, arr<2>(w.kernel), arr<2>(w.stride), arr<2>(w.pad_begin), arr<2>(w.dilation),
                            ceil)};
}

Outs avg_pool(const OpContext& c) {
    Window w = window_of(c, c.in(0), c.attr_ints("kernel_shape"));
    c.check(w.s <= 2, "3-D average pooling is not supported yet");
    for (int64_t d : w.dilation) c.check(d == 1, "dilated average pooling is not supported");
    const bool ceil = c.attr_int("ceil_mode", 0) != 0, include = c.attr_int("count_include_pad", 0) != 0;
    bool asym = false;
    for (int i = 0; i < w.s; ++i) asym |= w.pad_begin[std::size_t(i)] != w.pad_end[std::size_t(i)];
    c.check(!asym || include, "asymmetric pads with count_include_pad = 0 are not supported");
    TensorAny x = pre_pad(c.in(0), w, 0);
    if (w.s == 1)
        return {ops::avg_pool1d(x, std::size_t(w.kernel[0]), std::size_t(w.stride[0]),
                                std::size_t(w.pad_begin[0]), include, ceil)};
    return {ops::avg_pool2d(x, arr<2>(w.kernel), arr<2>(w.stride), arr<2>(w.pad_begin), include, ceil)};
}

TensorAny reduce_spatial(TensorAny x, bool max) {
    for (int d = 2; d < x.rank(); ++d) x = max ? ops::max_dim(x, d) : ops::mean_dim(x, d);
    return x;
}

/// A per-channel parameter [C] shaped to broadcast against [N, C, ...] of rank r.
TensorAny per_channel(const TensorAny& p, int64_t r) {
    Dims s = Dims::filled(static_cast<int>(r), 1);
    s[1] = p.shape().numel();
    return ops::reshape(p, s);
}

Outs batch_norm(const OpContext& c) {
    c.check(c.attr_int("training_mode", 0) == 0, "training_mode = 1 is not supported (export in eval mode)");
    const TensorAny& x = c.in(0);
    c.check(x.rank() >= 2, "needs an input of rank >= 2, got ", x.shape());
    const double eps = c.attr_float("epsilon", 1e-5);
    const int64_t r = x.rank();
    TensorAny inv = ops::recip(ops::sqrt(ops::add_scalar(per_channel(c.in(4), r), eps)));
    TensorAny scale = ops::mul(per_channel(c.in(1), r), inv);
    TensorAny shift = ops::sub(per_channel(c.in(2), r), ops::mul(per_channel(c.in(3), r), scale));
    return {ops::add(ops::mul(x, scale), shift)};
}

Outs instance_norm(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() >= 3, "needs [N, C, spatial...], got ", x.shape());
    const double eps = c.attr_float("epsilon", 1e-5);
    const Dims shape = x.shape();
    TensorAny flat =
        ops::reshape(x, Dims{shape[0] * shape[1], shape.numel() / std::max<int64_t>(1, shape[0] * shape[1])});
    TensorAny y = ops::reshape(ops::layer_norm(flat, std::nullopt, std::nullopt, eps), shape);
    return {ops::add(ops::mul(y, per_channel(c.in(1), x.rank())), per_channel(c.in(2), x.rank()))};
}

Outs layer_norm(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t axis = c.axis(c.attr_int("axis", -1), x.rank());
    const double eps = c.attr_float("epsilon", 1e-5);
    const Dims shape = x.shape();
    int64_t outer = 1;
    for (int i = 0; i < axis; ++i) outer *= shape[i];
    const int64_t inner = outer == 0 ? 0 : shape.numel() / std::max<int64_t>(outer, 1);
    TensorAny y = ops::reshape(
        ops::layer_norm(ops::reshape(x, Dims{outer, inner}), std::nullopt, std::nullopt, eps), shape);
    y = ops::mul(to_rank(y, x.rank()), to_rank(c.in(1), x.rank()));
    if (c.has(2)) y = ops::add(y, to_rank(c.in(2), x.rank()));
    c.check(c.node().outputs.size() <= 1, "the Mean and InvStdDev outputs are not supported");
    return {y};
}

}  // namespace

void add_nn_ops(OpTable& t) {
    t.add("Conv", 1, conv);
    t.add("ConvTranspose", 1, conv_transpose);
    t.add("MaxPool", 1, max_pool);
    t.add("AveragePool", 1, avg_pool);
    t.add("GlobalAveragePool", 1,
          [](const OpContext& c) -> Outs { return {reduce_spatial(c.in(0), false)}; });
    t.add("GlobalMaxPool", 1, [](const OpContext& c) -> Outs { return {reduce_spatial(c.in(0), true)}; });
    t.add("BatchNormalization", 1, batch_norm);
    t.add("InstanceNormalization", 1, instance_norm);
    t.add("LayerNormalization", 17, layer_norm);
}

}  // namespace burn::onnx::detail
