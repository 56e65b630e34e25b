#pragma once
/// Activation modules: stateless structs with forward (constants to the module system).
#include "burn/tensor/activation.hpp"

namespace burn::nn {

struct Relu {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::relu(x);
    }
};
struct LeakyRelu {
    double negative_slope = 0.01;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::leaky_relu(x, negative_slope);
    }
};
struct Gelu {
    bool approximate = false;  // true: the tanh approximation
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return approximate ? activation::gelu_tanh(x) : activation::gelu(x);
    }
};
struct Sigmoid {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::sigmoid(x);
    }
};
struct SiLU {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::silu(x);
    }
};
struct Tanh {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::tanh(x);
    }
};
struct Softplus {
    double beta = 1.0;
    double threshold = 20.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::softplus(x, beta, threshold);
    }
};

}  // namespace burn::nn
