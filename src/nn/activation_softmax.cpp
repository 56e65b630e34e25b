// Softmax variants, built from ops that already have autodiff rules.
#include "burn/nn/activation_softmax.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

using detail::check_float;
using ops::add;
using ops::detach;
using ops::div;
using ops::exp;
using ops::max_dim;
using ops::neg;
using ops::softmax;
using ops::sub;
using ops::sum_dim;

TensorAny softmin(const TensorAny& x, int64_t dim) {
    check_float(x, "softmin");
    return softmax(neg(x), dim);
}

TensorAny quiet_softmax(const TensorAny& x, int64_t dim) {
    check_float(x, "quiet_softmax");
    // exp(x - m) / (exp(-m) + sum exp(x - m)) with m = max(x) (detached: any m gives the same value).
    TensorAny m = detach(max_dim(x, dim));
    TensorAny e = exp(sub(x, m));
    return div(e, add(sum_dim(e, dim), exp(neg(m))));
}

}  // namespace burn::activation::any
