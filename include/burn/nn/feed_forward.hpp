#pragma once
/// Feed-forward blocks: PositionWiseFeedForward (Linear -> activation -> dropout -> Linear, the
/// transformer's FFN; PyTorch's linear1/linear2 are linear_inner/linear_outer) and SwiGlu
/// (silu(x W_inner^T) * (x W_outer^T), burn's SwiGlu).
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/dropout.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/linear.hpp"

namespace burn::nn {

/// The activation between the two linears (burn's default Gelu; PyTorch's Transformer default is relu).
enum class FeedForwardActivation { gelu, gelu_tanh, relu, silu, tanh, sigmoid };
BURN_ENUM(FeedForwardActivation, gelu, gelu_tanh, relu, silu, tanh, sigmoid)

/// Applies the activation to x.
TensorAny apply_activation(FeedForwardActivation kind, TensorAny x);

struct PositionWiseFeedForward {
    Linear linear_inner;  // d_model -> d_ff
    Linear linear_outer;  // d_ff -> d_model
    Dropout dropout;
    FeedForwardActivation activation = FeedForwardActivation::gelu;

    /// input [..., d_model] -> [..., d_model]
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(PositionWiseFeedForward, linear_inner, linear_outer, dropout, activation)
};

struct PositionWiseFeedForwardConfig {
    std::size_t d_model = 0;
    std::size_t d_ff = 0;
    double dropout = 0.1;
    Initializer initializer = default_layer_initializer();
    FeedForwardActivation activation = FeedForwardActivation::gelu;
    PositionWiseFeedForward init(const Device& device = Device()) const;
    BURN_CONFIG(PositionWiseFeedForwardConfig, d_model, d_ff, dropout, initializer, activation)
};

struct SwiGlu {
    Linear linear_inner;  // d_input -> d_output, through silu
    Linear linear_outer;  // d_input -> d_output, the gate's other factor

    /// input [..., d_input] -> [..., d_output]
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(SwiGlu, linear_inner, linear_outer)
};

struct SwiGluConfig {
    std::size_t d_input = 0;
    std::size_t d_output = 0;
    bool bias = false;
    Initializer initializer = default_layer_initializer();
    SwiGlu init(const Device& device = Device()) const;
    BURN_CONFIG(SwiGluConfig, d_input, d_output, bias, initializer)
};

}  // namespace burn::nn
