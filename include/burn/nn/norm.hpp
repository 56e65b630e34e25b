#pragma once
/// Normalisation layers: BatchNorm (running statistics as buffers), LayerNorm.
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"

namespace burn::nn {

/// BatchNorm over dim 1 of [batch, channels, ...]. On an autodiff device (training) it normalises
/// with the batch statistics and updates the running ones; elsewhere it uses the running statistics.
struct BatchNorm {
    Param<Tensor<1>> gamma;                  // [channels]
    Param<Tensor<1>> beta;                   // [channels]
    mutable Buffer<Tensor<1>> running_mean;  // updated by forward while training
    mutable Buffer<Tensor<1>> running_var;
    double momentum = 0.1;
    double epsilon = 1e-5;

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        static_assert(D >= 2, "BatchNorm needs [batch, channels, ...]");
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(BatchNorm, gamma, beta, running_mean, running_var, momentum, epsilon)
};

struct BatchNormConfig {
    std::size_t num_features = 0;
    double epsilon = 1e-5;
    double momentum = 0.1;
    BatchNorm init(const Device& device = Device()) const;
    BURN_CONFIG(BatchNormConfig, num_features, epsilon, momentum)
};

/// LayerNorm over the last dim: (x - mean) / sqrt(var + eps) * gamma + beta.
struct LayerNorm {
    Param<Tensor<1>> gamma;                // [d_model]
    std::optional<Param<Tensor<1>>> beta;  // [d_model]
    double epsilon = 1e-5;

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(LayerNorm, gamma, beta, epsilon)
};

struct LayerNormConfig {
    std::size_t d_model = 0;
    double epsilon = 1e-5;
    bool bias = true;
    LayerNorm init(const Device& device = Device()) const;
    BURN_CONFIG(LayerNormConfig, d_model, epsilon, bias)
};

}  // namespace burn::nn
