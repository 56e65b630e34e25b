#pragma once
/// Cross-attention of queries over a context of another width (burn's CrossAttention): queries
/// [batch, seq_q, d_model] (a decoder's states) attend keys and values projected from a context
/// [batch, seq_k, d_context] (an encoder's output). Grouped-query attention: n_heads query heads share
/// n_heads_kv key/value heads (n_heads_kv = n_heads is multi-head attention, 1 is multi-query).
///
///     auto attn = nn::CrossAttentionConfig{.d_model = 64, .d_context = 96, .n_heads = 8,
///                                          .n_heads_kv = 2, .d_head = 8}.init(device);
///     auto y = attn.forward(x, context, pad_mask);  // [batch, seq_q, d_model]
///
/// Per head: softmax(q k^T / sqrt(d_head)) v, masked keys set to min_float before the softmax (burn's
/// -1e4, safe in f16); quiet_softmax adds 1 to the softmax's denominator (a head may attend nothing).
/// Dropout acts on the weights on autodiff devices. forward_cache projects the context once and keeps
/// its keys and values for the following decoding steps (the context does not change).
#include <optional>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/dropout.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/linear.hpp"

namespace burn::nn {

/// The context's keys and values, projected by the first forward_cache call.
struct CrossAttentionCache {
    std::optional<Tensor<4>> key{};    // [batch, n_heads_kv, seq_k, d_head]
    std::optional<Tensor<4>> value{};  // [batch, n_heads_kv, seq_k, d_head]
    bool empty() const { return !key.has_value(); }
    /// Forget the context (a new one will be projected by the next call).
    void reset() { key = value = std::nullopt; }
};

struct CrossAttention {
    Linear query;   // d_model -> n_heads * d_head
    Linear key;     // d_context -> n_heads_kv * d_head
    Linear value;   // d_context -> n_heads_kv * d_head
    Linear output;  // n_heads * d_head -> d_model
    Dropout dropout;
    std::size_t n_heads = 1;
    std::size_t n_heads_kv = 1;
    std::size_t d_head = 0;
    double scale = 1.0;  // 1 / sqrt(d_head)
    double min_float = -1.0e4;
    bool quiet_softmax = false;

    /// query [batch, seq_q, d_model], context [batch, seq_k, d_context], mask [batch, seq_k] (true =
    /// the key is padding, not attended) -> [batch, seq_q, d_model].
    Tensor<3> forward(const Tensor<3>& query, const Tensor<3>& context,
                      const std::optional<Tensor<2, Bool>>& mask = std::nullopt) const;
    /// forward with the context's keys and values taken from cache (projected into it when empty);
    /// context may be left undefined once the cache is filled.
    Tensor<3> forward_cache(const Tensor<3>& query, const Tensor<3>& context,
                            const std::optional<Tensor<2, Bool>>& mask, CrossAttentionCache& cache) const;

    BURN_MODULE(CrossAttention, query, key, value, output, dropout, n_heads, n_heads_kv, d_head, scale,
                min_float, quiet_softmax)
};

struct CrossAttentionConfig {
    std::size_t d_model = 0;
    std::size_t d_context = 0;
    std::size_t n_heads = 0;
    std::size_t n_heads_kv = 0;  // must divide n_heads
    std::size_t d_head = 0;
    double dropout = 0.1;
    double min_float = -1.0e4;
    bool quiet_softmax = false;
    /// The projections' initializer; unset: Kaiming-uniform with gain 1 / sqrt(d_head) (burn's).
    std::optional<Initializer> initializer{};
    CrossAttention init(const Device& device = Device()) const;
    BURN_CONFIG(CrossAttentionConfig, d_model, d_context, n_heads, n_heads_kv, d_head, dropout, min_float,
                quiet_softmax, initializer)
};

}  // namespace burn::nn
