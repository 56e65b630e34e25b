#pragma once
/// Lp loss (burn's LpLoss): |prediction - target|^p per element, so p = 1 is L1 (mean absolute error
/// once averaged) and p = 2 the squared error (MSE); not the p-norm (no 1/p root).
#include <vector>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct LpLoss {
    double p = 2.0;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& predictions, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(predictions.handle(), targets.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& predictions, const Tensor<D>& targets) const {
        return Tensor<D>(forward_any(predictions.handle(), targets.handle()));
    }
    /// The mean over dims (kept with size 1), e.g. {1, 2, 3} for a per-image loss of [b, c, h, w].
    template <std::size_t D>
    Tensor<D> forward_reduce_dims(const Tensor<D>& predictions, const Tensor<D>& targets,
                                  const std::vector<int64_t>& dims) const {
        return Tensor<D>(reduce_dims_any(predictions.handle(), targets.handle(), dims));
    }
    TensorAny forward_any(const TensorAny& predictions, const TensorAny& targets) const;
    TensorAny reduce_dims_any(const TensorAny& predictions, const TensorAny& targets,
                              const std::vector<int64_t>& dims) const;
};

struct LpLossConfig {
    double p = 2.0;
    LpLoss init() const;  // checks p > 0
    /// burn's shorthands: p = 1 and p = 2.
    static LpLoss l1() { return LpLoss{1.0}; }
    static LpLoss l2() { return LpLoss{2.0}; }
    BURN_CONFIG(LpLossConfig, p)
};

}  // namespace burn::nn::loss
