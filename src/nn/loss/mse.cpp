#include "burn/nn/loss/mse.hpp"

namespace burn::nn::loss {

TensorAny MseLoss::forward_any(const TensorAny& logits, const TensorAny& targets, Reduction reduction) const {
    BURN_CHECK_KIND(logits.shape() == targets.shape(), shape, "[MseLoss] logits ", logits.shape(),
                    " and targets ", targets.shape(), " differ in shape");
    return reduce(ops::square(ops::sub(logits, targets)), reduction);
}

}  // namespace burn::nn::loss
