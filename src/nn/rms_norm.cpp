// RmsNorm as the fused layer_norm op without centring.
#include "burn/nn/rms_norm.hpp"

#include <optional>

#include "ops/fused_nn.hpp"

namespace burn::nn {

RmsNorm RmsNormConfig::init(const Device& device) const {
    BURN_CHECK(d_model > 0, "[RmsNormConfig] d_model must be positive");
    BURN_CHECK(epsilon > 0.0, "[RmsNormConfig] epsilon must be positive, got ", epsilon);
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
