#pragma once
/// InstanceNorm: each channel of each sample of [batch, channels, ...] normalised over the trailing
/// dims, then an optional per-channel affine. No running statistics (PyTorch's default
/// track_running_stats=False). affine defaults to false as in PyTorch (burn: true); gamma/beta are
/// PyTorch's weight/bias.
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"

namespace burn::nn {

struct InstanceNorm {
    std::optional<Param<Tensor<1>>> gamma{};  // [num_channels], when affine
    std::optional<Param<Tensor<1>>> beta{};   // [num_channels], when affine
    std::size_t num_channels = 0;
    double epsilon = 1e-5;
    bool affine = false;

    /// input [batch, num_channels, ...] -> same shape
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        static_assert(D >= 3, "InstanceNorm needs [batch, channels, length, ...]");
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(InstanceNorm, gamma, beta, num_channels, epsilon, affine)
};

struct InstanceNormConfig {
    std::size_t num_channels = 0;
    double epsilon = 1e-5;
    bool affine = false;
    InstanceNorm init(const Device& device = Device()) const;
    BURN_CONFIG(InstanceNormConfig, num_channels, epsilon, affine)
};

}  // namespace burn::nn
