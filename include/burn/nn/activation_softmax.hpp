#pragma once
/// Softmax variants, composites of existing ops so autodiff needs no new rules: softmin (and its
/// module Softmin) and quiet_softmax.
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_softmax.cpp.
TensorAny softmin(const TensorAny& x, int64_t dim);
/// exp(x_i) / (1 + sum_j exp(x_j)) along dim, stabilised (Evan Miller's "attention is off by one").
TensorAny quiet_softmax(const TensorAny& x, int64_t dim);
}  // namespace any

/// softmax(-x, dim)
template <std::size_t D>
Tensor<D> softmin(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(any::softmin(x.handle(), dim));
}
template <std::size_t D>
Tensor<D> quiet_softmax(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(any::quiet_softmax(x.handle(), dim));
}

}  // namespace burn::activation

namespace burn::nn {

struct Softmin {
    int64_t dim = -1;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::softmin(x, dim);
    }
};

}  // namespace burn::nn
