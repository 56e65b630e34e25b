// Activation composites: every function here is built from ops that already have autodiff rules.
#include "burn/nn/activation_extra.hpp"

#include <limits>

namespace burn::activation::any {

using ops::abs;
using ops::add;
using ops::add_scalar;
using ops::clamp;
using ops::detach;
using ops::div;
using ops::exp;
using ops::max_dim;
using ops::mul;
using ops::mul_scalar;
using ops::neg;
using ops::relu;
using ops::reshape;
using ops::softmax;
using ops::softplus;
using ops::sub;
using ops::sub_scalar;
using ops::sum_dim;
using ops::tanh;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

void check_float(const TensorAny& x, const char* name) {
    BURN_CHECK(x.defined(), "[", name, "] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[", name, "] needs a Float tensor, got ", x.dtype(), " ",
                    x.shape());
}
/// min(x, 0) - exp of it never overflows, and its gradient is 0 for x > 0.
TensorAny neg_part(const TensorAny& x) {
    return clamp(x, -kInf, 0.0);
}
}  // namespace

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

TensorAny mish(const TensorAny& x) {
    check_float(x, "mish");
    return mul(x, tanh(softplus(x, 1.0, 20.0)));
}

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

TensorAny softsign(const TensorAny& x) {
    check_float(x, "softsign");
    return div(x, add_scalar(abs(x), 1.0));
}

TensorAny log_sigmoid(const TensorAny& x) {
    check_float(x, "log_sigmoid");
    // -softplus(-x); softplus is linear above its threshold, so large |x| stays exact.
    return neg(softplus(neg(x), 1.0, 20.0));
}

TensorAny hardtanh(const TensorAny& x, double min, double max) {
    check_float(x, "hardtanh");
    BURN_CHECK(min <= max, "[hardtanh] min_val ", min, " is above max_val ", max);
    return clamp(x, min, max);
}

TensorAny tanhshrink(const TensorAny& x) {
    check_float(x, "tanhshrink");
    return sub(x, tanh(x));
}

TensorAny softmin(const TensorAny& x, int64_t dim) {
    check_float(x, "softmin");
    return softmax(neg(x), dim);
}

TensorAny prelu(const TensorAny& x, const TensorAny& alpha) {
    check_float(x, "prelu");
    BURN_CHECK_KIND(alpha.rank() == 1, shape, "[prelu] alpha must be [1] or [channels], got ", alpha.shape());
    const int64_t n = alpha.shape()[0];
    Dims s = Dims::filled(x.rank(), 1);
    if (n != 1) {
        BURN_CHECK_KIND(x.rank() >= 2 && x.shape()[1] == n, shape, "[PRelu] ", n,
                        " parameters need an input [batch, ", n, ", ...], got ", x.shape());
        s[1] = n;
    }
    return add(relu(x), mul(reshape(alpha, s), neg_part(x)));
}

TensorAny quiet_softmax(const TensorAny& x, int64_t dim) {
    check_float(x, "quiet_softmax");
    // exp(x - m) / (exp(-m) + sum exp(x - m)) with m = max(x) (detached: any m gives the same value).
    TensorAny m = detach(max_dim(x, dim));
    TensorAny e = exp(sub(x, m));
    return div(e, add(sum_dim(e, dim), exp(neg(m))));
}

}  // namespace burn::activation::any

namespace burn::nn {

Celu CeluConfig::init() const {
    BURN_CHECK(alpha != 0.0, "[CeluConfig] alpha must not be 0");
    return Celu{alpha};
}

Hardtanh HardtanhConfig::init() const {
    BURN_CHECK(min_val <= max_val, "[HardtanhConfig] min_val ", min_val, " is above max_val ", max_val);
    return Hardtanh{min_val, max_val};
}

PRelu PReluConfig::init(const Device& device) const {
    BURN_CHECK(num_parameters > 0, "[PReluConfig] num_parameters must be positive");
    PRelu p;
    p.alpha = Param<Tensor<1>>(Tensor<1>::full({num_parameters}, alpha, device));
    return p;
}

}  // namespace burn::nn
