#pragma once
/// Multi-head attention (burn's MultiHeadAttention, PyTorch's nn.MultiheadAttention with
/// batch_first=True). PyTorch's packed in_proj_weight [3d, d] is query.weight = rows [0, d),
/// key.weight = [d, 2d), value.weight = [2d, 3d) (in_proj_bias likewise); out_proj is output.
/// Masks are Bool with true = masked out (PyTorch's bool masks, burn's); masked scores become
/// min_float (-1e4, burn's default) before the softmax.
#include <optional>
#include <vector>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/dropout.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/linear.hpp"

namespace burn::nn {

struct MhaInput {
    Tensor<3> query{};                           // [batch, seq_q, d_model]
    Tensor<3> key{};                             // [batch, seq_k, d_model]
    Tensor<3> value{};                           // [batch, seq_k, d_model]
    std::optional<Tensor<2, Bool>> pad_mask{};   // [batch, seq_k]: true = padding key (ignored)
    std::optional<Tensor<3, Bool>> attn_mask{};  // [batch or 1, seq_q, seq_k]: true = query may not see key
    /// Whether MhaOutput::weights is wanted (PyTorch's need_weights). When false (and quiet_softmax is
    /// off) the heads go through nn::scaled_dot_product_attention: one fused attention op that never
    /// stores the [seq_q, seq_k] weights (weights stays empty). A masked key is then -inf rather than
    /// min_float, which differs only for a query whose every key is masked (NaN instead of uniform).
    bool need_weights = true;
    /// Causal attention: query i sees key j only when j <= i + seq_k - seq_q (the queries are the last
    /// seq_q positions; PyTorch's is_causal, bottom-right aligned). It combines with both masks. The
    /// fused attention then skips the hidden key tiles instead of reading a [seq_q, seq_k] mask: about
    /// half the work of passing generate_autoregressive_mask as attn_mask, with the same result.
    bool causal = false;

    /// query = key = value = x
    static MhaInput self_attn(const Tensor<3>& x) { return MhaInput{x, x, x, std::nullopt, std::nullopt}; }
    /// A copy with the padding mask set (burn's builder name).
    MhaInput mask_pad(const Tensor<2, Bool>& mask) const {
        MhaInput c = *this;
        c.pad_mask = mask;
        return c;
    }
    /// A copy that asks for the context only (need_weights = false: the fused attention).
    MhaInput without_weights() const {
        MhaInput c = *this;
        c.need_weights = false;
        return c;
    }
    /// A copy with causal attention on (see causal).
    MhaInput mask_causal() const {
        MhaInput c = *this;
        c.causal = true;
        return c;
    }
    /// A copy with the attention mask set (burn's builder name).
    MhaInput mask_attn(const Tensor<3, Bool>& mask) const {
        MhaInput c = *this;
        c.attn_mask = mask;
        return c;
    }
};

struct MhaOutput {
    Tensor<4> weights{};  // [batch, n_heads, seq_q, seq_k] (after the softmax, before dropout)
    Tensor<3> context{};  // [batch, seq_q, d_model]
};

/// Keys and values already projected, for autoregressive decoding (see forward_cache). Assumes causal
/// attention: rows already computed never see keys added later.
struct MhaCache {
    std::optional<Tensor<4>> key{};     // [batch, n_heads, seq_k so far, d_k]
    std::optional<Tensor<4>> value{};   // [batch, n_heads, seq_k so far, d_k]
    std::optional<Tensor<3>> output{};  // context rows returned so far by forward_cache
    int64_t rows = 0;                   // query positions processed so far
    bool cross = false;                 // keys/values come from a fixed memory: projected once

    /// A cache for self-attention: each call appends the new positions' keys and values.
    static MhaCache autoregressive() { return MhaCache{}; }
    /// A cache for cross-attention: keys and values are projected from the memory on the first call.
    static MhaCache autoregressive_cross_attention() {
        MhaCache c;
        c.cross = true;
        return c;
    }
    /// Query rows processed so far.
    int64_t len() const { return rows; }
    void reset() { *this = cross ? autoregressive_cross_attention() : autoregressive(); }
};

struct MultiHeadAttention {
    Linear query;
    Linear key;
    Linear value;
    Linear output;
    Dropout dropout;
    std::size_t d_model = 0;
    std::size_t n_heads = 1;
    std::size_t d_k = 0;
    double min_float = -1.0e4;
    bool quiet_softmax = false;

    MhaOutput forward(const MhaInput& input) const;

    /// Autoregressive inference, burn's contract: input holds the whole sequence so far (queries, and
    /// keys/values for self-attention); only positions the cache has not seen are projected and
    /// attended, the context of earlier rows comes from the cache. Returns the full context
    /// [batch, seq_q, d_model] and the weights of the new rows only. attn_mask may cover all rows
    /// [batch, seq_q, seq_k] or just the new ones.
    MhaOutput forward_cache(const MhaInput& input, MhaCache& cache) const;

    /// One decoding step on new rows only: input.query [batch, n_new, d], input.key/value the new
    /// positions [batch, n_new, d] (self-attention; ignored after the first call of a cross cache),
    /// masks over all keys so far: pad [batch, seq_k], attn [batch or 1, n_new, seq_k]. Returns the
    /// context of the new rows. What TransformerEncoder/Decoder use per layer.
    MhaOutput forward_step(const MhaInput& input, MhaCache& cache) const;

    BURN_MODULE(MultiHeadAttention, query, key, value, output, dropout, d_model, n_heads, d_k, min_float,
                quiet_softmax)
};

struct MultiHeadAttentionConfig {
    std::size_t d_model = 0;
    std::size_t n_heads = 0;
    double dropout = 0.1;
    double min_float = -1.0e4;
    bool quiet_softmax = false;
    Initializer initializer = default_layer_initializer();
    bool enable_query_bias = true;
    bool enable_key_bias = true;
    bool enable_value_bias = true;
    bool enable_output_bias = true;
    MultiHeadAttention init(const Device& device = Device()) const;
    BURN_CONFIG(MultiHeadAttentionConfig, d_model, n_heads, dropout, min_float, quiet_softmax, initializer,
                enable_query_bias, enable_key_bias, enable_value_bias, enable_output_bias)
};

/// The causal mask [batch, seq, seq]: true above the diagonal (position i may not see j > i). A
/// broadcast view of one [seq, seq] mask.
Tensor<3, Bool> generate_autoregressive_mask(std::size_t batch_size, std::size_t seq_length,
                                             const Device& device = Device());
/// The causal mask of seq_q new queries over seq_k keys, the queries being the last seq_q positions:
/// query i may see keys j <= i + seq_k - seq_q.
Tensor<3, Bool> generate_autoregressive_mask(std::size_t batch_size, std::size_t seq_q, std::size_t seq_k,
                                             const Device& device);

struct GeneratePaddingMask {
    Tensor<2, Int> tensor{};  // [batch, seq] tokens, padded with pad_token
    Tensor<2, Bool> mask{};   // [batch, seq] true at padding
};
/// Pads (or truncates to max_seq_length) token lists into one tensor and its padding mask.
GeneratePaddingMask generate_padding_mask(int64_t pad_token,
                                          const std::vector<std::vector<int64_t>>& tokens_list,
                                          std::optional<std::size_t> max_seq_length,
                                          const Device& device = Device());

}  // namespace burn::nn
