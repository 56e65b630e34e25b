#pragma once
/// RNN-Transducer loss (torchaudio.functional.rnnt_loss; burn's RNNT loss): the negative log
/// likelihood of each target sequence summed over every alignment of the joiner's output lattice,
/// computed in log space by the alpha (forward) recursion; the gradient comes from the beta (backward)
/// recursion.
///
///     auto rnnt = nn::loss::RnntLossConfig{}.with_blank(0).init();
///     auto loss = rnnt.forward(logits, targets, logit_lengths, target_lengths);  // [1]
///
/// logits [N, T, U + 1, V] are the joiner's scores for each time step t, each number u of labels
/// emitted so far and each class; with fused_log_softmax (the default) the loss applies log_softmax over
/// V itself, without it the logits are taken as log-probabilities already. targets [N, U] are padded
/// label sequences; logit_lengths and target_lengths are [N] integers (T_n <= T, U_n <= U). Labels must
/// be in [0, V) and differ from blank; blank < 0 counts from the last class (torchaudio's default -1).
///
/// The lattice starts at (0, 0); from (t, u) blank moves to (t + 1, u) and label u + 1 to (t, u + 1);
/// the path ends with a blank at (T_n - 1, U_n). Reduction::Mean (and Auto) averages the per-sample
/// losses over the batch (torchaudio's 'mean', not divided by target lengths); Sum adds. clamp > 0
/// limits each element of the logits' gradient to [-clamp, clamp], as torchaudio's clamp does.
#include <cstdint>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct RnntLoss {
    int64_t blank = -1;
    double clamp = -1;
    bool fused_log_softmax = true;

    /// The reduced loss, shape [1].
    template <std::size_t S>
    Tensor<1> forward(const Tensor<4>& logits, const Tensor<S, Int>& targets,
                      const Tensor<1, Int>& logit_lengths, const Tensor<1, Int>& target_lengths,
                      Reduction reduction = Reduction::Mean) const {
        return Tensor<1>(reduce(
            forward_any(logits.handle(), targets.handle(), logit_lengths.handle(), target_lengths.handle()),
            reduction));
    }
    /// The loss of each sample, shape [N] (torchaudio's reduction='none').
    template <std::size_t S>
    Tensor<1> forward_no_reduction(const Tensor<4>& logits, const Tensor<S, Int>& targets,
                                   const Tensor<1, Int>& logit_lengths,
                                   const Tensor<1, Int>& target_lengths) const {
        return Tensor<1>(
            forward_any(logits.handle(), targets.handle(), logit_lengths.handle(), target_lengths.handle()));
    }

    /// Per-sample losses [N]; differentiable with respect to logits.
    TensorAny forward_any(const TensorAny& logits, const TensorAny& targets, const TensorAny& logit_lengths,
                          const TensorAny& target_lengths) const;
};

struct RnntLossConfig {
    int64_t blank = -1;
    double clamp = -1;
    bool fused_log_softmax = true;
    RnntLoss init() const;
    BURN_CONFIG(RnntLossConfig, blank, clamp, fused_log_softmax)
};

}  // namespace burn::nn::loss
