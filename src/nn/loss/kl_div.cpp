// Kullback-Leibler divergence per element; the reduction (Auto is BatchMean) is in the header.
#include "burn/nn/loss/kl_div.hpp"

#include <limits>

namespace burn::nn::loss {

using namespace ops;

TensorAny KLDivLoss::forward_any(const TensorAny& p, const TensorAny& t) const {
    detail::check_pair(p, t, "KLDivLoss");
    if (log_target) return mul(exp(t), sub(t, p));
    // t (log t - p), with log t clamped so that t = 0 gives 0 (PyTorch's xlogy).
    TensorAny log_t =
        log(clamp(t, std::numeric_limits<float>::min(), std::numeric_limits<double>::infinity()));
    return mul(t, sub(std::move(log_t), p));
}

}  // namespace burn::nn::loss
