#include "burn/nn/loss/cross_entropy.hpp"

#include "ops/fused_nn.hpp"

namespace burn::nn::loss {

using namespace ops;

CrossEntropyLoss CrossEntropyLossConfig::init(const Device&) const {
    BURN_CHECK(!smoothing || (*smoothing >= 0 && *smoothing <= 1),
               "[CrossEntropyLossConfig] smoothing must be in "
               "[0, 1], got ",
               *smoothing);
    return CrossEntropyLoss{pad_tokens, weights, smoothing, logits};
}

TensorAny CrossEntropyLoss::forward_any(const TensorAny& x, const TensorAny& targets) const {
    BURN_CHECK_KIND(x.rank() == 2 && targets.rank() == 1 && targets.shape()[0] == x.shape()[0], shape,
                    "[CrossEntropyLoss] logits ", x.shape(), " and targets ", targets.shape(),
                    " must be [batch, classes] and [batch]");
    BURN_CHECK_KIND(is_int(targets.dtype()), dtype, "[CrossEntropyLoss] targets must be an Int tensor, got ",
                    targets.dtype());
    const int64_t classes = x.shape()[1];
    TensorAny idx = unsqueeze_dim(targets, 1);  // [batch, 1]
    TensorAny nll;                              // [batch, 1]
    if (logits) {
        // One fused op (ops.def cross_entropy): logsumexp, the target's logit and the smoothing term
        // per row, its gradient one pass over the logits.
        nll = reshape(ops::cross_entropy_rows(x, targets, smoothing ? *smoothing : 0.0)[0], Dims{-1, 1});
    } else {
        TensorAny logp = log(x);
        nll = neg(gather(logp, 1, idx));
        if (smoothing && *smoothing > 0) {
            double a = *smoothing;
            TensorAny uniform = neg(mean_dim(logp, 1));  // mean over classes of -log p
            nll = add(mul_scalar(nll, 1.0 - a), mul_scalar(uniform, a));
        }
    }
    TensorAny w;  // per-sample weights [batch, 1]
    if (weights) {
        BURN_CHECK_KIND(static_cast<int64_t>(weights->size()) == classes, shape, "[CrossEntropyLoss] ",
                        weights->size(), " class weights for ", classes, " classes");
        TensorAny wt = cast(from_data(TensorData(*weights), x.device()), x.dtype());  // f32 data; f64 logits
        w = reshape(select(wt, 0, targets), Dims{-1, 1});
    }
    if (pad_tokens) {
        TensorAny keep = full(idx.shape(), 1.0, x.dtype(), x.device());
        for (int64_t p : *pad_tokens)
            keep = mul(keep, cast(not_equal_elem(idx, static_cast<double>(p)), x.dtype()));
        w = w.defined() ? mul(w, keep) : keep;
    }
    if (!w.defined()) return mean(nll);
    // Weighted mean, as PyTorch: sum(w * nll) / sum(w).
    return div(sum(mul(nll, w)), sum(w));
}

TensorAny CrossEntropyLoss::probs_any(const TensorAny& x, const TensorAny& t) const {
    detail::check_pair(x, t, "CrossEntropyLoss");
    BURN_CHECK_KIND(x.rank() == 2, shape, "[CrossEntropyLoss] logits ", x.shape(),
                    " and probability targets ", t.shape(), " must be [batch, classes]");
    BURN_CHECK(!pad_tokens,
               "[CrossEntropyLoss] pad_tokens apply to class-index targets, not to probability "
               "targets; give padded rows all-zero targets instead");
    const int64_t classes = x.shape()[1];
    TensorAny logp = logits ? log_softmax(x, 1) : log(x);
    TensorAny target = t;
    if (smoothing && *smoothing > 0)
        target = add_scalar(mul_scalar(target, 1.0 - *smoothing), *smoothing / static_cast<double>(classes));
    TensorAny prod = mul(std::move(target), std::move(logp));
    if (weights) {
        BURN_CHECK_KIND(static_cast<int64_t>(weights->size()) == classes, shape, "[CrossEntropyLoss] ",
                        weights->size(), " class weights for ", classes, " classes");
        TensorAny w = cast(from_data(TensorData(*weights), x.device()), x.dtype());
        prod = mul(std::move(prod), reshape(w, Dims{1, classes}));
    }
    return neg(reshape(sum_dim(std::move(prod), 1), Dims{-1}));
}

Tensor<1> cross_entropy_with_logits(const Tensor<2>& logits, const Tensor<2>& targets) {
    TensorAny l = mul(targets.handle(), log_softmax(logits.handle(), 1));
    return Tensor<1>(neg(mean(sum_dim(l, 1))));
}

}  // namespace burn::nn::loss
