// ONNX nodes for the module rows (opset 17): conv and its transpose, pools, interpolate and layer_norm.
// Each geometry is checked against the output extent the call records; a call ONNX cannot express
// with the same result is left to dispatch's decomposition (can_export_nn says no) or reported.
#include <string>
#include <vector>

#include "burn/backend/op_attrs.hpp"
#include "onnx/export/emit.hpp"

namespace burn::onnx::exporter {

namespace {

/// The end padding that makes ONNX's floor rule give `out` positions (-1 when none does).
int64_t end_pad(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d, int64_t pb) {
    const int64_t pe = (out - 1) * s + d * (k - 1) + 1 - in - pb;
    return pe < 0 ? -1 : pe;
}

struct PoolPlan {
    std::vector<int64_t> pads;  // begin h, w, end h, w
    bool ceil = false;
    bool ok = false;
};

/// A pool with the given begin/end pads: floor mode when it gives out, else ceil mode.
PoolPlan pool_plan(const Dims& in, const Dims& out, std::array<int64_t, 2> k, std::array<int64_t, 2> s,
                   std::array<int64_t, 2> pb, std::array<int64_t, 2> pe, std::array<int64_t, 2> d) {
    PoolPlan p;
    p.pads = {pb[0], pb[1], pe[0], pe[1]};
    bool floor_ok = true, ceil_ok = true;
    for (int i = 0; i < 2; ++i) {
        const int64_t span = in[2 + i] + pb[i] + pe[i] - d[i] * (k[i] - 1) - 1;
        if (span < 0) return p;
        floor_ok &= span / s[i] + 1 == out[2 + i];
        ceil_ok &= (span + s[i] - 1) / s[i] + 1 == out[2 + i];
    }
    p.ok = floor_ok || ceil_ok;
    p.ceil = !floor_ok;
    return p;
}

PoolPlan max_pool_plan(const OpCall& c, const Dims& in) {
    const auto a = c.attrs<attrs::MaxPool2d>();
    const auto& w = a.window;
    PoolPlan p = pool_plan(in, c.shape, w.kernel, w.stride, w.pad, w.pad, w.dilation);
    if (p.ok) return p;
    // the output extent folds an end padding of its own: write it explicitly
    p.pads = {w.pad[0], w.pad[1], 0, 0};
    for (int i = 0; i < 2; ++i) {
        const int64_t pe =
            end_pad(in[2 + i], c.shape[2 + i], w.kernel[i], w.stride[i], w.dilation[i], w.pad[i]);
        if (pe < 0 || pe >= w.kernel[i]) return p;
        p.pads[static_cast<std::size_t>(2 + i)] = pe;
    }
    p.ok = true;
    return p;
}

PoolPlan avg_pool_plan(const OpCall& c, const Dims& in) {
    const auto a = c.attrs<attrs::AvgPool2d>();
    return pool_plan(in, c.shape, a.kernel, a.stride, a.pad_begin, a.pad_end, {1, 1});
}

bool adaptive_ok(const Dims& in, const Dims& out) {
    return (out[2] == 1 && out[3] == 1) || (in[2] % out[2] == 0 && in[3] % out[3] == 0);
}

std::vector<int64_t> first_n(const std::array<int64_t, 3>& a, int n) {
    return std::vector<int64_t>(a.begin(), a.begin() + n);
}

void emit_conv(Emitter& e) {
    const OpCall& c = e.call();
    const auto a = c.attrs<attrs::Conv>();
    const int S = a.spatial;
    const Dims& x = e.in_meta(0).shape;
    const Dims& w = e.in_meta(1).shape;
    std::vector<int64_t> kernel, pads(static_cast<std::size_t>(2 * S));
    for (int i = 0; i < S; ++i) {
        kernel.push_back(w[2 + i]);
        pads[static_cast<std::size_t>(i)] = a.pad_begin[static_cast<std::size_t>(i)];
    }
    std::vector<Attr> at = {attr_ints("kernel_shape", kernel), attr_ints("strides", first_n(a.stride, S)),
                            attr_ints("dilations", first_n(a.dilation, S)), attr_i("group", a.groups)};
    std::vector<std::string> ins;
    for (std::size_t i = 0; i < e.num_inputs(); ++i) ins.push_back(e.in(i));
    if (c.op == OpId::conv) {
        for (int i = 0; i < S; ++i) {
            const auto u = static_cast<std::size_t>(i);
            const int64_t pe =
                end_pad(x[2 + i], c.shape[2 + i], kernel[u], a.stride[u], a.dilation[u], a.pad_begin[u]);
            if (pe < 0) e.lacks("an output extent shorter than the padded input gives");
            pads[u + static_cast<std::size_t>(S)] = pe;
        }
        at.push_back(attr_ints("pads", pads));
        e.op1("Conv", ins, e.out(0), at);
        return;
    }
    // conv_backward_input: the transpose of conv with the forward's geometry.
    std::vector<int64_t> out_pad;
    for (int i = 0; i < S; ++i) {
        const auto u = static_cast<std::size_t>(i);
        pads[u + static_cast<std::size_t>(S)] = a.pad_end[u];
        const int64_t natural = a.stride[u] * (x[2 + i] - 1) + a.dilation[u] * (kernel[u] - 1) + 1 -
                                a.pad_begin[u] - a.pad_end[u];
        const int64_t extra = c.shape[2 + i] - natural;
        if (extra < 0 || extra >= std::max(a.stride[u], a.dilation[u]))
            e.lacks("an output extent ConvTranspose cannot give (output_padding " + std::to_string(extra) +
                    ")");
        out_pad.push_back(extra);
    }
    at.push_back(attr_ints("pads", pads));
    at.push_back(attr_ints("output_padding", out_pad));
    e.op1("ConvTranspose", ins, e.out(0), at);
}

void emit_layer_norm(Emitter& e) {
    const OpCall& c = e.call();
    const auto a = c.attrs<attrs::LayerNorm>();
    if (e.out_used(1) || e.out_used(2)) e.lacks("its mean and rstd outputs are read (a training graph)");
    const TensorMeta& x = e.in_meta(0);
    const int64_t D = x.shape[x.shape.rank() - 1];
    std::size_t next = 1;
    const std::string gamma = a.has_gamma ? e.in(next++) : "";
    const std::string beta = a.has_beta ? e.in(next++) : "";
    if (!a.rms) {
        std::vector<std::string> ins = {
            e.in(0),
            a.has_gamma
                ? gamma
                : e.const_data(TensorData(std::vector<double>(static_cast<std::size_t>(D), 1.0), Dims{D})
                                   .convert(x.dtype))};
        if (a.has_beta) ins.push_back(beta);
        e.op1("LayerNormalization", ins, e.out(0), {attr_i("axis", -1), attr_f("epsilon", a.eps)});
        return;
    }
    // RMSNorm: x / sqrt(mean(x^2) + eps) * gamma + beta
    const std::string xs = e.in(0);
    auto ms =
        e.op1("ReduceMean", {e.op1("Mul", {xs, xs})}, "", {attr_ints("axes", {-1}), attr_i("keepdims", 1)});
    auto rms = e.op1("Sqrt", {e.op1("Add", {ms, e.const_scalar(a.eps, x.dtype)})});
    std::string y = e.op1("Div", {xs, rms}, a.has_gamma || a.has_beta ? "" : e.out(0));
    if (a.has_gamma) y = e.op1("Mul", {y, gamma}, a.has_beta ? "" : e.out(0));
    if (a.has_beta) e.op1("Add", {y, beta}, e.out(0));
}

void emit_interpolate(Emitter& e) {
    const OpCall& c = e.call();
    const auto a = c.attrs<attrs::Interpolate>();
    const std::string x = e.in(0);
    std::string sizes;
    if (e.in_batch(0) >= 0) {  // [N, C] from the input's shape, [H, W] fixed
        auto nc = e.op1("Slice", {e.op1("Shape", {x}), e.const_i64({0}), e.const_i64({2})});
        sizes = e.op1("Concat", {nc, e.const_i64({c.shape[2], c.shape[3]})}, "", {attr_i("axis", 0)});
    } else {
        sizes = e.const_i64(vec(c.shape));
    }
    std::vector<Attr> at;
    const std::string ctm = a.align_corners ? "align_corners" : "pytorch_half_pixel";
    if (a.mode == 0) {
        at = {attr_s("mode", "nearest"), attr_s("coordinate_transformation_mode", "asymmetric"),
              attr_s("nearest_mode", "floor")};
    } else if (a.mode == 3) {  // nearest-exact: round_prefer_ceil((o + 0.5) in / out - 0.5)
        at = {attr_s("mode", "nearest"), attr_s("coordinate_transformation_mode", "half_pixel"),
              attr_s("nearest_mode", "round_prefer_ceil")};
    } else if (a.mode == 1) {
        at = {attr_s("mode", "linear"), attr_s("coordinate_transformation_mode", ctm)};
    } else {
        at = {attr_s("mode", "cubic"), attr_s("coordinate_transformation_mode", ctm),
              attr_f("cubic_coeff_a", -0.75)};
    }
    e.op1("Resize", {x, "", "", sizes}, e.out(0), at);
}

}  // namespace

bool can_export_nn(const OpCall& c, const std::vector<TensorMeta>& in) {
    switch (c.op) {
        case OpId::conv:
        case OpId::conv_backward_input:
        case OpId::layer_norm:
        case OpId::interpolate:
            return true;
        case OpId::max_pool2d:
            return max_pool_plan(c, in.at(0).shape).ok;
        case OpId::avg_pool2d:
            return avg_pool_plan(c, in.at(0).shape).ok;
        case OpId::adaptive_avg_pool2d:
            return adaptive_ok(in.at(0).shape, c.shape);
        default:
            return false;
    }
}

void emit_nn(Emitter& e) {
    const OpCall& c = e.call();
    const Dims& in = e.in_meta(0).shape;
    switch (c.op) {
        case OpId::conv:
        case OpId::conv_backward_input:
            emit_conv(e);
            return;
        case OpId::layer_norm:
            emit_layer_norm(e);
            return;
        case OpId::interpolate:
            emit_interpolate(e);
            return;
        case OpId::max_pool2d: {
            if (e.out_used(1)) e.lacks("its indices output is read (ONNX's indices count whole tensors)");
            const auto w = c.attrs<attrs::MaxPool2d>().window;
            const PoolPlan p = max_pool_plan(c, in);
            if (!p.ok) e.lacks("a window geometry that MaxPool cannot express");
            e.op1("MaxPool", {e.in(0)}, e.out(0),
                  {attr_ints("kernel_shape", {w.kernel[0], w.kernel[1]}),
                   attr_ints("strides", {w.stride[0], w.stride[1]}),
                   attr_ints("dilations", {w.dilation[0], w.dilation[1]}), attr_ints("pads", p.pads),
                   attr_i("ceil_mode", p.ceil ? 1 : 0)});
            return;
        }
        case OpId::avg_pool2d: {
            const auto a = c.attrs<attrs::AvgPool2d>();
            const PoolPlan p = avg_pool_plan(c, in);
            if (!p.ok) e.lacks("a window geometry that AveragePool cannot express");
            e.op1("AveragePool", {e.in(0)}, e.out(0),
                  {attr_ints("kernel_shape", {a.kernel[0], a.kernel[1]}),
                   attr_ints("strides", {a.stride[0], a.stride[1]}), attr_ints("pads", p.pads),
                   attr_i("ceil_mode", p.ceil ? 1 : 0),
                   attr_i("count_include_pad", a.count_include_pad ? 1 : 0)});
            return;
        }
        case OpId::adaptive_avg_pool2d: {
            const Dims& out = c.shape;
            if (out[2] == 1 && out[3] == 1) {
                e.op1("GlobalAveragePool", {e.in(0)}, e.out(0));
                return;
            }
            if (!adaptive_ok(in, out)) e.lacks("an output size that does not divide the input");
            const int64_t kh = in[2] / out[2], kw = in[3] / out[3];
            e.op1("AveragePool", {e.in(0)}, e.out(0),
                  {attr_ints("kernel_shape", {kh, kw}), attr_ints("strides", {kh, kw})});
            return;
        }
        default:
            e.lacks("no ONNX mapping for this row and no decomposition");
    }
}

}  // namespace burn::onnx::exporter
