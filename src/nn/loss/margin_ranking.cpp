// Margin ranking loss: a hinge on the signed score difference.
#include "burn/nn/loss/margin_ranking.hpp"

#include "nn/loss/target_check.hpp"

namespace burn::nn::loss {

using namespace ops;

TensorAny MarginRankingLoss::forward_any(const TensorAny& x1, const TensorAny& x2, const TensorAny& y) const {
    detail::check_pair(x1, x2, "MarginRankingLoss");
    TensorAny yf = detail::float_target(x1, y, "MarginRankingLoss");
    return relu(add_scalar(neg(mul(std::move(yf), sub(x1, x2))), margin));
}

}  // namespace burn::nn::loss
