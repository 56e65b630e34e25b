// Poisson negative log-likelihood, composed from exp/log and a masked Stirling term.
#include "burn/nn/loss/poisson_nll.hpp"

#include <limits>
#include <numbers>

namespace burn::nn::loss {

using namespace ops;

PoissonNllLoss PoissonNllLossConfig::init() const {
    BURN_CHECK(eps > 0.0, "[PoissonNllLossConfig] eps must be positive, got ", eps);
    return PoissonNllLoss{log_input, full, eps};
}

TensorAny PoissonNllLoss::forward_any(const TensorAny& input, const TensorAny& target) const {
    detail::check_pair(input, target, "PoissonNllLoss");
    TensorAny loss = log_input ? sub(exp(input), mul(target, input))
                               : sub(input, mul(target, log(add_scalar(input, eps))));
    if (!full) return loss;
    // Stirling: t log t - t + 0.5 log(2 pi t) where t > 1. t is clamped to >= 1 first so that no log of
    // 0 appears in the masked-out lanes (their value is multiplied by 0, and so is their gradient).
    TensorAny t = clamp(target, 1.0, std::numeric_limits<double>::infinity());
    TensorAny stirling =
        add(sub(mul(t, log(t)), t), mul_scalar(log(mul_scalar(t, 2.0 * std::numbers::pi)), 0.5));
    TensorAny above = cast(greater_elem(target, 1.0), input.dtype());
    return add(std::move(loss), mul(std::move(stirling), std::move(above)));
}

}  // namespace burn::nn::loss
