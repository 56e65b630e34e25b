// Lp loss: |prediction - target|^p, with abs and square for p = 1 and p = 2.
#include "burn/nn/loss/lp.hpp"

#include <algorithm>

namespace burn::nn::loss {

using namespace ops;

LpLoss LpLossConfig::init() const {
    BURN_CHECK(p > 0.0, "[LpLossConfig] p must be positive, got ", p);
    return LpLoss{p};
}

TensorAny LpLoss::forward_any(const TensorAny& a, const TensorAny& b) const {
    detail::check_pair(a, b, "LpLoss");
    BURN_CHECK(p > 0.0, "[LpLoss] p must be positive, got ", p);
    TensorAny e = sub(a, b);
    if (p == 1.0) return abs(std::move(e));
    if (p == 2.0) return square(std::move(e));
    return powf_scalar(abs(std::move(e)), p);
}

TensorAny LpLoss::reduce_dims_any(const TensorAny& a, const TensorAny& b,
                                  const std::vector<int64_t>& dims) const {
    TensorAny loss = forward_any(a, b);
    const auto rank = static_cast<int64_t>(loss.rank());
    std::vector<int64_t> sorted;
    for (int64_t d : dims) {
        BURN_CHECK_KIND(d >= -rank && d < rank, shape, "[LpLoss] dim ", d, " is out of range for ",
                        loss.shape());
        sorted.push_back(d < 0 ? d + rank : d);
    }
    std::sort(sorted.begin(), sorted.end());
    BURN_CHECK_KIND(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), shape,
                    "[LpLoss] dims repeat an axis; give each dim once");
    for (int64_t d : sorted) loss = mean_dim(std::move(loss), d);  // keeps the dim (size 1)
    return loss;
}

}  // namespace burn::nn::loss
