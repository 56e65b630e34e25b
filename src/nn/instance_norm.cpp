// InstanceNorm: GroupNorm with one channel per group (detail::group_norm, src/nn/group_norm.cpp).
#include "burn/nn/instance_norm.hpp"

#include "burn/nn/group_norm.hpp"

namespace burn::nn {

InstanceNorm InstanceNormConfig::init(const Device& device) const {
    BURN_CHECK(num_channels > 0, "[InstanceNormConfig] num_channels must be positive");
    BURN_CHECK(epsilon > 0.0, "[InstanceNormConfig] epsilon must be positive, got ", epsilon);
    InstanceNorm in;
    if (affine) {
        in.gamma = Param<Tensor<1>>(Tensor<1>::ones({num_channels}, device));
        in.beta = Param<Tensor<1>>(Tensor<1>::zeros({num_channels}, device));
    }
    in.num_channels = num_channels;
    in.epsilon = epsilon;
    in.affine = affine;
    return in;
}

TensorAny InstanceNorm::forward_any(const TensorAny& x) const {
    BURN_CHECK_KIND(x.rank() >= 3 && x.shape()[1] == static_cast<int64_t>(num_channels), shape,
                    "[InstanceNorm] input ", x.shape(), " must be [batch, ", num_channels, ", length, ...]");
    const TensorAny* g = gamma ? &gamma->val().handle() : nullptr;
    const TensorAny* b = beta ? &beta->val().handle() : nullptr;
    return detail::group_norm(x, static_cast<int64_t>(num_channels), g, b, epsilon, "InstanceNorm");
}

}  // namespace burn::nn
