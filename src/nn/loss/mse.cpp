#include "burn/nn/loss/mse.hpp"

namespace burn::nn::loss {

TensorAny reduce(TensorAny losses, Reduction reduction) {
    if (reduction == Reduction::BatchMean) {
        const double batch =
            losses.rank() > 0 && losses.shape()[0] > 0 ? static_cast<double>(losses.shape()[0]) : 1.0;
        return ops::div_scalar(ops::sum(std::move(losses)), batch);
    }
    return reduction == Reduction::Sum ? ops::sum(std::move(losses)) : ops::mean(std::move(losses));
}

TensorAny MseLoss::forward_any(const TensorAny& logits, const TensorAny& targets, Reduction reduction) const {
    BURN_CHECK_KIND(logits.shape() == targets.shape(), shape, "[MseLoss] logits ", logits.shape(),
                    " and targets ", targets.shape(), " differ in shape");
    return reduce(ops::square(ops::sub(logits, targets)), reduction);
}

}  // namespace burn::nn::loss
