// PReLU as a composite of ops that already have autodiff rules, and its module's config.
#include "burn/nn/prelu.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

TensorAny prelu(const TensorAny& x, const TensorAny& alpha) {
    detail::check_float(x, "prelu");
    BURN_CHECK_KIND(alpha.rank() == 1, shape, "[prelu] alpha must be [1] or [channels], got ", alpha.shape());
    const int64_t n = alpha.shape()[0];
    Dims s = Dims::filled(x.rank(), 1);
    if (n != 1) {
        BURN_CHECK_KIND(x.rank() >= 2 && x.shape()[1] == n, shape, "[PRelu] ", n,
                        " parameters need an input [batch, ", n, ", ...], got ", x.shape());
        s[1] = n;
    }
    return ops::add(ops::relu(x), ops::mul(ops::reshape(alpha, s), detail::neg_part(x)));
}

}  // namespace burn::activation::any

namespace burn::nn {

PRelu PReluConfig::init(const Device& device) const {
    BURN_CHECK(num_parameters > 0, "[PReluConfig] num_parameters must be positive");
    PRelu p;
    p.alpha = Param<Tensor<1>>(Tensor<1>::full({num_parameters}, alpha, device));
    return p;
}

}  // namespace burn::nn
