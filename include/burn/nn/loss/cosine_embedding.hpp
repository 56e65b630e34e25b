#pragma once
/// Cosine embedding loss (burn's and PyTorch's CosineEmbeddingLoss): for pairs x1, x2 [batch, dim]
/// and targets [batch] of 1 / -1: 1 - cos(x1, x2) where the target is 1, max(0, cos - margin) where
/// it is -1. cos = x1.x2 / sqrt((|x1|^2 + 1e-12)(|x2|^2 + 1e-12)) as PyTorch computes it.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct CosineEmbeddingLoss {
    double margin = 0.0;
    Reduction reduction = Reduction::Mean;

    /// -> [1], reduced with this loss's reduction
    Tensor<1> forward(const Tensor<2>& input1, const Tensor<2>& input2, const Tensor<1, Int>& target) const {
        return Tensor<1>(reduce(forward_any(input1.handle(), input2.handle(), target.handle()), reduction));
    }
    /// -> [batch]
    Tensor<1> forward_no_reduction(const Tensor<2>& input1, const Tensor<2>& input2,
                                   const Tensor<1, Int>& target) const {
        return Tensor<1>(forward_any(input1.handle(), input2.handle(), target.handle()));
    }
    TensorAny forward_any(const TensorAny& input1, const TensorAny& input2, const TensorAny& target) const;
};

struct CosineEmbeddingLossConfig {
    double margin = 0.0;
    Reduction reduction = Reduction::Mean;
    CosineEmbeddingLoss init() const;
    BURN_CONFIG(CosineEmbeddingLossConfig, margin, reduction)
};

}  // namespace burn::nn::loss
