#pragma once
/// Smooth L1 loss (PyTorch's SmoothL1Loss, burn's SmoothL1Loss): 0.5 r^2 / beta for r < beta,
/// r - 0.5 beta above (r = |prediction - target|); beta = 0 is the L1 loss.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct SmoothL1Loss {
    double beta = 1.0;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& predictions, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(predictions.handle(), targets.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& predictions, const Tensor<D>& targets) const {
        return Tensor<D>(forward_any(predictions.handle(), targets.handle()));
    }
    TensorAny forward_any(const TensorAny& predictions, const TensorAny& targets) const;
};

struct SmoothL1LossConfig {
    double beta = 1.0;
    SmoothL1Loss init() const;
    BURN_CONFIG(SmoothL1LossConfig, beta)
};

/// Mean absolute error: |prediction - target| reduced.
struct L1Loss {
    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& predictions, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(predictions.handle(), targets.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& predictions, const Tensor<D>& targets) const {
        return Tensor<D>(forward_any(predictions.handle(), targets.handle()));
    }
    TensorAny forward_any(const TensorAny& predictions, const TensorAny& targets) const;
};

}  // namespace burn::nn::loss
