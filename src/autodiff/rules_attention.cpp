// Gradient rule of the attention row: one node per attention call, whose backward is one
// attention_backward call (the fused kernel on CUDA and the CPU, its decomposition elsewhere) from the
// saved inputs and the forward's {out, lse}. attention_backward is flagged non-differentiable (no
// second derivatives). The lse output is internal; its gradient (d lse / d s = p) is composed here for
// completeness from the same two rows (no score matrix).
#include <array>
#include <optional>

#include "autodiff/rules.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/attention.hpp"

namespace burn::autodiff {

namespace {

using Grads = std::vector<TensorAny>;

/// {dq, dk} from the cotangent of lse. d lse_i / d s_ij = p_ij, so with w_i = glse_i: dq_i = scale w_i
/// sum_j p_ij k_j = scale w_i * attention(q, k, k)_i, and dk_j = scale sum_i p_ij (w_i q_i) = scale * the
/// dv of attention_backward with v = k and g = w q (its dq, dk are not used). The attention rows do it
/// blockwise, on any device that runs them.
std::array<TensorAny, 2> lse_grads(const attrs::Attention& a, const VjpContext& c) {
    const TensorAny &q = c.x[0], &k = c.x[1], &lse = c.y[1];
    std::optional<TensorAny> mask;
    if (a.has_mask) mask = c.x[3];
    const TensorAny w = ops::unsqueeze_dim(ops::cast(c.g[1], q.dtype()), q.rank() - 1);
    const TensorAny pk = ops::attention_lse(q, k, k, mask, a.causal, a.scale)[0];
    const TensorAny wq = ops::mul(q, w);
    const TensorAny dk = ops::attention_backward(wq, q, k, k, wq, lse, mask, a.causal, a.scale)[2];
    return {ops::mul_scalar(ops::mul(pk, w), a.scale), ops::mul_scalar(dk, a.scale)};
}

Grads attention_rule(const VjpContext& c) {
    const auto a = c.call.attrs<attrs::Attention>();
    Grads out(c.x.size());
    if (!c.needs[0] && !c.needs[1] && !c.needs[2]) return out;
    if (c.g[0].defined()) {
        std::optional<TensorAny> mask;
        if (a.has_mask) mask = c.x[3];
        auto r =
            ops::attention_backward(c.g[0], c.x[0], c.x[1], c.x[2], c.y[0], c.y[1], mask, a.causal, a.scale);
        for (std::size_t i = 0; i < 3; ++i)
            if (c.needs[i]) out[i] = std::move(r[i]);
    }
    if (c.g.size() > 1 && c.g[1].defined() && (c.needs[0] || c.needs[1])) {
        auto extra = lse_grads(a, c);
        for (std::size_t i = 0; i < 2; ++i)
            if (c.needs[i]) out[i] = out[i].defined() ? ops::add(out[i], extra[i]) : extra[i];
    }
    for (std::size_t i = 0; i < 3; ++i)
        if (c.needs[i] && !out[i].defined()) out[i] = zeros_as(c.x[i]);
    return out;
}

}  // namespace

void register_attention_rules(RuleTable& t) {
    t[static_cast<std::size_t>(OpId::attention)] = &attention_rule;
}

}  // namespace burn::autodiff
