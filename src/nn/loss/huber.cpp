// The Huber family (HuberLoss, SmoothL1Loss, L1Loss) on one implementation: SmoothL1 is Huber with
// delta = beta divided by beta (PyTorch's definition), and both start from L1's |prediction - target|.
#include "burn/nn/loss/huber.hpp"

namespace burn::nn::loss {

using namespace ops;

namespace {

/// r = |a - b|, checked (name for errors): L1Loss, and SmoothL1Loss at beta = 0.
TensorAny absolute_error(const TensorAny& a, const TensorAny& b, const char* name) {
    detail::check_pair(a, b, name);
    return abs(sub(a, b));
}

/// 0.5 min(r, delta)^2 + delta (r - min(r, delta)) with r = |a - b|, checked (name for errors).
TensorAny huber(const TensorAny& a, const TensorAny& b, double delta, const char* name) {
    TensorAny r = absolute_error(a, b, name);
    TensorAny c = clamp(r, 0.0, delta);  // min(r, delta)
    return add(mul_scalar(square(c), 0.5), mul_scalar(sub(std::move(r), c), delta));
}

}  // namespace

HuberLoss HuberLossConfig::init() const {
    BURN_CHECK(delta > 0.0, "[HuberLossConfig] delta must be positive, got ", delta);
    return HuberLoss{delta};
}

TensorAny HuberLoss::forward_any(const TensorAny& a, const TensorAny& b) const {
    return huber(a, b, delta, "HuberLoss");
}

SmoothL1Loss SmoothL1LossConfig::init() const {
    BURN_CHECK(beta >= 0.0, "[SmoothL1LossConfig] beta must be non-negative, got ", beta);
    return SmoothL1Loss{beta};
}

TensorAny SmoothL1Loss::forward_any(const TensorAny& a, const TensorAny& b) const {
    if (beta == 0.0) return absolute_error(a, b, "SmoothL1Loss");
    return mul_scalar(huber(a, b, beta, "SmoothL1Loss"), 1.0 / beta);
}

TensorAny L1Loss::forward_any(const TensorAny& a, const TensorAny& b) const {
    return absolute_error(a, b, "L1Loss");
}

}  // namespace burn::nn::loss
