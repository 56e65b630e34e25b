// Decompositions of the fused normalisation, loss and optimizer rows (layer_norm[_backward],
// cross_entropy[_backward], adam_step[_multi], attention[_backward]), following backends/cpu/norm.cpp and
// optim.cpp: statistics (mean, rstd, lse) in fused_stat_dtype (f32 for f16/bf16 inputs), label smoothing, and
// target indices checked by gather / scatter_add (an out-of-range target is an IndexError there too).
#include "ops/common.hpp"
#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;

/// x as [rows, D] (rows = the product of the leading dims; D = the last).
TensorAny as_rows(const TensorAny& x) {
    const int64_t d = x.shape().back();
    int64_t rows = 1;
    for (int i = 0; i + 1 < x.rank(); ++i) rows *= x.shape()[i];
    return reshape(x, Dims{rows, d});
}

/// A [D] parameter as a [1, D] row in dtype dt.
TensorAny param_row(const TensorAny& p, DType dt) {
    return reshape(cast(p, dt), Dims{1, p.numel()});
}

Outputs layer_norm(const OpCall& c, const Inputs& in) {
    const auto [has_gamma, has_beta, rms, eps] = c.attrs<attrs::LayerNorm>();
    TensorAny x = as_rows(up(in[0]));
    const int64_t rows = x.shape()[0], d = x.shape()[1];
    const Dims stat{rows, 1};
    // rows of D = 0: mean 0 and variance 0, as the kernel
    TensorAny mean = full(stat, 0, x.dtype(), x.device());
    TensorAny var = mean;
    if (d > 0) {
        if (!rms) mean = div(sum_dim(x, 1), scalar(x, double(d)));
        TensorAny xc = rms ? x : sub(x, mean);
        var = div(sum_dim(mul(xc, xc), 1), scalar(x, double(d)));
    }
    TensorAny rstd = div(scalar(x, 1), sqrt(add(var, scalar(x, eps))));
    TensorAny y = mul(sub(x, mean), rstd);
    if (has_gamma) y = mul(y, param_row(in[1], x.dtype()));
    if (has_beta) y = add(y, param_row(in[has_gamma ? 2 : 1], x.dtype()));
    return {down(reshape(y, in[0].shape()), c.dtype), reshape(mean, Dims{rows}), reshape(rstd, Dims{rows})};
}

Outputs layer_norm_backward(const OpCall& c, const Inputs& in) {
    // dx = rstd * (gh - mean(gh) - xhat * mean(gh * xhat)), gh = g * gamma, xhat = (x - mean) * rstd
    // (rms: without the mean(gh) term); dgamma = sum_rows(g * xhat), dbeta = sum_rows(g)
    const auto [has_gamma, want, rms] = c.attrs<attrs::LayerNormBackward>();
    TensorAny g = as_rows(up(in[0])), x = as_rows(up(in[1]));
    const int64_t rows = x.shape()[0], d = x.shape()[1];
    TensorAny mean = reshape(in[2], Dims{rows, 1}), rstd = reshape(in[3], Dims{rows, 1});
    TensorAny xhat = mul(sub(x, mean), rstd);
    TensorAny gh = has_gamma ? mul(g, param_row(in[4], x.dtype())) : g;
    TensorAny nd = scalar(x, double(d));
    TensorAny b = div(sum_dim(mul(gh, xhat), 1), nd);
    TensorAny inner = rms ? gh : sub(gh, div(sum_dim(gh, 1), nd));
    TensorAny dx = down(reshape(mul(rstd, sub(inner, mul(xhat, b))), in[1].shape()), c.dtype);
    if (!want) {
        TensorAny none = full(Dims{0}, 0, c.dtype, x.device());
        return {dx, none, none};
    }
    TensorAny dgamma = down(reshape(sum_dim(mul(g, xhat), 0), Dims{d}), c.dtype);
    TensorAny dbeta = down(reshape(sum_dim(g, 0), Dims{d}), c.dtype);
    return {dx, dgamma, dbeta};
}

/// targets [N] as [N, 1] indices.
TensorAny target_column(const TensorAny& targets) {
    return reshape(targets, Dims{targets.numel(), 1});
}

Outputs cross_entropy(const OpCall& c, const Inputs& in) {
    // loss = -(1 - s) * logp[t] - s * mean(logp), lse = max + log(sum(exp(x - max)))
    const double s = c.attrs<attrs::CrossEntropy>().smoothing;
    TensorAny x = up(in[0]);
    const int64_t n = x.shape()[0], classes = x.shape()[1];
    TensorAny m = max_dim_with_indices(x, 1).first;
    TensorAny z = sub(x, m);
    TensorAny log_sum = log(sum_dim(exp(z), 1));
    TensorAny logp = sub(z, log_sum);
    TensorAny loss = mul(gather(logp, 1, target_column(in[1])), scalar(x, -(1.0 - s)));
    if (s > 0) loss = sub(loss, mul(sum_dim(logp, 1), scalar(x, s / double(classes))));
    return {down(reshape(loss, Dims{n}), c.dtype), reshape(add(m, log_sum), Dims{n})};
}

Outputs cross_entropy_backward(const OpCall& c, const Inputs& in) {
    // (softmax(x) - (1 - s) onehot(t) - s / C) * g: the kernel recomputes softmax from the logits
    const double s = c.attrs<attrs::CrossEntropy>().smoothing;
    TensorAny x = up(in[1]);
    const int64_t n = x.shape()[0], classes = x.shape()[1];
    TensorAny p = softmax_of(x, 1, false);
    p = scatter(p, 1, target_column(in[2]), full(Dims{n, 1}, -(1.0 - s), x.dtype(), x.device()));
    TensorAny g = reshape(up(in[0]), Dims{n, 1});
    return {down(mul(sub(p, scalar(x, s / double(classes))), g), c.dtype)};
}

Outputs adam_step(const OpCall& c, const Inputs& in) {
    // g' = grad + l2 p; m' = b1 m + (1 - b1) g'; v' = b2 v + (1 - b2) g'^2;
    // p' = decay p - step m' / (sqrt(v') + eps), hyper = {b1, b2, step, eps, decay, l2} (f64 [6])
    TensorAny p = up(in[0]), g = up(in[1]), m = up(in[2]), v = up(in[3]);
    const TensorAny& hyper = in[4];
    const Dims ones = Dims::filled(p.rank(), 1);
    auto h = [&](int64_t i) { return reshape(cast(narrow_dim(hyper, 0, i, 1), p.dtype()), ones); };
    // 1 - beta in f64, rounded once (the kernel's C(1 - b))
    auto one_minus = [&](int64_t i) {
        return reshape(
            cast(sub(full(Dims{1}, 1, DType::f64, hyper.device()), narrow_dim(hyper, 0, i, 1)), p.dtype()),
            ones);
    };
    TensorAny gi = add(g, mul(h(5), p));
    TensorAny mi = add(mul(h(0), m), mul(one_minus(0), gi));
    TensorAny vi = add(mul(h(1), v), mul(mul(one_minus(1), gi), gi));
    TensorAny pi = sub(mul(h(4), p), div(mul(h(2), mi), add(sqrt(vi), h(3))));
    return {down(pi, c.dtype), down(mi, c.dtype), down(vi, c.dtype)};
}

/// adam_step_multi: adam_step's decomposition per tensor, each output flattened and concatenated in
/// order. (A backend that has adam_step's kernel but not this row's gets adam_step per tensor from the
/// frontend instead: src/ops/optim_ops.cpp.)
Outputs adam_step_multi(const OpCall& c, const Inputs& in) {
    (void)c;
    const std::size_t n = (in.size() - 1) / 4;
    std::vector<TensorAny> parts[3];
    for (std::size_t i = 0; i < n; ++i) {
        const Inputs one_in = {in[i], in[n + i], in[2 * n + i], in[3 * n + i], in[4 * n]};
        std::vector<TensorMeta> m;
        for (const TensorAny& t : one_in) m.push_back({t.dtype(), t.shape()});
        OpCall one = make_call(OpId::adam_step, attrs::None{});
        infer_call(one, m);
        const Outputs out = adam_step(one, one_in);
        for (std::size_t k = 0; k < 3; ++k) parts[k].push_back(reshape(out[k], Dims{in[i].shape().numel()}));
    }
    return {cat(parts[0], 0), cat(parts[1], 0), cat(parts[2], 0)};
}

/// The scaled scores q k^T * scale of attention with the masked keys (the mask, and with causal the keys
/// j > i + Lk - Lq) at -inf, in q's compute dtype.
TensorAny masked_scores(const attrs::Attention& a, const TensorAny& q, const TensorAny& k,
                        const TensorAny* mask) {
    const int r = q.rank();
    TensorAny s = mul(matmul(q, swap_dims(k, r - 2, r - 1)), scalar(q, a.scale));
    const TensorAny minus_inf = scalar(s, -kInf);
    if (mask) s = where(*mask, minus_inf, s);
    if (a.causal) {
        const int64_t lq = q.shape()[r - 2], lk = k.shape()[r - 2];
        std::vector<double> hidden(static_cast<std::size_t>(lq * lk));
        for (int64_t i = 0; i < lq; ++i)
            for (int64_t j = 0; j < lk; ++j) hidden[static_cast<std::size_t>(i * lk + j)] = j > i + lk - lq;
        Dims shape = Dims::filled(r, 1);
        shape[r - 2] = lq, shape[r - 1] = lk;
        s = where(constant(hidden, shape, DType::boolean, q.device()), minus_inf, s);
    }
    return s;
}

/// x with its -inf entries (a score row with no key left: its max or lse) at 0.
TensorAny finite_or_zero(const TensorAny& x) {
    return where(less(x, scalar(x, -std::numeric_limits<float>::max())), scalar(x, 0), x);
}

/// attention: softmax over the masked scores (a row of -inf only is NaN, as the kernels), then s v;
/// lse = max + log(sum(exp(s - max))) (-inf for such a row). f16/bf16 in f32.
Outputs attention(const OpCall& c, const Inputs& in) {
    const auto a = c.attrs<attrs::Attention>();
    const TensorAny q = up(in[0]), k = up(in[1]), v = up(in[2]);
    const int r = q.rank();
    const TensorAny s = masked_scores(a, q, k, a.has_mask ? &in[3] : nullptr);
    TensorAny m = finite_or_zero(max_dim_with_indices(s, r - 1).first);
    TensorAny lse = add(log(sum_dim(exp(sub(s, m)), r - 1)), m);
    Dims rows = Dims::filled(r - 1, 1);
    for (int i = 0; i + 1 < r; ++i) rows[i] = in[0].shape()[i];
    return {down(matmul(softmax_of(s, r - 1, false), v), c.dtype), reshape(lse, rows)};
}

/// attention_backward: p = exp(s - lse) (0 at masked keys, and for a row with no key left), dv = p^T g,
/// ds = p * (g v^T - rowsum(g * out)), dq = scale ds k, dk = scale ds^T q.
Outputs attention_backward(const OpCall& c, const Inputs& in) {
    const auto a = c.attrs<attrs::Attention>();
    const TensorAny g = up(in[0]), q = up(in[1]), k = up(in[2]), v = up(in[3]), o = up(in[4]);
    const int r = q.rank();
    const TensorAny s = masked_scores(a, q, k, a.has_mask ? &in[6] : nullptr);
    Dims col = in[5].shape();
    col.push_back(1);
    const TensorAny lse = reshape(finite_or_zero(cast(in[5], q.dtype())), col);
    const TensorAny p = exp(sub(s, lse));
    const TensorAny dv = matmul(swap_dims(p, r - 2, r - 1), g);
    const TensorAny delta = sum_dim(mul(g, o), r - 1);
    const TensorAny ds = mul(p, sub(matmul(g, swap_dims(v, r - 2, r - 1)), delta));
    const TensorAny dq = mul(matmul(ds, k), scalar(q, a.scale));
    const TensorAny dk = mul(matmul(swap_dims(ds, r - 2, r - 1), q), scalar(q, a.scale));
    return {down(dq, in[1].dtype()), down(dk, in[2].dtype()), down(dv, in[3].dtype())};
}

}  // namespace

void add_norm_decompositions(DecompositionTable& t) {
    t.set(OpId::layer_norm, layer_norm);
    t.set(OpId::layer_norm_backward, layer_norm_backward);
    t.set(OpId::cross_entropy, cross_entropy);
    t.set(OpId::cross_entropy_backward, cross_entropy_backward);
    t.set(OpId::adam_step, adam_step);
    t.set(OpId::adam_step_multi, adam_step_multi);
    t.set(OpId::attention, attention);
    t.set(OpId::attention_backward, attention_backward);
}

}  // namespace burn::ops::detail
