#pragma once
/// Gaussian negative log-likelihood (PyTorch's GaussianNLLLoss, burn's GaussianNllLoss), per element:
/// 0.5 (log(max(var, eps)) + (input - target)^2 / max(var, eps)), plus 0.5 log(2 pi) when full. As in
/// PyTorch the clamp of var is not differentiated: the gradient with respect to var is that of the
/// formula at the clamped value. var has the input's shape, or its last dim is 1 (one variance per
/// row, homoscedastic).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct GaussianNllLoss {
    bool full = false;
    double eps = 1e-6;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D>& target, const Tensor<D>& var,
                      Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), target.handle(), var.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& input, const Tensor<D>& target,
                                   const Tensor<D>& var) const {
        return Tensor<D>(forward_any(input.handle(), target.handle(), var.handle()));
    }
    TensorAny forward_any(const TensorAny& input, const TensorAny& target, const TensorAny& var) const;
};

struct GaussianNllLossConfig {
    bool full = false;
    double eps = 1e-6;
    GaussianNllLoss init() const;  // checks eps > 0
    BURN_CONFIG(GaussianNllLossConfig, full, eps)
};

}  // namespace burn::nn::loss
