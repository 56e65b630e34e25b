#pragma once
/// Triplet margin loss (PyTorch's TripletMarginLoss, burn's TripletMarginLoss): for anchors a,
/// positives p and negatives n [batch, dim], max(0, d(a, p) - d(a, n) + margin) with d the pairwise
/// p-norm distance (burn/nn/pairwise_distance.hpp, eps added to the difference). With swap, d(a, n) is
/// replaced by min(d(a, n), d(p, n)) (the distance swap of Balntas et al.).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct TripletMarginLoss {
    double margin = 1.0;
    double p = 2.0;
    double eps = 1e-6;
    bool swap = false;

    /// -> [1]
    Tensor<1> forward(const Tensor<2>& anchor, const Tensor<2>& positive, const Tensor<2>& negative,
                      Reduction reduction) const {
        return Tensor<1>(
            reduce(forward_any(anchor.handle(), positive.handle(), negative.handle()), reduction));
    }
    /// -> [batch]
    Tensor<1> forward_no_reduction(const Tensor<2>& anchor, const Tensor<2>& positive,
                                   const Tensor<2>& negative) const {
        return Tensor<1>(forward_any(anchor.handle(), positive.handle(), negative.handle()));
    }
    TensorAny forward_any(const TensorAny& anchor, const TensorAny& positive,
                          const TensorAny& negative) const;
};

struct TripletMarginLossConfig {
    double margin = 1.0;
    double p = 2.0;
    double eps = 1e-6;
    bool swap = false;
    TripletMarginLoss init() const;  // checks margin >= 0, p > 0
    BURN_CONFIG(TripletMarginLossConfig, margin, p, eps, swap)
};

}  // namespace burn::nn::loss
