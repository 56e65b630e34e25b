#pragma once
/// Mean squared error.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct MseLoss {
    /// (logits - targets)^2 reduced: Mean/Auto -> mean over all elements, Sum -> sum; shape [1].
    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& logits, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(forward_any(logits.handle(), targets.handle(), reduction));
    }
    /// Unreduced: (logits - targets)^2 with the input shape.
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& logits, const Tensor<D>& targets) const {
        return (logits - targets).square();
    }
    TensorAny forward_any(const TensorAny& logits, const TensorAny& targets, Reduction reduction) const;
};

}  // namespace burn::nn::loss
