#pragma once
/// Pairwise distance (PyTorch's PairwiseDistance / F.pairwise_distance, burn's PairwiseDistance): the
/// p-norm of x1 - x2 + eps along the last dim, one distance per row. p > 0 (p = infinity: the largest
/// |difference|). A composite of sub, abs, pow and sum, so autodiff needs no new rule.
#include <limits>

#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

/// [..., d] x [..., d] -> [...] (keepdim: [..., 1]). Defined in src/nn/pairwise_distance.cpp.
TensorAny pairwise_distance(const TensorAny& x1, const TensorAny& x2, double p = 2.0, double eps = 1e-6,
                            bool keepdim = false);

struct PairwiseDistance {
    double p = 2.0;
    double eps = 1e-6;

    /// x1, x2 [..., d] of one shape -> [...]
    template <std::size_t D>
    Tensor<D - 1> forward(const Tensor<D>& x1, const Tensor<D>& x2) const requires(D >= 2) {
        return Tensor<D - 1>(pairwise_distance(x1.handle(), x2.handle(), p, eps, false));
    }
    /// The same with the last dim kept: [..., 1] (PyTorch's keepdim = True).
    template <std::size_t D>
    Tensor<D> forward_keepdim(const Tensor<D>& x1, const Tensor<D>& x2) const {
        return Tensor<D>(pairwise_distance(x1.handle(), x2.handle(), p, eps, true));
    }
};

struct PairwiseDistanceConfig {
    double p = 2.0;
    double eps = 1e-6;
    PairwiseDistance init() const;  // checks p > 0
    BURN_CONFIG(PairwiseDistanceConfig, p, eps)
};

}  // namespace burn::nn
