#pragma once
/// Cross-entropy from logits (log_softmax + negative log-likelihood), with optional class weights,
/// label smoothing and padding tokens (burn's CrossEntropyLoss).
#include <optional>
#include <vector>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct CrossEntropyLoss {
    std::optional<std::vector<int64_t>> pad_tokens;  // targets equal to one of these are ignored
    std::optional<std::vector<float>> weights;       // per-class weights
    std::optional<double> smoothing;                 // label smoothing in [0, 1]
    bool logits = true;                              // false: inputs are probabilities

    /// logits [batch, classes], targets [batch] -> mean loss [1].
    Tensor<1> forward(const Tensor<2>& logits, const Tensor<1, Int>& targets) const {
        return Tensor<1>(forward_any(logits.handle(), targets.handle()));
    }
    TensorAny forward_any(const TensorAny& logits, const TensorAny& targets) const;

    /// Probability (soft) targets [batch, classes] instead of class indices, PyTorch's cross_entropy
    /// with a Float target: per row -sum_c w_c t_c log_softmax(logits)_c with the targets smoothed to
    /// t (1 - s) + s / classes; the mean over the batch (not divided by the weights, as PyTorch).
    /// pad_tokens do not apply (an error if set).
    Tensor<1> forward_probs(const Tensor<2>& logits, const Tensor<2>& targets,
                            Reduction reduction = Reduction::Mean) const {
        return Tensor<1>(reduce(probs_any(logits.handle(), targets.handle()), reduction));
    }
    /// The per-row losses [batch] of forward_probs.
    Tensor<1> forward_probs_no_reduction(const Tensor<2>& logits, const Tensor<2>& targets) const {
        return Tensor<1>(probs_any(logits.handle(), targets.handle()));
    }
    TensorAny probs_any(const TensorAny& logits, const TensorAny& targets) const;
};

struct CrossEntropyLossConfig {
    std::optional<std::vector<int64_t>> pad_tokens;
    std::optional<std::vector<float>> weights;
    std::optional<double> smoothing;
    bool logits = true;
    CrossEntropyLoss init(const Device& device = Device()) const;
    BURN_CONFIG(CrossEntropyLossConfig, pad_tokens, weights, smoothing, logits)
};

/// -mean(sum(targets * log_softmax(logits), 1)) for probability targets [batch, classes].
Tensor<1> cross_entropy_with_logits(const Tensor<2>& logits, const Tensor<2>& targets);

}  // namespace burn::nn::loss
