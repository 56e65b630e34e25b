#pragma once
/// Huber loss (burn's HuberLoss, PyTorch's HuberLoss): with r = |prediction - target|,
/// 0.5 r^2 for r <= delta, delta (r - 0.5 delta) above.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct HuberLoss {
    double delta = 1.0;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& predictions, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(predictions.handle(), targets.handle()), reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& predictions, const Tensor<D>& targets) const {
        return Tensor<D>(forward_any(predictions.handle(), targets.handle()));
    }
    TensorAny forward_any(const TensorAny& predictions, const TensorAny& targets) const;
};

struct HuberLossConfig {
    double delta = 1.0;
    HuberLoss init() const;
    BURN_CONFIG(HuberLossConfig, delta)
};

namespace detail {
/// 0.5 min(r, delta)^2 + delta (r - min(r, delta)) with r = |a - b|, checked (name for errors).
TensorAny huber(const TensorAny& a, const TensorAny& b, double delta, const char* name);
void check_pair(const TensorAny& a, const TensorAny& b, const char* name);
}  // namespace detail

}  // namespace burn::nn::loss
