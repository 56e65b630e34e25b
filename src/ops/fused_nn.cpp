// Frontend of the fused layer_norm and cross_entropy ops: validation, then one OpCall each. The
// kernels (backends/cpu/norm.cpp, backends/cuda/norm.cu) trust what is checked here.
#include "ops/fused_nn.hpp"

#include <cmath>

#include "ops/common.hpp"

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
    std::vector<TensorMeta> m = metas(x);
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
    std::vector<TensorMeta> m = metas(g, x, mean, rstd);
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
