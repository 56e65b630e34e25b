#pragma once
/// Linear: y = x W^T + b. The weight is stored [d_output, d_input], PyTorch's layout (so PyTorch and
/// ONNX weights load without transposition).
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"

namespace burn::nn {

struct Linear {
    Param<Tensor<2>> weight;               // [d_output, d_input]
    std::optional<Param<Tensor<1>>> bias;  // [d_output]

    /// input [..., d_input] -> [..., d_output]
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Linear, weight, bias)
};

struct LinearConfig {
    std::size_t d_input = 0;
    std::size_t d_output = 0;
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    Linear init(const Device& device = Device()) const;

    BURN_CONFIG(LinearConfig, d_input, d_output, bias, initializer)
};

}  // namespace burn::nn
