#pragma once
/// Soft margin loss (PyTorch's SoftMarginLoss, burn's SoftMarginLoss), the two-class logistic loss per
/// element for a target y of 1 / -1: log(1 + exp(-y x)), computed as softplus(-y x).
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct SoftMarginLoss {
    /// target: 1 / -1, Float or Int, the input's shape.
    template <std::size_t D, class K>
    Tensor<1> forward(const Tensor<D>& input, const Tensor<D, K>& target, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), target.handle()), reduction));
    }
    template <std::size_t D, class K>
    Tensor<D> forward_no_reduction(const Tensor<D>& input, const Tensor<D, K>& target) const {
        return Tensor<D>(forward_any(input.handle(), target.handle()));
    }
    TensorAny forward_any(const TensorAny& input, const TensorAny& target) const;
};

}  // namespace burn::nn::loss
