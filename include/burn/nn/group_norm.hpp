#pragma once
/// GroupNorm: the channels of [batch, channels, ...] split into num_groups groups, each normalised
/// over its channels and all trailing dims, then an optional per-channel affine. PyTorch's weight and
/// bias are gamma and beta.
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"

namespace burn::nn {

struct GroupNorm {
    std::optional<Param<Tensor<1>>> gamma{};  // [num_channels], when affine
    std::optional<Param<Tensor<1>>> beta{};   // [num_channels], when affine
    std::size_t num_groups = 1;
    std::size_t num_channels = 0;
    double epsilon = 1e-5;
    bool affine = true;

    /// input [batch, num_channels, ...] -> same shape
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        static_assert(D >= 2, "GroupNorm needs [batch, channels, ...]");
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(GroupNorm, gamma, beta, num_groups, num_channels, epsilon, affine)
};

struct GroupNormConfig {
    std::size_t num_groups = 0;
    std::size_t num_channels = 0;
    double epsilon = 1e-5;
    bool affine = true;
    GroupNorm init(const Device& device = Device()) const;
    BURN_CONFIG(GroupNormConfig, num_groups, num_channels, epsilon, affine)
};

namespace detail {
/// Group normalisation of x [batch, channels, ...] with optional gamma/beta [channels]; `layer` names
/// the caller in errors.
TensorAny group_norm(const TensorAny& x, int64_t groups, const TensorAny* gamma, const TensorAny* beta,
                     double epsilon, const char* layer);
}  // namespace detail

}  // namespace burn::nn
