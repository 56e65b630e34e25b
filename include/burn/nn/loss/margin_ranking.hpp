#pragma once
/// Margin ranking loss (PyTorch's MarginRankingLoss, burn's MarginRankingLoss), per element for two
/// scores x1, x2 and a target y of 1 (x1 should rank higher) or -1: max(0, -y (x1 - x2) + margin).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct MarginRankingLoss {
    double margin = 0.0;

    /// x1, x2 and target (1 / -1, Float or Int) of one shape.
    template <std::size_t D, class K>
    Tensor<1> forward(const Tensor<D>& x1, const Tensor<D>& x2, const Tensor<D, K>& target,
                      Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(x1.handle(), x2.handle(), target.handle()), reduction));
    }
    template <std::size_t D, class K>
    Tensor<D> forward_no_reduction(const Tensor<D>& x1, const Tensor<D>& x2,
                                   const Tensor<D, K>& target) const {
        return Tensor<D>(forward_any(x1.handle(), x2.handle(), target.handle()));
    }
    TensorAny forward_any(const TensorAny& x1, const TensorAny& x2, const TensorAny& target) const;
};

struct MarginRankingLossConfig {
    double margin = 0.0;
    MarginRankingLoss init() const { return {margin}; }
    BURN_CONFIG(MarginRankingLossConfig, margin)
};

}  // namespace burn::nn::loss
