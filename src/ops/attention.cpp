// Frontend of the attention and attention_backward rows (scaled dot-product attention): validation,
// then one OpCall. Without a kernel of its own a backend runs the row's decomposition (decompose_nn.cpp:
// matmul, masks, softmax, matmul). Autodiff records one node per attention call; its rule
// (autodiff/rules_attention.cpp) calls attention_backward with the saved out and lse.
#include "ops/attention.hpp"

#include <cmath>

#include "ops/common.hpp"
#include "ops/fused_nn.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

namespace detail {

/// The checks of q [..., Lq, D], k [..., Lk, D], v [..., Lk, Dv] and mask (broadcastable to
/// [..., Lq, Lk]), shared by the frontend and infer_attention.
static void check_attention(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v,
                            const TensorMeta* mask) {
    BURN_CHECK_KIND(is_float(q.dtype), dtype, "[attention] q must be a float tensor, got ",
                    op_infer::describe(q));
    BURN_CHECK_KIND(k.dtype == q.dtype && v.dtype == q.dtype, dtype, "[attention] q ", op_infer::describe(q),
                    ", k ", op_infer::describe(k), " and v ", op_infer::describe(v),
                    " must have one dtype; cast them");
    const int r = q.shape.rank();
    BURN_CHECK_KIND(r >= 2 && k.shape.rank() == r && v.shape.rank() == r, shape,
                    "[attention] q, k and v must have one rank >= 2 ([..., seq, dim]), got q ",
                    op_infer::describe(q), ", k ", op_infer::describe(k), ", v ", op_infer::describe(v));
    for (int i = 0; i + 2 < r; ++i)
        BURN_CHECK_KIND(k.shape[i] == q.shape[i] && v.shape[i] == q.shape[i], shape, "[attention] q ",
                        op_infer::describe(q), ", k ", op_infer::describe(k), " and v ",
                        op_infer::describe(v), " must have equal leading (batch, head) dims; dim ", i,
                        " differs");
    BURN_CHECK_KIND(k.shape[r - 1] == q.shape[r - 1], shape, "[attention] k ", op_infer::describe(k),
                    " must have q's last dim (", q.shape[r - 1], "), got ", k.shape[r - 1]);
    BURN_CHECK_KIND(v.shape[r - 2] == k.shape[r - 2], shape, "[attention] v ", op_infer::describe(v),
                    " must have one row per key of k ", op_infer::describe(k));
    if (!mask) return;
    BURN_CHECK_KIND(mask->dtype == DType::boolean, dtype, "[attention] the mask must be Bool (true = the ",
                    "key is not attended), got ", op_infer::describe(*mask));
    const int mr = mask->shape.rank();
    bool fits = mr <= r;
    for (int i = 0; fits && i < mr; ++i) {
        const int64_t m = mask->shape[mr - 1 - i];
        const int64_t want = i == 0 ? k.shape[r - 2] : i == 1 ? q.shape[r - 2] : q.shape[r - 1 - i];
        fits = m == want || m == 1;
    }
    BURN_CHECK_KIND(fits, shape, "[attention] mask ", op_infer::describe(*mask),
                    " must broadcast to the scores [", "..., ", q.shape[r - 2], ", ", k.shape[r - 2],
                    "] of q ", op_infer::describe(q), " and k ", op_infer::describe(k));
}

}  // namespace detail

using namespace detail;

std::array<TensorAny, 2> attention_lse(TensorAny q, TensorAny k, TensorAny v, std::optional<TensorAny> mask,
                                       bool causal, std::optional<double> scale) {
    const char* op = "attention";
    for (const TensorAny* t : {&q, &k, &v}) check_defined(*t, op);
    if (mask) check_defined(*mask, op);
    const TensorMeta mq = meta(q), mk = meta(k), mv = meta(v);
    std::optional<TensorMeta> mm;
    if (mask) mm = meta(*mask);
    check_attention(mq, mk, mv, mm ? &*mm : nullptr);
    const double s = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(q.shape().back()));
    BURN_CHECK(std::isfinite(s), "[attention] scale must be finite, got ", s);
    if (mask && mask->rank() < q.rank()) {  // leading 1s: the row's mask has the scores' rank
        Dims padded = Dims::filled(q.rank() - mask->rank(), 1);
        for (int i = 0; i < mask->rank(); ++i) padded.push_back(mask->shape()[i]);
        mask = reshape(std::move(*mask), padded);
        mm = meta(*mask);
    }
    std::vector<TensorMeta> in{mq, mk, mv};
    TensorRefs refs = take(std::move(q), std::move(k), std::move(v));
    if (mask) {
        in.push_back(*mm);
        refs.push_back(std::move(*mask).ref());
    }
    TensorRefs out =
        run(make(OpId::attention, attrs::Attention{causal, mask.has_value(), s}, in), std::move(refs));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1]))};
}

TensorAny attention(TensorAny q, TensorAny k, TensorAny v, std::optional<TensorAny> mask, bool causal,
                    std::optional<double> scale) {
    return attention_lse(std::move(q), std::move(k), std::move(v), std::move(mask), causal, scale)[0];
}

std::array<TensorAny, 3> attention_backward(TensorAny g, TensorAny q, TensorAny k, TensorAny v, TensorAny out,
                                            TensorAny lse, std::optional<TensorAny> mask, bool causal,
                                            double scale) {
    const char* op = "attention_backward";
    for (const TensorAny* t : {&g, &q, &k, &v, &out, &lse}) check_defined(*t, op);
    if (mask) check_defined(*mask, op);
    std::vector<TensorMeta> in{meta(g), meta(q), meta(k), meta(v), meta(out), meta(lse)};
    if (mask) in.push_back(meta(*mask));
    TensorRefs refs =
        take(std::move(g), std::move(q), std::move(k), std::move(v), std::move(out), std::move(lse));
    if (mask) refs.push_back(std::move(*mask).ref());
    TensorRefs r = run(make(OpId::attention_backward, attrs::Attention{causal, mask.has_value(), scale}, in),
                       std::move(refs));
    return {TensorAny(std::move(r[0])), TensorAny(std::move(r[1])), TensorAny(std::move(r[2]))};
}

}  // namespace burn::ops

namespace burn::op_infer {

namespace {

/// The metas of attention's outputs: out [..., Lq, Dv] (q's dtype) and lse [..., Lq] (statistics dtype).
Outs attention_outs(const TensorMeta& q, const TensorMeta& v) {
    Dims out = q.shape;
    out[out.rank() - 1] = v.shape[out.rank() - 1];
    Dims rows = Dims::filled(q.shape.rank() - 1, 1);
    for (int i = 0; i + 1 < q.shape.rank(); ++i) rows[i] = q.shape[i];
    return {{q.dtype, out}, {ops::fused_stat_dtype(q.dtype), rows}};
}

}  // namespace

Outs infer_attention(const OpCall& c, Metas in) {
    const auto a = c.attrs<attrs::Attention>();
    const std::size_t n = a.has_mask ? 4 : 3;
    check_arity(c, in, n, n);
    ops::detail::check_attention(in[0], in[1], in[2], a.has_mask ? &in[3] : nullptr);
    BURN_CHECK(std::isfinite(a.scale), "[attention] scale must be finite, got ", a.scale);
    return attention_outs(in[0], in[2]);
}

Outs infer_attention_backward(const OpCall& c, Metas in) {
    const auto a = c.attrs<attrs::Attention>();
    const std::size_t n = a.has_mask ? 7 : 6;
    check_arity(c, in, n, n);
    ops::detail::check_attention(in[1], in[2], in[3], a.has_mask ? &in[6] : nullptr);
    BURN_CHECK(std::isfinite(a.scale), "[attention_backward] scale must be finite, got ", a.scale);
    const Outs fwd = attention_outs(in[1], in[3]);
    BURN_CHECK_KIND(in[0] == fwd[0] && in[4] == fwd[0], shape, "[attention_backward] the gradient ",
                    op_infer::describe(in[0]), " and out ", op_infer::describe(in[4]), " must be ",
                    op_infer::describe(fwd[0]), " (attention's output for q ", op_infer::describe(in[1]),
                    " and v ", op_infer::describe(in[3]), ")");
    BURN_CHECK_KIND(in[5] == fwd[1], shape, "[attention_backward] lse ", op_infer::describe(in[5]),
                    " must be ", op_infer::describe(fwd[1]), " (attention's second output)");
    return {in[1], in[2], in[3]};
}

}  // namespace burn::op_infer
