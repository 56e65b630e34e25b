#include "burn/nn/feed_forward.hpp"

#include "burn/amp/autocast.hpp"

namespace burn::nn {

using namespace ops;

TensorAny apply_activation(FeedForwardActivation kind, TensorAny x) {
    switch (kind) {
        case FeedForwardActivation::gelu:
            return gelu(std::move(x));
        case FeedForwardActivation::gelu_tanh:
            return gelu_tanh(std::move(x));
        case FeedForwardActivation::relu:
            return relu(std::move(x));
        case FeedForwardActivation::silu:
            return silu(std::move(x));
        case FeedForwardActivation::tanh:
            return tanh(std::move(x));
        case FeedForwardActivation::sigmoid:
            return sigmoid(std::move(x));
    }
    BURN_THROW("[FeedForwardActivation] unknown activation ", static_cast<int>(kind));
}

PositionWiseFeedForward PositionWiseFeedForwardConfig::init(const Device& device) const {
    BURN_CHECK(d_model > 0 && d_ff > 0,
               "[PositionWiseFeedForwardConfig] d_model and d_ff must be positive, got ", d_model, " and ",
               d_ff);
    BURN_CHECK(dropout >= 0.0 && dropout < 1.0,
               "[PositionWiseFeedForwardConfig] dropout must be in [0, 1), got ", dropout);
    PositionWiseFeedForward f;
    f.linear_inner = LinearConfig{d_model, d_ff, true, initializer}.init(device);
    f.linear_outer = LinearConfig{d_ff, d_model, true, initializer}.init(device);
    f.dropout = Dropout{dropout, false};
    f.activation = activation;
    return f;
}

TensorAny PositionWiseFeedForward::forward_any(const TensorAny& input) const {
    if (const auto low = autocast::activation_dtype(input.device(), input.dtype())) {
        // Under autocast the hidden layer (d_ff wide, the block's largest tensor) stays in bf16/f16
        // between the two GEMMs, as torch.autocast keeps it: written so by the first, the activation
        // computed in float32 per element and stored low, read by the second as it is.
        TensorAny x = apply_activation(activation, linear_inner.forward_in(input, *low, *low));
        return linear_outer.forward_in(dropout.forward_any(x), *low, input.dtype());
    }
    TensorAny x = apply_activation(activation, linear_inner.forward_any(input));
    return linear_outer.forward_any(dropout.forward_any(x));
}

SwiGlu SwiGluConfig::init(const Device& device) const {
    BURN_CHECK(d_input > 0 && d_output > 0, "[SwiGluConfig] d_input and d_output must be positive, got ",
               d_input, " and ", d_output);
    return SwiGlu{LinearConfig{d_input, d_output, bias, initializer}.init(device),
                  LinearConfig{d_input, d_output, bias, initializer}.init(device)};
}

TensorAny SwiGlu::forward_any(const TensorAny& input) const {
    return mul(silu(linear_inner.forward_any(input)), linear_outer.forward_any(input));
}

}  // namespace burn::nn
