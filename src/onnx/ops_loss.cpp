// ONNX losses: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
// Both take scores [N, C] or [N, C, d1, ..., dk] and integer labels [N] or [N, d1, ..., dk]; an
// optional weight [C] scales each target's loss by its class's weight. A label equal to ignore_index
// contributes 0 and, for "mean", is left out of the denominator (the sum of the targets' weights, or
// their count without weights). Such a label may lie outside [0, C) (-1, C, ...), so it is replaced by
// 0 before any gather.
#include <string>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

/// The negative log-likelihood loss of log-probabilities logp [N, C, ...] at labels [N, ...].
TensorAny loss_nll(const OpContext& c, const TensorAny& logp, const TensorAny& labels) {
    const std::string reduction = c.attr_string("reduction", "mean");
    c.check(reduction == "none" || reduction == "sum" || reduction == "mean", "reduction '", reduction,
            "' is not one of none, sum, mean");
    c.check(logp.rank() >= 2, "needs scores of rank >= 2 ([N, C] or [N, C, d1, ...]), got ", logp.shape());
    c.check(logp.dtype() == DType::f32 || logp.dtype() == DType::f64 || logp.dtype() == DType::f16 ||
                logp.dtype() == DType::bf16,
            "needs floating-point scores, got ", logp.dtype());
    c.check(labels.dtype() == DType::i64 || labels.dtype() == DType::i32, "needs int32 or int64 labels, got ",
            labels.dtype());
    const Dims& xs = logp.shape();
    const Dims& ts = labels.shape();
    bool shapes_ok = ts.rank() + 1 == xs.rank() && ts[0] == xs[0];
    for (int i = 1; shapes_ok && i < ts.rank(); ++i) shapes_ok = ts[i] == xs[i + 1];
    c.check(shapes_ok, "labels of shape ", ts, " do not fit scores of shape ", xs,
            " (labels must be the scores' shape without dim 1)");
    const int64_t classes = xs[1];

    TensorAny target = labels;
    TensorAny ignored;  // bool, where the label is ignore_index
    if (c.has_attr("ignore_index")) {
        ignored = ops::equal_elem(target, static_cast<double>(c.attr_int("ignore_index")));
        target = ops::mask_fill(target, ignored, 0);
    }
    // Out-of-range labels that are not ignored are the model's error; clamp them so the gather stays
    // in bounds (as the reference's clip mode does for the weights).
    target = ops::clamp(target, 0, static_cast<double>(classes - 1));

    TensorAny loss = ops::neg(ops::squeeze_dim(ops::gather(logp, 1, ops::unsqueeze_dim(target, 1)), 1));

    TensorAny weight;  // per target, in logp's dtype; undefined when every target weighs 1
    if (c.has(2)) {
        const TensorAny& w = c.in(2);
        c.check(w.rank() == 1 && w.shape()[0] == classes, "weight must have shape [", classes,
                "] (one per class), got ", w.shape());
        c.check(w.dtype() == logp.dtype(), "weight must have the scores' type ", logp.dtype(), ", got ",
                w.dtype());
        weight = ops::reshape(ops::select(w, 0, ops::reshape(target, Dims{ts.numel()})), ts);
    } else if (ignored.defined()) {
        weight = ops::full(ts, 1, logp.dtype(), logp.device());
    }
    if (weight.defined() && ignored.defined()) weight = ops::mask_fill(weight, ignored, 0);
    if (weight.defined()) loss = ops::mul(loss, weight);

    if (reduction == "none") return loss;
    TensorAny total = ops::sum(loss);
    if (reduction == "mean")
        total = weight.defined() ? ops::div(total, ops::sum(weight))
                                 : ops::div_scalar(total, static_cast<double>(ts.numel()));
    return ops::reshape(total, Dims{});
}

Outs loss_negative_log_likelihood(const OpContext& c) {
    return {loss_nll(c, c.in(0), c.in(1))};
}

Outs loss_softmax_cross_entropy(const OpContext& c) {
    const TensorAny& scores = c.in(0);
    c.check(scores.rank() >= 2, "needs scores of rank >= 2 ([N, C] or [N, C, d1, ...]), got ",
            scores.shape());
    TensorAny log_prob = ops::log_softmax(scores, 1);
    return {loss_nll(c, log_prob, c.in(1)), log_prob};
}

}  // namespace

void add_loss_ops(OpTable& t) {
    t.add("NegativeLogLikelihoodLoss", 12, loss_negative_log_likelihood);
    t.add("SoftmaxCrossEntropyLoss", 12, loss_softmax_cross_entropy);
}

}  // namespace burn::onnx::detail
