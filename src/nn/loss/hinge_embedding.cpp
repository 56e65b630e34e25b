// Hinge embedding loss: the input where the target is 1, the hinge max(0, margin - x) where it is -1.
#include "burn/nn/loss/hinge_embedding.hpp"

#include "nn/loss/target_check.hpp"

namespace burn::nn::loss {

using namespace ops;

TensorAny HingeEmbeddingLoss::forward_any(const TensorAny& x, const TensorAny& y) const {
    TensorAny yf = detail::float_target(x, y, "HingeEmbeddingLoss");
    // PyTorch: where(y != 1, clamp_min(margin - x, 0), 0) + where(y != -1, x, 0).
    TensorAny not_pos = cast(not_equal_elem(yf, 1.0), x.dtype());
    TensorAny not_neg = cast(not_equal_elem(yf, -1.0), x.dtype());
    return add(mul(relu(rsub_scalar(x, margin)), std::move(not_pos)), mul(x, std::move(not_neg)));
}

}  // namespace burn::nn::loss
