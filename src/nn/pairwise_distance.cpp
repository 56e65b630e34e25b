// Pairwise distance: the p-norm of the row differences, with PyTorch's eps added to the difference.
#include "burn/nn/pairwise_distance.hpp"

#include <cmath>

namespace burn::nn {

using namespace ops;

TensorAny pairwise_distance(const TensorAny& x1, const TensorAny& x2, double p, double eps, bool keepdim) {
    BURN_CHECK(x1.defined() && x2.defined(), "[pairwise_distance] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x1.dtype()) && is_float(x2.dtype()), dtype,
                    "[pairwise_distance] inputs must be Float, got ", x1.dtype(), " and ", x2.dtype());
    BURN_CHECK_KIND(x1.rank() >= 1 && x1.shape() == x2.shape(), shape, "[pairwise_distance] x1 ", x1.shape(),
                    " and x2 ", x2.shape(), " must have one shape [..., d]");
    BURN_CHECK(p > 0.0 && !std::isnan(p), "[pairwise_distance] p must be positive (or infinity), got ", p);
    const int64_t last = static_cast<int64_t>(x1.rank()) - 1;
    TensorAny d = abs(add_scalar(sub(x1, x2), eps));
    TensorAny n;
    if (std::isinf(p))
        n = max_dim(std::move(d), last);
    else if (p == 1.0)
        n = sum_dim(std::move(d), last);
    else if (p == 2.0)
        n = sqrt(sum_dim(square(std::move(d)), last));
    else
        n = powf_scalar(sum_dim(powf_scalar(std::move(d), p), last), 1.0 / p);
    return keepdim ? n : squeeze_dim(std::move(n), last);
}

PairwiseDistance PairwiseDistanceConfig::init() const {
    BURN_CHECK(p > 0.0 && !std::isnan(p), "[PairwiseDistanceConfig] p must be positive (or infinity), got ",
               p);
    return PairwiseDistance{p, eps};
}

}  // namespace burn::nn
