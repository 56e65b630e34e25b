#pragma once
/// Randomized leaky ReLU (PyTorch's RReLU, burn's RRelu): in training each negative element gets its
/// own slope drawn from U(lower, upper); in evaluation the slope is the mean (lower + upper) / 2, a
/// leaky ReLU. As for Dropout, training means an autodiff device (burn's rule), so `valid()` models
/// and plain devices are deterministic. A composite of random, where and mul: no new autodiff rule.
#include "burn/config/config.hpp"
#include "burn/nn/activation.hpp"

namespace burn::nn {

struct RRelu {
    double lower = 1.0 / 8.0;
    double upper = 1.0 / 3.0;

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return Tensor<D>(forward_any(x.handle()));
    }
    /// Defined in src/nn/rrelu.cpp.
    TensorAny forward_any(const TensorAny& x) const;
};
struct RReluConfig {
    double lower = 1.0 / 8.0;
    double upper = 1.0 / 3.0;
    RRelu init() const;  // checks lower <= upper
    BURN_CONFIG(RReluConfig, lower, upper)
};

}  // namespace burn::nn
