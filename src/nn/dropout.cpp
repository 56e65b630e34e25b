#include "burn/nn/dropout.hpp"

namespace burn::nn {

Dropout DropoutConfig::init() const {
    BURN_CHECK(prob >= 0.0 && prob <= 1.0, "[DropoutConfig] prob must be in [0, 1], got ", prob);
    return Dropout{prob, false};
}

TensorAny Dropout::forward_any(const TensorAny& input) const {
    if (prob == 0.0 || (!input.device().is_autodiff() && !force)) return input;
    if (prob == 1.0) return ops::mul_scalar(input, 0.0);
    auto keep =
        ops::random(input.shape(), Distribution::Bernoulli(1.0 - prob), input.dtype(), input.device());
    return ops::mul(ops::mul_scalar(std::move(keep), 1.0 / (1.0 - prob)), input);
}

}  // namespace burn::nn
