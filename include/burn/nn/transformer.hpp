#pragma once
/// Transformer encoder and decoder stacks (burn's TransformerEncoder/TransformerDecoder; PyTorch's
/// nn.TransformerEncoder/Decoder with batch_first=True and no final norm). norm_first = false is the
/// original post-norm layer, true the pre-norm one (GPT-style). Parameter paths, with PyTorch's names:
///   layers.i.mha (encoder) / layers.i.self_attn (decoder)  <- self_attn (see attention.hpp)
///   layers.i.cross_attn                                    <- multihead_attn
///   layers.i.pwff.linear_inner / linear_outer             <- linear1 / linear2
///   layers.i.norm_1 / norm_2 / norm_3 (gamma, beta)        <- norm1 / norm2 / norm3 (weight, bias)
#include <optional>
#include <vector>

#include "burn/module/module.hpp"
#include "burn/nn/attention.hpp"
#include "burn/nn/feed_forward.hpp"
#include "burn/nn/norm.hpp"

namespace burn::nn {

struct TransformerEncoderInput {
    Tensor<3> tensor{};                          // [batch, seq, d_model]
    std::optional<Tensor<2, Bool>> pad_mask{};   // [batch, seq]
    std::optional<Tensor<3, Bool>> attn_mask{};  // [batch or 1, seq, seq]
    bool causal = false;  // position i attends j <= i (MhaInput::causal): generate_autoregressive_mask's
                          // effect without a mask, and the fused attention skips the hidden half

    TransformerEncoderInput mask_causal() const {
        TransformerEncoderInput c = *this;
        c.causal = true;
        return c;
    }
    TransformerEncoderInput mask_pad(const Tensor<2, Bool>& m) const {
        TransformerEncoderInput c = *this;
        c.pad_mask = m;
        return c;
    }
    TransformerEncoderInput mask_attn(const Tensor<3, Bool>& m) const {
        TransformerEncoderInput c = *this;
        c.attn_mask = m;
        return c;
    }
};

struct TransformerEncoderLayer {
    MultiHeadAttention mha;
    PositionWiseFeedForward pwff;
    LayerNorm norm_1;
    LayerNorm norm_2;
    Dropout dropout;
    bool norm_first = false;

    /// x [batch, seq, d_model]; with a cache, x holds the new positions only and the masks cover
    /// every key so far (see MultiHeadAttention::forward_step).
    Tensor<3> forward(const Tensor<3>& x, const std::optional<Tensor<2, Bool>>& pad_mask,
                      const std::optional<Tensor<3, Bool>>& attn_mask, MhaCache* cache = nullptr,
                      bool causal = false) const;

    BURN_MODULE(TransformerEncoderLayer, mha, pwff, norm_1, norm_2, dropout, norm_first)
};

/// Per-layer key/value caches plus the outputs returned so far.
struct TransformerEncoderAutoregressiveCache {
    std::vector<MhaCache> layers;
    std::optional<Tensor<3>> output{};
    int64_t len() const { return output ? output->shape()[1] : 0; }
};

struct TransformerEncoder {
    std::vector<TransformerEncoderLayer> layers;

    /// [batch, seq, d_model] -> [batch, seq, d_model]
    Tensor<3> forward(const TransformerEncoderInput& input) const;
    /// burn's contract: input holds the whole sequence so far; only positions the cache has not seen
    /// are computed (keys/values of earlier ones come from the cache), and the output covers the whole
    /// sequence. Equal to forward with the causal mask (generate_autoregressive_mask); pass that mask
    /// (all rows or just the new ones) when several positions are new in one call.
    Tensor<3> forward_autoregressive_inference(const TransformerEncoderInput& input,
                                               TransformerEncoderAutoregressiveCache& cache) const;
    TransformerEncoderAutoregressiveCache new_autoregressive_cache() const;

    BURN_MODULE(TransformerEncoder, layers)
};

struct TransformerEncoderConfig {
    std::size_t d_model = 0;
    std::size_t d_ff = 0;
    std::size_t n_heads = 0;
    std::size_t n_layers = 0;
    double dropout = 0.1;
    bool norm_first = false;
    bool quiet_softmax = false;
    Initializer initializer = default_layer_initializer();
    double layer_norm_eps = 1e-5;
    FeedForwardActivation activation = FeedForwardActivation::gelu;
    TransformerEncoder init(const Device& device = Device()) const;
    BURN_CONFIG(TransformerEncoderConfig, d_model, d_ff, n_heads, n_layers, dropout, norm_first,
                quiet_softmax, initializer, layer_norm_eps, activation)
};

struct TransformerDecoderInput {
    Tensor<3> target{};                                 // [batch, seq_t, d_model]
    Tensor<3> memory{};                                 // [batch, seq_m, d_model]
    std::optional<Tensor<2, Bool>> target_pad_mask{};   // [batch, seq_t]
    std::optional<Tensor<3, Bool>> target_attn_mask{};  // [batch or 1, seq_t, seq_t]
    std::optional<Tensor<2, Bool>> memory_pad_mask{};   // [batch, seq_m]
    std::optional<Tensor<3, Bool>> memory_attn_mask{};  // [batch or 1, seq_t, seq_m]
    bool target_causal = false;                         // self-attention is causal (MhaInput::causal)

    TransformerDecoderInput target_mask_causal() const {
        TransformerDecoderInput c = *this;
        c.target_causal = true;
        return c;
    }

    TransformerDecoderInput target_mask_pad(const Tensor<2, Bool>& m) const {
        TransformerDecoderInput c = *this;
        c.target_pad_mask = m;
        return c;
    }
    TransformerDecoderInput target_mask_attn(const Tensor<3, Bool>& m) const {
        TransformerDecoderInput c = *this;
        c.target_attn_mask = m;
        return c;
    }
    TransformerDecoderInput memory_mask_pad(const Tensor<2, Bool>& m) const {
        TransformerDecoderInput c = *this;
        c.memory_pad_mask = m;
        return c;
    }
    TransformerDecoderInput memory_mask_attn(const Tensor<3, Bool>& m) const {
        TransformerDecoderInput c = *this;
        c.memory_attn_mask = m;
        return c;
    }
};

struct TransformerDecoderLayer {
    MultiHeadAttention cross_attn;
    MultiHeadAttention self_attn;
    PositionWiseFeedForward pwff;
    LayerNorm norm_1;  // around self-attention
    LayerNorm norm_2;  // around cross-attention
    LayerNorm norm_3;  // around the feed-forward block
    Dropout dropout;
    bool norm_first = false;

    /// x: the target rows to compute (all, or the new ones with caches); masks as in
    /// TransformerDecoderInput, attn masks restricted to those rows.
    Tensor<3> forward(const Tensor<3>& x, const TransformerDecoderInput& masks,
                      MhaCache* self_cache = nullptr, MhaCache* cross_cache = nullptr) const;

    BURN_MODULE(TransformerDecoderLayer, cross_attn, self_attn, pwff, norm_1, norm_2, norm_3, dropout,
                norm_first)
};

struct TransformerDecoderAutoregressiveCache {
    std::vector<MhaCache> self_attn;
    std::vector<MhaCache> cross_attn;
    std::optional<Tensor<3>> output{};
    int64_t len() const { return output ? output->shape()[1] : 0; }
};

struct TransformerDecoder {
    std::vector<TransformerDecoderLayer> layers;

    /// target [batch, seq_t, d_model], memory [batch, seq_m, d_model] -> [batch, seq_t, d_model]
    Tensor<3> forward(const TransformerDecoderInput& input) const;
    /// As TransformerEncoder::forward_autoregressive_inference; the memory's keys and values are
    /// projected once per layer on the first call.
    Tensor<3> forward_autoregressive_inference(const TransformerDecoderInput& input,
                                               TransformerDecoderAutoregressiveCache& cache) const;
    TransformerDecoderAutoregressiveCache new_autoregressive_cache() const;

    BURN_MODULE(TransformerDecoder, layers)
};

struct TransformerDecoderConfig {
    std::size_t d_model = 0;
    std::size_t d_ff = 0;
    std::size_t n_heads = 0;
    std::size_t n_layers = 0;
    double dropout = 0.1;
    bool norm_first = false;
    bool quiet_softmax = false;
    Initializer initializer = default_layer_initializer();
    double layer_norm_eps = 1e-5;
    FeedForwardActivation activation = FeedForwardActivation::gelu;
    TransformerDecoder init(const Device& device = Device()) const;
    BURN_CONFIG(TransformerDecoderConfig, d_model, d_ff, n_heads, n_layers, dropout, norm_first,
                quiet_softmax, initializer, layer_norm_eps, activation)
};

}  // namespace burn::nn
