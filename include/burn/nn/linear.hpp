#pragma once
/// Linear: y = x W^T + b. The weight is stored [d_output, d_input], PyTorch's layout (so PyTorch and
/// ONNX weights load without transposition).
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"

namespace burn::nn {

/// A LoRA adapter on a Linear (burn's LoRA, nn/lora.hpp): the layer computes
/// x W^T + b + scaling * (x A^T) B^T, with A = lora_a and B = lora_b.
struct LoraAdapter {
    Param<Tensor<2>> lora_a;  // [rank, d_input]
    Param<Tensor<2>> lora_b;  // [d_output, rank] (zeros when applied: the layer starts unchanged)
    double scaling = 1.0;     // alpha / rank
    bool merged = false;      // the update is folded into the weight (merge_lora): forward skips it

    BURN_MODULE(LoraAdapter, lora_a, lora_b, scaling, merged)
};

struct Linear {
    Param<Tensor<2>> weight;               // [d_output, d_input]
    std::optional<Param<Tensor<1>>> bias;  // [d_output]
    std::optional<LoraAdapter> lora{};     // set by nn::apply_lora

    /// input [..., d_input] -> [..., d_output]
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& input) const {
        return Tensor<D>(forward_any(input.handle()));
    }
    TensorAny forward_any(const TensorAny& input) const;
    /// The layer as autocast runs it, with the dtypes visible: the input and the weight in `compute`
    /// (cast where they are not), the product written in `out` from the GEMM's float32 accumulator, the
    /// bias cast to `out`. Modules use it under autocast for an activation that only feeds another GEMM
    /// (attention's heads, a feed-forward block's hidden layer): written in bf16/f16 as torch.autocast's
    /// linear writes it, instead of float32 and a cast back to bf16 before the next product. A LoRA
    /// adapter that is not merged takes forward_any and a cast.
    TensorAny forward_in(const TensorAny& input, DType compute, DType out) const;

    BURN_MODULE(Linear, weight, bias, lora)
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
