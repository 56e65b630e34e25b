// Frontend of the fused layer_norm and cross_entropy ops: validation, then one OpCall each. The
// kernels (backends/cpu/norm.cpp, backends/cuda/norm.cu) trust what is checked here.
#include "ops/fused_nn.hpp"

#include <cmath>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

void check_param(const std::optional<TensorAny>& p, const char* what, const TensorAny& x, const char* op) {
    if (!p) return;
    check_defined(*p, op);
    BURN_CHECK_KIND(p->dtype() == x.dtype(), dtype, "[", op, "] ", what, " ", describe(*p),
                    " must have the dtype of the input ", describe(x), "; cast it");
    BURN_CHECK_KIND(p->rank() == 1 && p->shape()[0] == x.shape().back(), shape, "[", op, "] ", what, " ",
                    describe(*p), " must be [", x.shape().back(), "] (the input's last dim) for input ",
                    describe(x));
}

void check_rows_input(const TensorAny& x, const char* op) {
    check_defined(x, op);
    check_float(x, op);
    BURN_CHECK_KIND(x.rank() >= 1, shape, "[", op, "] the input must have at least one dim (normalised over ",
                    "the last), got ", describe(x));
}

/// targets as i32 or i64 (the dtypes the kernels read), checked against logits [N, C].
TensorAny checked_targets(TensorAny targets, const TensorAny& logits, const char* op) {
    check_int(targets, op, "targets");
    BURN_CHECK_KIND(logits.rank() == 2, shape, "[", op, "] logits must be [batch, classes], got ",
                    describe(logits));
    BURN_CHECK_KIND(targets.rank() == 1 && targets.shape()[0] == logits.shape()[0], shape, "[", op,
                    "] targets ", describe(targets), " must be [", logits.shape()[0],
                    "] (one class index per row of logits ", describe(logits), ")");
    BURN_CHECK_KIND(logits.shape()[1] > 0, shape, "[", op, "] logits ", describe(logits),
                    " must have at least one class");
    if (targets.dtype() != DType::i32 && targets.dtype() != DType::i64) targets = cast(targets, DType::i64);
    return targets;
}

void check_smoothing(double s, const char* op) {
    BURN_CHECK(s >= 0 && s <= 1, "[", op, "] label smoothing must be in [0, 1], got ", s);
}

}  // namespace

DType fused_stat_dtype(DType d) {
    return d == DType::f16 || d == DType::bf16 ? DType::f32 : d;
}

std::array<TensorAny, 3> layer_norm_stats(TensorAny x, std::optional<TensorAny> gamma,
                                          std::optional<TensorAny> beta, double eps, bool rms) {
    const char* op = "layer_norm";
    check_rows_input(x, op);
    check_param(gamma, "gamma", x, op);
    check_param(beta, "beta", x, op);
    BURN_CHECK(std::isfinite(eps) && eps >= 0, "[layer_norm] eps must be finite and >= 0, got ", eps);
    const auto mx = metas(x);
    std::vector<TensorMeta> m(mx.begin(), mx.end());
    if (gamma) m.push_back(meta(*gamma));
    if (beta) m.push_back(meta(*beta));
    auto c = make(OpId::layer_norm, attrs::LayerNorm{gamma.has_value(), beta.has_value(), rms, eps}, m);
    TensorRefs in = take(std::move(x));
    if (gamma) in.push_back(std::move(*gamma).ref());
    if (beta) in.push_back(std::move(*beta).ref());
    TensorRefs out = run(c, std::move(in));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1])), TensorAny(std::move(out[2]))};
}

TensorAny layer_norm(TensorAny x, std::optional<TensorAny> gamma, std::optional<TensorAny> beta, double eps) {
    return layer_norm_stats(std::move(x), std::move(gamma), std::move(beta), eps)[0];
}

std::array<TensorAny, 3> layer_norm_backward(TensorAny g, TensorAny x, TensorAny mean, TensorAny rstd,
                                             std::optional<TensorAny> gamma, bool want_params, bool rms) {
    const char* op = "layer_norm_backward";
    check_rows_input(x, op);
    check_defined(g, op);
    BURN_CHECK_KIND(g.dtype() == x.dtype() && g.shape() == x.shape(), shape, "[", op, "] gradient ",
                    describe(g), " must match the input ", describe(x));
    check_defined(mean, op);
    check_defined(rstd, op);
    check_param(gamma, "gamma", x, op);
    const auto mg = metas(g, x, mean, rstd);
    std::vector<TensorMeta> m(mg.begin(), mg.end());
    if (gamma) m.push_back(meta(*gamma));
    auto c =
        make(OpId::layer_norm_backward, attrs::LayerNormBackward{gamma.has_value(), want_params, rms}, m);
    TensorRefs in = take(std::move(g), std::move(x), std::move(mean), std::move(rstd));
    if (gamma) in.push_back(std::move(*gamma).ref());
    TensorRefs out = run(c, std::move(in));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1])), TensorAny(std::move(out[2]))};
}

std::array<TensorAny, 2> cross_entropy_rows(TensorAny logits, TensorAny targets, double smoothing) {
    const char* op = "cross_entropy";
    check_defined(logits, op);
    check_float(logits, op);
    targets = checked_targets(std::move(targets), logits, op);
    check_smoothing(smoothing, op);
    auto c = make(OpId::cross_entropy, attrs::CrossEntropy{smoothing}, metas(logits, targets));
    TensorRefs out = run(c, take(std::move(logits), std::move(targets)));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1]))};
}

TensorAny cross_entropy(TensorAny logits, TensorAny targets, double smoothing) {
    return cross_entropy_rows(std::move(logits), std::move(targets), smoothing)[0];
}

TensorAny cross_entropy_backward(TensorAny g, TensorAny logits, TensorAny targets, TensorAny lse,
                                 double smoothing) {
    const char* op = "cross_entropy_backward";
    check_defined(logits, op);
    check_float(logits, op);
    targets = checked_targets(std::move(targets), logits, op);
    check_smoothing(smoothing, op);
    check_defined(g, op);
    check_defined(lse, op);
    auto c =
        make(OpId::cross_entropy_backward, attrs::CrossEntropy{smoothing}, metas(g, logits, targets, lse));
    return run1(c, take(std::move(g), std::move(logits), std::move(targets), std::move(lse)));
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of layer_norm, layer_norm_backward, cross_entropy,
// cross_entropy_backward

namespace burn::op_infer {

namespace {

DType stat_dtype(DType d) {  // fused_stat_dtype: f32 statistics for f16/bf16
    return d == DType::f16 || d == DType::bf16 ? DType::f32 : d;
}

int64_t lead_rows(const Dims& s) {
    int64_t rows = 1;
    for (int i = 0; i + 1 < s.rank(); ++i) rows *= s[i];
    return rows;
}

void check_param(const OpCall& c, const TensorMeta& p, const char* what, const TensorMeta& x) {
    BURN_CHECK_KIND(p.dtype == x.dtype, dtype, "[", c.op, "] ", what, " ", describe(p),
                    " must have the dtype of the input ", describe(x), "; cast it");
    BURN_CHECK_KIND(p.shape.rank() == 1 && p.shape[0] == x.shape.back(), shape, "[", c.op, "] ", what, " ",
                    describe(p), " must be [", x.shape.back(), "] (the input's last dim) for input ",
                    describe(x));
}

void check_stat(const OpCall& c, const TensorMeta& s, const char* what, int64_t rows, DType dt) {
    BURN_CHECK_KIND(s.dtype == dt, dtype, "[", c.op, "] ", what, " ", describe(s), " must be ", dt);
    BURN_CHECK_KIND(s.shape.rank() == 1 && s.shape[0] == rows, shape, "[", c.op, "] ", what, " ", describe(s),
                    " must be [", rows, "] (one value per row)");
}

void check_rows_input(const OpCall& c, const TensorMeta& x) {
    check_float(c, x);
    BURN_CHECK_KIND(x.shape.rank() >= 1, shape, "[", c.op,
                    "] the input must have at least one dim (normalised over the last), got ", describe(x));
}

/// logits [N, C] (float, C >= 1) and targets (i32 or i64) [N].
void check_logits(const OpCall& c, const TensorMeta& logits, const TensorMeta& targets) {
    check_float(c, logits);
    BURN_CHECK_KIND(logits.shape.rank() == 2, shape, "[", c.op, "] logits must be [batch, classes], got ",
                    describe(logits));
    BURN_CHECK_KIND(targets.dtype == DType::i32 || targets.dtype == DType::i64, dtype, "[", c.op,
                    "] targets must be i32 or i64 (the frontend casts other ints), got ", describe(targets));
    BURN_CHECK_KIND(targets.shape.rank() == 1 && targets.shape[0] == logits.shape[0], shape, "[", c.op,
                    "] targets ", describe(targets), " must be [", logits.shape[0],
                    "] (one class index per row of logits ", describe(logits), ")");
    BURN_CHECK_KIND(logits.shape[1] > 0, shape, "[", c.op, "] logits ", describe(logits),
                    " must have at least one class");
    const double s = c.attrs<attrs::CrossEntropy>().smoothing;
    BURN_CHECK(s >= 0 && s <= 1, "[", c.op, "] label smoothing must be in [0, 1], got ", s);
}

}  // namespace

Outs infer_layer_norm(const OpCall& c, Metas in) {
    const auto v = c.attrs<attrs::LayerNorm>();
    const std::size_t n = 1 + (v.has_gamma ? 1 : 0) + (v.has_beta ? 1 : 0);
    check_arity(c, in, n, n);
    const TensorMeta& x = in[0];
    check_rows_input(c, x);
    if (v.has_gamma) check_param(c, in[1], "gamma", x);
    if (v.has_beta) check_param(c, in[n - 1], "beta", x);
    BURN_CHECK(std::isfinite(v.eps) && v.eps >= 0, "[layer_norm] eps must be finite and >= 0, got ", v.eps);
    const TensorMeta stat{stat_dtype(x.dtype), Dims{lead_rows(x.shape)}};
    return {x, stat, stat};
}

Outs infer_layer_norm_backward(const OpCall& c, Metas in) {
    const auto v = c.attrs<attrs::LayerNormBackward>();
    const std::size_t n = v.has_gamma ? 5 : 4;
    check_arity(c, in, n, n);
    const TensorMeta &g = in[0], &x = in[1];
    check_rows_input(c, x);
    BURN_CHECK_KIND(g.dtype == x.dtype && g.shape == x.shape, shape, "[layer_norm_backward] gradient ",
                    describe(g), " must match the input ", describe(x));
    const int64_t rows = lead_rows(x.shape);
    check_stat(c, in[2], "mean", rows, stat_dtype(x.dtype));
    check_stat(c, in[3], "rstd", rows, stat_dtype(x.dtype));
    if (v.has_gamma) check_param(c, in[4], "gamma", x);
    const TensorMeta param{x.dtype, Dims{v.want_params ? x.shape.back() : 0}};
    return {x, param, param};
}

Outs infer_cross_entropy(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta& logits = in[0];
    check_logits(c, logits, in[1]);
    const Dims n{logits.shape[0]};
    return {{logits.dtype, n}, {stat_dtype(logits.dtype), n}};
}

Outs infer_cross_entropy_backward(const OpCall& c, Metas in) {
    check_arity(c, in, 4, 4);
    const TensorMeta &g = in[0], &logits = in[1];
    check_logits(c, logits, in[2]);
    const int64_t n = logits.shape[0];
    BURN_CHECK_KIND(g.dtype == logits.dtype && g.shape.rank() == 1 && g.shape[0] == n, shape, "[", c.op,
                    "] gradient ", describe(g), " must be [", n, "] of the logits' dtype ", logits.dtype);
    check_stat(c, in[3], "lse", n, stat_dtype(logits.dtype));
    return {logits};
}

}  // namespace burn::op_infer
