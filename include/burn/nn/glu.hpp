#pragma once
/// The gated linear unit (PyTorch's GLU, burn's GLU): the input is split in two halves a, b along dim
/// and the result is a * sigmoid(b), half the size along dim. A composite of narrow, sigmoid and mul,
/// so autodiff needs no new rule.
#include "burn/config/config.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
/// Defined in src/nn/glu.cpp; dim may be negative (counted from the end).
TensorAny glu(const TensorAny& x, int64_t dim);
}  // namespace any

/// a * sigmoid(b) for the halves a, b of x along dim (its size must be even).
template <std::size_t D>
Tensor<D> glu(const Tensor<D>& x, int64_t dim = -1) {
    return Tensor<D>(any::glu(x.handle(), dim));
}

}  // namespace burn::activation

namespace burn::nn {

struct Glu {
    int64_t dim = -1;
    /// [..., 2n at dim, ...] -> [..., n, ...]
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::glu(x, dim);
    }
};
struct GluConfig {
    int64_t dim = -1;  // PyTorch's default: the last dim
    Glu init() const { return {dim}; }
    BURN_CONFIG(GluConfig, dim)
};

}  // namespace burn::nn
