#pragma once
/// Local response normalisation across channels (PyTorch's LocalResponseNorm, burn's
/// LocalResponseNorm): for x [batch, channels, ...],
///     y[c] = x[c] / (k + alpha / size * sum of x[j]^2 over j in [c - size/2, c + (size-1)/2])^beta,
/// channels outside the range counting as zero (the sum is always divided by size, as PyTorch).
/// A composite of square, cat, narrow, add and powf: no new autodiff rule.
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

struct LocalResponseNorm {
    std::size_t size = 5;
    double alpha = 1e-4;
    double beta = 0.75;
    double k = 1.0;

    /// [batch, channels, ...] (rank >= 3) -> the same shape
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    /// Defined in src/nn/local_response_norm.cpp.
    TensorAny forward_any(const TensorAny& input) const;
};

struct LocalResponseNormConfig {
    std::size_t size = 5;  // required in PyTorch (no default); burn's default 5 is AlexNet's
    double alpha = 1e-4;
    double beta = 0.75;
    double k = 1.0;
    LocalResponseNorm init() const;  // checks size > 0
    BURN_CONFIG(LocalResponseNormConfig, size, alpha, beta, k)
};

}  // namespace burn::nn
