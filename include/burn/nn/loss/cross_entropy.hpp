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
