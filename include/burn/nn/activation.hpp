#pragma once
/// Activation modules: stateless structs with forward (constants to the module system), and their
/// configs (the alternatives of ActivationConfig, burn/nn/activation_wrapper.hpp).
#include "burn/config/config.hpp"
#include "burn/tensor/activation.hpp"

namespace burn::nn {

struct Relu {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::relu(x);
    }
};
struct ReluConfig {
    Relu init() const { return {}; }
    BURN_CONFIG(ReluConfig)
};
struct LeakyRelu {
    double negative_slope = 0.01;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::leaky_relu(x, negative_slope);
    }
};
struct LeakyReluConfig {
    double negative_slope = 0.01;
    LeakyRelu init() const { return {negative_slope}; }
    BURN_CONFIG(LeakyReluConfig, negative_slope)
};
struct Gelu {
    bool approximate = false;  // true: the tanh approximation
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return approximate ? activation::gelu_tanh(x) : activation::gelu(x);
    }
};
struct GeluConfig {
    bool approximate = false;
    Gelu init() const { return {approximate}; }
    BURN_CONFIG(GeluConfig, approximate)
};
struct Sigmoid {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::sigmoid(x);
    }
};
struct SigmoidConfig {
    Sigmoid init() const { return {}; }
    BURN_CONFIG(SigmoidConfig)
};
struct SiLU {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::silu(x);
    }
};
struct SiLUConfig {
    SiLU init() const { return {}; }
    BURN_CONFIG(SiLUConfig)
};
struct Tanh {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::tanh(x);
    }
};
struct TanhConfig {
    Tanh init() const { return {}; }
    BURN_CONFIG(TanhConfig)
};
struct Softplus {
    double beta = 1.0;
    double threshold = 20.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::softplus(x, beta, threshold);
    }
};

struct SoftplusConfig {
    double beta = 1.0;
    double threshold = 20.0;
    Softplus init() const { return {beta, threshold}; }
    BURN_CONFIG(SoftplusConfig, beta, threshold)
};

}  // namespace burn::nn
