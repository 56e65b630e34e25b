#pragma once
/// Gaussian noise (burn's GaussianNoise): adds N(0, std^2) noise to every element in training, the
/// identity otherwise. As for Dropout, training means an autodiff device (burn's rule), so a `valid()`
/// model is deterministic. The noise is a constant of the graph: the gradient passes through unchanged.
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

struct GaussianNoise {
    double std = 0.1;

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    /// Defined in src/nn/gaussian_noise.cpp.
    TensorAny forward_any(const TensorAny& input) const;
};

struct GaussianNoiseConfig {
    double std = 0.1;
    GaussianNoise init() const;  // checks std >= 0
    BURN_CONFIG(GaussianNoiseConfig, std)
};

}  // namespace burn::nn
