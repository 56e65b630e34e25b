#pragma once
/// Activation functions on tensors (burn::activation). Modules wrapping them live in burn::nn.
#include "burn/tensor/tensor.hpp"

namespace burn::activation {

template <std::size_t D, Numeric K>
Tensor<D, K> relu(const Tensor<D, K>& x) {
    return Tensor<D, K>(ops::relu(x.handle()));
}
/// x for x > 0, slope * x otherwise.
template <std::size_t D>
Tensor<D> leaky_relu(const Tensor<D>& x, double negative_slope = 0.01) {
    return Tensor<D>(ops::leaky_relu(x.handle(), negative_slope));
}
/// Exact GELU: x * Phi(x).
template <std::size_t D>
Tensor<D> gelu(const Tensor<D>& x) {
    return Tensor<D>(ops::gelu(x.handle()));
}
/// The tanh approximation of GELU (PyTorch's approximate="tanh").
template <std::size_t D>
Tensor<D> gelu_tanh(const Tensor<D>& x) {
    return Tensor<D>(ops::gelu_tanh(x.handle()));
}
template <std::size_t D>
Tensor<D> gelu_approximate(const Tensor<D>& x) {
    return gelu_tanh(x);
}
template <std::size_t D>
Tensor<D> sigmoid(const Tensor<D>& x) {
    return Tensor<D>(ops::sigmoid(x.handle()));
}
/// x * sigmoid(x).
template <std::size_t D>
Tensor<D> silu(const Tensor<D>& x) {
    return Tensor<D>(ops::silu(x.handle()));
}
template <std::size_t D>
Tensor<D> tanh(const Tensor<D>& x) {
    return Tensor<D>(ops::tanh(x.handle()));
}
/// log(1 + exp(beta * x)) / beta, linear above threshold (PyTorch's defaults).
template <std::size_t D>
Tensor<D> softplus(const Tensor<D>& x, double beta = 1.0, double threshold = 20.0) {
    return Tensor<D>(ops::softplus(x.handle(), beta, threshold));
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
