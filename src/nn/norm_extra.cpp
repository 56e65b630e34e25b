// GroupNorm and InstanceNorm as composites of reductions and elementwise ops; RmsNorm as the fused
// layer_norm op without centring.
#include <optional>

#include "burn/nn/group_norm.hpp"
#include "burn/nn/instance_norm.hpp"
#include "burn/nn/rms_norm.hpp"
#include "ops/fused_nn.hpp"

namespace burn::nn {

using namespace ops;

namespace {
/// v [c] -> [1, c, 1, ...] matching rank, for broadcasting over dim 1.
TensorAny channel_view(const TensorAny& v, int rank) {
    Dims s = Dims::filled(rank, 1);
    s[1] = v.shape()[0];
    return reshape(v, s);
}
void check_eps(double epsilon, const char* config) {
    BURN_CHECK(epsilon > 0.0, "[", config, "] epsilon must be positive, got ", epsilon);
}
}  // namespace

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
    check_eps(epsilon, "GroupNormConfig");
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

InstanceNorm InstanceNormConfig::init(const Device& device) const {
    BURN_CHECK(num_channels > 0, "[InstanceNormConfig] num_channels must be positive");
    check_eps(epsilon, "InstanceNormConfig");
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

RmsNorm RmsNormConfig::init(const Device& device) const {
    BURN_CHECK(d_model > 0, "[RmsNormConfig] d_model must be positive");
    check_eps(epsilon, "RmsNormConfig");
    RmsNorm r;
    r.gamma = Param<Tensor<1>>(Tensor<1>::ones({d_model}, device));
    r.epsilon = epsilon;
    return r;
}

TensorAny RmsNorm::forward_any(const TensorAny& x) const {
    const int64_t d = gamma.val().shape()[0];
    BURN_CHECK_KIND(x.rank() >= 1 && x.shape().back() == d, shape, "[RmsNorm] input ", x.shape(),
                    " must end in d_model = ", d);
    // One fused op: layer_norm without centring (ops.def layer_norm, ints rms = 1).
    return ops::layer_norm_stats(x, gamma.val().handle(), std::nullopt, epsilon, true)[0];
}

}  // namespace burn::nn
