// GroupNorm as a composite of reductions and elementwise ops (InstanceNorm is its one-channel-per-group
// case, src/nn/instance_norm.cpp).
#include "burn/nn/group_norm.hpp"

#include "nn/channel_view.hpp"

namespace burn::nn {

using namespace ops;

using detail::channel_view;

TensorAny detail::group_norm(const TensorAny& x, int64_t groups, const TensorAny* gamma,
                             const TensorAny* beta, double epsilon, const char* layer) {
    BURN_CHECK_KIND(x.defined() && is_float(x.dtype()), dtype, "[", layer, "] needs a Float input");
    BURN_CHECK_KIND(x.rank() >= 2, shape, "[", layer, "] input ", x.shape(),
                    " must be [batch, channels, ...]");
    const int64_t n = x.shape()[0], c = x.shape()[1];
    BURN_CHECK_KIND(c % groups == 0, shape, "[", layer, "] input ", x.shape(), " has ", c,
                    " channels, which do not split into ", groups, " groups");
    TensorAny g = reshape(x, Dims{n, groups, -1});  // [n, groups, channels/groups * rest]
    TensorAny centered = sub(g, mean_dim(g, 2));
    TensorAny var = mean_dim(square(centered), 2);  // biased, as PyTorch
    TensorAny y = reshape(mul(centered, recip(sqrt(add_scalar(var, epsilon)))), x.shape());
    if (gamma) y = mul(std::move(y), channel_view(*gamma, x.rank()));
    if (beta) y = add(std::move(y), channel_view(*beta, x.rank()));
    return y;
}

GroupNorm GroupNormConfig::init(const Device& device) const {
    BURN_CHECK(num_groups > 0 && num_channels > 0,
               "[GroupNormConfig] num_groups and num_channels must be "
               "positive, got ",
               num_groups, " and ", num_channels);
    BURN_CHECK(num_channels % num_groups == 0, "[GroupNormConfig] num_channels ", num_channels,
               " must be divisible by num_groups ", num_groups);
    BURN_CHECK(epsilon > 0.0, "[GroupNormConfig] epsilon must be positive, got ", epsilon);
    GroupNorm gn;
    if (affine) {
        gn.gamma = Param<Tensor<1>>(Tensor<1>::ones({num_channels}, device));
        gn.beta = Param<Tensor<1>>(Tensor<1>::zeros({num_channels}, device));
    }
    gn.num_groups = num_groups;
    gn.num_channels = num_channels;
    gn.epsilon = epsilon;
    gn.affine = affine;
    return gn;
}

TensorAny GroupNorm::forward_any(const TensorAny& x) const {
    BURN_CHECK_KIND(x.rank() >= 2 && x.shape()[1] == static_cast<int64_t>(num_channels), shape,
                    "[GroupNorm] input ", x.shape(), " must be [batch, ", num_channels, ", ...]");
    const TensorAny* g = gamma ? &gamma->val().handle() : nullptr;
    const TensorAny* b = beta ? &beta->val().handle() : nullptr;
    return detail::group_norm(x, static_cast<int64_t>(num_groups), g, b, epsilon, "GroupNorm");
}

}  // namespace burn::nn
