// What every loss shares: the reductions and the check of a (predictions, targets) pair.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

TensorAny reduce(TensorAny losses, Reduction reduction) {
    if (reduction == Reduction::BatchMean) {
        const double batch =
            losses.rank() > 0 && losses.shape()[0] > 0 ? static_cast<double>(losses.shape()[0]) : 1.0;
        return ops::div_scalar(ops::sum(std::move(losses)), batch);
    }
    return reduction == Reduction::Sum ? ops::sum(std::move(losses)) : ops::mean(std::move(losses));
}

void detail::check_pair(const TensorAny& a, const TensorAny& b, const char* name) {
    BURN_CHECK(a.defined() && b.defined(), "[", name, "] got an undefined tensor");
    BURN_CHECK_KIND(is_float(a.dtype()) && is_float(b.dtype()), dtype, "[", name,
                    "] predictions and targets must be Float, got ", a.dtype(), " and ", b.dtype());
    BURN_CHECK_KIND(a.shape() == b.shape(), shape, "[", name, "] predictions ", a.shape(), " and targets ",
                    b.shape(), " differ in shape");
}

}  // namespace burn::nn::loss
