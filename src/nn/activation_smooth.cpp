// Smooth activations without parameters, built from ops that already have autodiff rules.
#include "burn/nn/activation_smooth.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

using detail::check_float;
using ops::abs;
using ops::add_scalar;
using ops::div;
using ops::mul;
using ops::neg;
using ops::softplus;
using ops::sub;
using ops::tanh;

TensorAny mish(const TensorAny& x) {
    check_float(x, "mish");
    return mul(x, tanh(softplus(x, 1.0, 20.0)));
}

TensorAny softsign(const TensorAny& x) {
    check_float(x, "softsign");
    return div(x, add_scalar(abs(x), 1.0));
}

TensorAny log_sigmoid(const TensorAny& x) {
    check_float(x, "log_sigmoid");
    // -softplus(-x); softplus is linear above its threshold, so large |x| stays exact.
    return neg(softplus(neg(x), 1.0, 20.0));
}

TensorAny tanhshrink(const TensorAny& x) {
    check_float(x, "tanhshrink");
    return sub(x, tanh(x));
}

}  // namespace burn::activation::any
