// The gated linear unit as two narrows of the input, a sigmoid and a product.
#include "burn/nn/glu.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

TensorAny glu(const TensorAny& x, int64_t dim) {
    detail::check_float(x, "glu");
    const auto rank = static_cast<int64_t>(x.rank());
    BURN_CHECK_KIND(rank > 0 && dim >= -rank && dim < rank, shape, "[glu] dim ", dim, " is out of range for ",
                    x.shape(), "; pass a dim in [", -rank, ", ", rank, ")");
    const int64_t d = dim < 0 ? dim + rank : dim;
    const int64_t n = x.shape()[static_cast<std::size_t>(d)];
    BURN_CHECK_KIND(n % 2 == 0, shape, "[glu] input ", x.shape(), " has ", n, " elements along dim ", dim,
                    "; it is split in two halves, so the size there must be even");
    TensorAny a = ops::narrow(x, d, 0, n / 2);
    TensorAny b = ops::narrow(x, d, n / 2, n / 2);
    return ops::mul(std::move(a), ops::sigmoid(std::move(b)));
}

}  // namespace burn::activation::any
