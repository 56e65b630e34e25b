#pragma once
/// Poisson negative log-likelihood (PyTorch's PoissonNLLLoss, burn's PoissonNllLoss), per element:
/// - log_input (default): exp(input) - target * input, the input being the log of the rate;
/// - otherwise: input - target * log(input + eps), the input being the rate;
/// - full adds Stirling's approximation of log(target!), target log(target) - target +
///   0.5 log(2 pi target), where target > 1 (0 elsewhere), as PyTorch.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct PoissonNllLoss {
    bool log_input = true;
    bool full = false;
    double eps = 1e-8;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D>& target, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), target.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& input, const Tensor<D>& target) const {
        return Tensor<D>(forward_any(input.handle(), target.handle()));
    }
    /// Checks the shapes (equal) and, outside log_input, nothing about signs (as PyTorch).
    TensorAny forward_any(const TensorAny& input, const TensorAny& target) const;
};

struct PoissonNllLossConfig {
    bool log_input = true;
    bool full = false;
    double eps = 1e-8;
    PoissonNllLoss init() const;  // checks eps > 0
    BURN_CONFIG(PoissonNllLossConfig, log_input, full, eps)
};

}  // namespace burn::nn::loss
