#pragma once
/// Binary cross-entropy (burn's BinaryCrossEntropyLoss; PyTorch's BCELoss / BCEWithLogitsLoss).
/// Inputs are probabilities, or logits with logits = true (stable: (1 - t) x - log_sigmoid(x)).
/// Targets are 0/1 (Int) or soft labels (Float) of the input's shape. Probability logs are clamped at
/// -100 as PyTorch does.
#include <optional>
#include <vector>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct BinaryCrossEntropyLoss {
    /// [2] for [batch] inputs (the weight of class 0 and of class 1, picked by the target), or
    /// [classes] for multi-label [batch, classes] inputs (one weight per column).
    std::optional<std::vector<float>> weights{};
    /// Label smoothing: targets become t (1 - s) + s / 2.
    std::optional<double> smoothing{};
    bool logits = false;

    /// Mean over all elements (burn's forward).
    template <std::size_t D, class K>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D, K>& targets) const {
        return Tensor<1>(reduce(forward_any(input.handle(), targets.handle()), Reduction::Mean));
    }
    template <std::size_t D, class K>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D, K>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), targets.handle()), reduction));
    }
    template <std::size_t D, class K>
    Tensor<D> forward_no_reduction(const Tensor<D>& input, const Tensor<D, K>& targets) const {
        return Tensor<D>(forward_any(input.handle(), targets.handle()));
    }
    /// Per-element (weighted) losses.
    TensorAny forward_any(const TensorAny& input, const TensorAny& targets) const;
};

struct BinaryCrossEntropyLossConfig {
    std::optional<std::vector<float>> weights{};
    std::optional<double> smoothing{};
    bool logits = false;
    BinaryCrossEntropyLoss init(const Device& device = Device()) const;
    BURN_CONFIG(BinaryCrossEntropyLossConfig, weights, smoothing, logits)
};

}  // namespace burn::nn::loss
