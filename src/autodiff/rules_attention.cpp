// Gradient rule of the attention row: one node per attention call, whose backward is one
// attention_backward call (the fused kernel on CUDA and the CPU, its decomposition elsewhere) from the
// saved inputs and the forward's {out, lse}. attention_backward is flagged non-differentiable (no
// second derivatives). The lse output is internal; its gradient (d lse / d s = p) is composed here for
// completeness, materialising the scores.
#include <cmath>
#include <limits>
#include <optional>

#include "autodiff/rules.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/attention.hpp"

namespace burn::autodiff {

namespace {

using Grads = std::vector<TensorAny>;

/// {dq, dk} from the cotangent of lse: ds = p * glse (row-wise), p = exp(s - lse) at the visible keys.
std::array<TensorAny, 2> lse_grads(const attrs::Attention& a, const VjpContext& c) {
    const TensorAny &q = c.x[0], &k = c.x[1], &lse = c.y[1];
    const DType sd = lse.dtype();
    const int r = q.rank();
    const int64_t lq = q.shape()[r - 2], lk = k.shape()[r - 2];
    TensorAny qs = ops::cast(q, sd), ks = ops::cast(k, sd);
    TensorAny s = ops::mul_scalar(ops::matmul(qs, ops::swap_dims(ks, r - 2, r - 1)), a.scale);
    const double minus_inf = -std::numeric_limits<double>::infinity();
    if (a.has_mask) s = ops::mask_fill(std::move(s), c.x[3], minus_inf);
    if (a.causal) {
        Dims rs = Dims::filled(r, 1), cs = Dims::filled(r, 1);
        rs[r - 2] = lq, cs[r - 1] = lk;
        const TensorAny rows = ops::reshape(ops::arange(0, lq, 1, DType::i64, q.device()), rs);
        const TensorAny cols = ops::reshape(ops::arange(0, lk, 1, DType::i64, q.device()), cs);
        s = ops::mask_fill(std::move(s), ops::greater(cols, ops::add_scalar(rows, double(lk - lq))),
                           minus_inf);
    }
    TensorAny p = ops::exp(ops::sub(s, ops::unsqueeze_dim(lse, r - 1)));
    p = ops::mask_fill(p, ops::is_nan(p), 0.0);  // a row with no key left
    TensorAny ds = ops::mul_scalar(ops::mul(p, ops::unsqueeze_dim(ops::cast(c.g[1], sd), r - 1)), a.scale);
    return {ops::cast(ops::matmul(ds, ks), q.dtype()),
            ops::cast(ops::matmul(ops::swap_dims(ds, r - 2, r - 1), qs), k.dtype())};
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
