// The exponential-linear activations, built from ops that already have autodiff rules.
#include "burn/nn/activation_elu.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

using detail::check_float;
using detail::neg_part;
using ops::add;
using ops::exp;
using ops::mul_scalar;
using ops::relu;
using ops::sub_scalar;

namespace {
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
}  // namespace

TensorAny elu(const TensorAny& x, double alpha) {
    check_float(x, "elu");
    // relu(x) + alpha * (exp(min(x, 0)) - 1): both halves are exact on their side of 0.
    return add(relu(x), mul_scalar(sub_scalar(exp(neg_part(x)), 1.0), alpha));
}

TensorAny selu(const TensorAny& x) {
    check_float(x, "selu");
    return mul_scalar(elu(x, kSeluAlpha), kSeluScale);
}

TensorAny celu(const TensorAny& x, double alpha) {
    check_float(x, "celu");
    BURN_CHECK(alpha != 0.0, "[celu] alpha must not be 0");
    return add(relu(x), mul_scalar(sub_scalar(exp(mul_scalar(neg_part(x), 1.0 / alpha)), 1.0), alpha));
}

}  // namespace burn::activation::any

namespace burn::nn {

Celu CeluConfig::init() const {
    BURN_CHECK(alpha != 0.0, "[CeluConfig] alpha must not be 0");
    return Celu{alpha};
}

}  // namespace burn::nn
