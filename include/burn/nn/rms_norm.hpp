#pragma once
/// RmsNorm over the last dim: x / sqrt(mean(x^2) + epsilon) * gamma (PyTorch 2.4's nn.RMSNorm with
/// weight = gamma; burn's RmsNorm).
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"

namespace burn::nn {

struct RmsNorm {
    Param<Tensor<1>> gamma;  // [d_model]
    double epsilon = 1e-5;

    /// input [..., d_model] -> same shape
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(RmsNorm, gamma, epsilon)
};

struct RmsNormConfig {
    std::size_t d_model = 0;
    double epsilon = 1e-5;
    RmsNorm init(const Device& device = Device()) const;
    BURN_CONFIG(RmsNormConfig, d_model, epsilon)
};

}  // namespace burn::nn
