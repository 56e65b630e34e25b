#pragma once
/// Dropout: zeroes elements with probability prob and scales the rest by 1 / (1 - prob). Active only on
/// autodiff devices (training); on inference devices it is the identity — burn's rule, which removes
/// a global train/eval flag.
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

struct Dropout {
    double prob = 0.5;
    /// Applies dropout even on a non-autodiff device.
    bool force = false;

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;
};

struct DropoutConfig {
    double prob = 0.5;
    Dropout init() const;
    BURN_CONFIG(DropoutConfig, prob)
};

}  // namespace burn::nn
