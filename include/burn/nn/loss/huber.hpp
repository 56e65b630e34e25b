#pragma once
/// The Huber family of regression losses, with r = |prediction - target|:
/// - HuberLoss (burn's and PyTorch's): 0.5 r^2 for r <= delta, delta (r - 0.5 delta) above.
/// - SmoothL1Loss (PyTorch's and burn's): Huber with delta = beta, divided by beta, so 0.5 r^2 / beta
///   for r < beta and r - 0.5 beta above; beta = 0 is the L1 loss.
/// - L1Loss: r, the mean absolute error once reduced.
/// All three share one implementation (src/nn/loss/huber.cpp).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct HuberLoss {
    double delta = 1.0;

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

struct HuberLossConfig {
    double delta = 1.0;
    HuberLoss init() const;
    BURN_CONFIG(HuberLossConfig, delta)
};

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
