#pragma once
/// Activation functions on tensors (burn::activation). Modules wrapping them live in burn::nn.
/// Tensors are taken by value: a temporary argument (relu(x * y + z)) hands its buffer to the op,
/// which the CPU backend then overwrites in place instead of allocating.
#include "burn/tensor/tensor.hpp"

namespace burn::activation {

template <std::size_t D, Numeric K>
Tensor<D, K> relu(Tensor<D, K> x) {
    return Tensor<D, K>(ops::relu(std::move(x).handle()));
}
/// x for x > 0, slope * x otherwise.
template <std::size_t D>
Tensor<D> leaky_relu(Tensor<D> x, double negative_slope = 0.01) {
    return Tensor<D>(ops::leaky_relu(std::move(x).handle(), negative_slope));
}
/// Exact GELU: x * Phi(x).
template <std::size_t D>
Tensor<D> gelu(Tensor<D> x) {
    return Tensor<D>(ops::gelu(std::move(x).handle()));
}
/// The tanh approximation of GELU (PyTorch's approximate="tanh").
template <std::size_t D>
Tensor<D> gelu_tanh(Tensor<D> x) {
    return Tensor<D>(ops::gelu_tanh(std::move(x).handle()));
}
template <std::size_t D>
Tensor<D> gelu_approximate(Tensor<D> x) {
    return gelu_tanh(std::move(x));
}
template <std::size_t D>
Tensor<D> sigmoid(Tensor<D> x) {
    return Tensor<D>(ops::sigmoid(std::move(x).handle()));
}
/// x * sigmoid(x).
template <std::size_t D>
Tensor<D> silu(Tensor<D> x) {
    return Tensor<D>(ops::silu(std::move(x).handle()));
}
template <std::size_t D>
Tensor<D> tanh(Tensor<D> x) {
    return Tensor<D>(ops::tanh(std::move(x).handle()));
}
/// log(1 + exp(beta * x)) / beta, linear above threshold (PyTorch's defaults).
template <std::size_t D>
Tensor<D> softplus(Tensor<D> x, double beta = 1.0, double threshold = 20.0) {
    return Tensor<D>(ops::softplus(std::move(x).handle(), beta, threshold));
}
template <std::size_t D>
Tensor<D> softmax(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(ops::softmax(x.handle(), dim));
}
template <std::size_t D>
Tensor<D> log_softmax(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(ops::log_softmax(x.handle(), dim));
}

}  // namespace burn::activation
