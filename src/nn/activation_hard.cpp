// Piecewise-linear activations: every function here is a clamp of an affine map, so it needs no new
// autodiff rule.
#include "burn/nn/activation_hard.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

using detail::check_float;
using ops::add_scalar;
using ops::clamp;
using ops::mul;
using ops::mul_scalar;

TensorAny relu6(const TensorAny& x) {
    check_float(x, "relu6");
    return clamp(x, 0.0, 6.0);
}

TensorAny hard_sigmoid(const TensorAny& x, double alpha, double beta) {
    check_float(x, "hard_sigmoid");
    return clamp(add_scalar(mul_scalar(x, alpha), beta), 0.0, 1.0);
}

TensorAny hard_swish(const TensorAny& x) {
    check_float(x, "hard_swish");
    return mul(x, hard_sigmoid(x, 1.0 / 6.0, 0.5));
}

TensorAny hardtanh(const TensorAny& x, double min, double max) {
    check_float(x, "hardtanh");
    BURN_CHECK(min <= max, "[hardtanh] min_val ", min, " is above max_val ", max);
    return clamp(x, min, max);
}

}  // namespace burn::activation::any

namespace burn::nn {

Hardtanh HardtanhConfig::init() const {
    BURN_CHECK(min_val <= max_val, "[HardtanhConfig] min_val ", min_val, " is above max_val ", max_val);
    return Hardtanh{min_val, max_val};
}

}  // namespace burn::nn
