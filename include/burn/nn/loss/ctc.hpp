#pragma once
/// Connectionist Temporal Classification loss (burn's CTCLoss, PyTorch's CTCLoss): the negative log
/// likelihood of the target sequences summed over every alignment with the inputs, computed in log
/// space by the alpha (forward) recursion; the gradient comes from the beta (backward) recursion.
///
///     auto ctc = nn::loss::CtcLossConfig{}.with_blank(0).with_zero_infinity(true).init();
///     auto loss = ctc.forward(log_probs, targets, input_lengths, target_lengths);  // [1]
///
/// log_probs [T, N, C] are log-probabilities (log_softmax over C); targets are [N, S] padded label
/// sequences (or all sequences concatenated into one [sum(target_lengths)] tensor); input_lengths and
/// target_lengths are [N] integers. Labels must be in [0, C) and differ from blank.
///
/// Reduction::Mean (and Auto) divides each sample's loss by its target length (at least 1) and
/// averages over the batch, as PyTorch's 'mean' does; Sum adds; BatchMean adds and divides by N.
/// With zero_infinity an impossible alignment (an input shorter than its target needs) gives loss 0
/// and gradient 0 instead of infinity.
///
/// Gradients: the exact partial derivatives with respect to log_probs. PyTorch's native kernel
/// returns exp(log_probs) plus these, which differs from them but gives the same gradient once
/// chained through the log_softmax that produced log_probs (the usual case).
#include <cstdint>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct CtcLoss {
    int64_t blank = 0;
    bool zero_infinity = false;

    /// The reduced loss, shape [1].
    Tensor<1> forward(const Tensor<3>& log_probs, const TensorAny& targets,
                      const Tensor<1, Int>& input_lengths, const Tensor<1, Int>& target_lengths,
                      Reduction reduction = Reduction::Mean) const {
        return Tensor<1>(reduce_any(
            forward_any(log_probs.handle(), targets, input_lengths.handle(), target_lengths.handle()),
            target_lengths.handle(), reduction));
    }
    template <std::size_t S>
    Tensor<1> forward(const Tensor<3>& log_probs, const Tensor<S, Int>& targets,
                      const Tensor<1, Int>& input_lengths, const Tensor<1, Int>& target_lengths,
                      Reduction reduction = Reduction::Mean) const {
        return forward(log_probs, targets.handle(), input_lengths, target_lengths, reduction);
    }
    /// The loss of each sample, shape [N] (PyTorch's reduction='none').
    template <std::size_t S>
    Tensor<1> forward_no_reduction(const Tensor<3>& log_probs, const Tensor<S, Int>& targets,
                                   const Tensor<1, Int>& input_lengths,
                                   const Tensor<1, Int>& target_lengths) const {
        return Tensor<1>(forward_any(log_probs.handle(), targets.handle(), input_lengths.handle(),
                                     target_lengths.handle()));
    }

    /// Per-sample losses [N]; differentiable with respect to log_probs.
    TensorAny forward_any(const TensorAny& log_probs, const TensorAny& targets,
                          const TensorAny& input_lengths, const TensorAny& target_lengths) const;
    /// Applies reduction to per-sample losses (Mean divides by the target lengths first).
    static TensorAny reduce_any(const TensorAny& losses, const TensorAny& target_lengths,
                                Reduction reduction);
};

struct CtcLossConfig {
    int64_t blank = 0;
    bool zero_infinity = false;
    CtcLoss init() const;
    BURN_CONFIG(CtcLossConfig, blank, zero_infinity)
};

}  // namespace burn::nn::loss

/// The functional form (burn's tensor::module::ctc_loss): the loss of each sample, [N] (PyTorch's
/// F.ctc_loss with reduction='none'); arguments as CtcLoss::forward's. Differentiable in log_probs.
namespace burn::tensor::module {
template <std::size_t S>
Tensor<1> ctc_loss(const Tensor<3>& log_probs, const Tensor<S, Int>& targets,
                   const Tensor<1, Int>& input_lengths, const Tensor<1, Int>& target_lengths,
                   int64_t blank = 0, bool zero_infinity = false) {
    return nn::loss::CtcLoss{blank, zero_infinity}.forward_no_reduction(log_probs, targets, input_lengths,
                                                                        target_lengths);
}
}  // namespace burn::tensor::module
