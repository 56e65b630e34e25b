// Gradient rules of the fused layer_norm and cross_entropy ops: each calls its adjoint op
// (layer_norm_backward, cross_entropy_backward). The adjoints are not differentiable again (they are
// flagged non-differentiable: no second derivatives through these ops). The statistics outputs
// (mean, rstd, lse) are internal, but their gradients are composed here for completeness.
#include <optional>

#include "autodiff/rules.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/fused_nn.hpp"

namespace burn::autodiff {

namespace {

using Grads = std::vector<TensorAny>;

/// A per-row vector [rows] as [..., 1] for x's shape.
TensorAny row_view(const TensorAny& v, const Dims& x_shape) {
    Dims s = x_shape;
    s[s.rank() - 1] = 1;
    return ops::reshape(v, s);
}

Grads layer_norm_rule(const VjpContext& c) {
    const auto a = c.call.attrs<attrs::LayerNorm>();
    const bool has_g = a.has_gamma, has_b = a.has_beta, rms = a.rms;
    const TensorAny& x = c.x[0];
    const std::size_t gi = 1, bi = has_g ? 2 : 1;
    const bool need_g = has_g && c.needs[gi], need_b = has_b && c.needs[bi];
    Grads out(c.x.size());
    TensorAny dx;
    if (c.g[0].defined() && (c.needs[0] || need_g || need_b)) {
        std::optional<TensorAny> gamma;
        if (has_g) gamma = c.x[gi];
        auto r = ops::layer_norm_backward(c.g[0], x, c.y[1], c.y[2], gamma, need_g || need_b, rms);
        dx = std::move(r[0]);
        if (need_g) out[gi] = std::move(r[1]);
        if (need_b) out[bi] = std::move(r[2]);
    }
    if (!c.needs[0]) return out;
    // d mean / dx = 1 / D (0 for rms: the mean output is constant 0); d rstd / dx = -rstd^3 (x - mean) / D.
    const double inv_d = 1.0 / static_cast<double>(x.shape().back());
    const DType sd = ops::fused_stat_dtype(x.dtype());
    TensorAny extra;
    if (!rms && c.g.size() > 1 && c.g[1].defined())
        extra = ops::mul_scalar(row_view(c.g[1], x.shape()), inv_d);
    if (c.g.size() > 2 && c.g[2].defined()) {
        TensorAny rs = c.y[2];
        TensorAny k = ops::mul_scalar(ops::mul(c.g[2], ops::mul(rs, ops::mul(rs, rs))), -inv_d);
        TensorAny xc = ops::sub(ops::cast(x, sd), row_view(c.y[1], x.shape()));
        TensorAny t = ops::mul(xc, row_view(k, x.shape()));
        extra = extra.defined() ? ops::add(extra, t) : t;
    }
    if (extra.defined()) {
        extra = ops::cast(extra, x.dtype());
        dx = dx.defined() ? ops::add(dx, extra) : ops::add(zeros_as(x), extra);
    }
    out[0] = dx.defined() ? dx : zeros_as(x);
    return out;
}

Grads cross_entropy_rule(const VjpContext& c) {
    Grads out(c.x.size());
    if (!c.needs[0]) return out;
    const TensorAny &logits = c.x[0], &targets = c.x[1];
    TensorAny d;
    if (c.g[0].defined())
        d = ops::cross_entropy_backward(c.g[0], logits, targets, c.y[1],
                                        c.call.attrs<attrs::CrossEntropy>().smoothing);
    if (c.g.size() > 1 && c.g[1].defined()) {  // d lse / d logits = softmax
        TensorAny w = ops::reshape(ops::cast(c.g[1], logits.dtype()), Dims{-1, 1});
        TensorAny t = ops::mul(ops::softmax(logits, 1), w);
        d = d.defined() ? ops::add(d, t) : t;
    }
    out[0] = d.defined() ? d : zeros_as(logits);
    return out;
}

}  // namespace

void register_norm_rules(RuleTable& t) {
    t[static_cast<std::size_t>(OpId::layer_norm)] = &layer_norm_rule;
    t[static_cast<std::size_t>(OpId::cross_entropy)] = &cross_entropy_rule;
}

}  // namespace burn::autodiff
