#pragma once
/// Hinge embedding loss (PyTorch's HingeEmbeddingLoss, burn's HingeEmbeddingLoss), per element for a
/// distance-like input x and a target y of 1 / -1: x where y = 1, max(0, margin - x) where y = -1 (any
/// other target value contributes both terms, as in PyTorch).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct HingeEmbeddingLoss {
    double margin = 1.0;

    /// target: 1 / -1, Float or Int, the input's shape.
    template <std::size_t D, class K>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D, K>& target, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), target.handle()), reduction));
    }
    template <std::size_t D, class K>
    Tensor<D> forward_no_reduction(const Tensor<D>& input, const Tensor<D, K>& target) const {
        return Tensor<D>(forward_any(input.handle(), target.handle()));
    }
    TensorAny forward_any(const TensorAny& input, const TensorAny& target) const;
};

struct HingeEmbeddingLossConfig {
    double margin = 1.0;
    HingeEmbeddingLoss init() const { return {margin}; }
    BURN_CONFIG(HingeEmbeddingLossConfig, margin)
};

}  // namespace burn::nn::loss
