// Transformer encoder/decoder stacks built from MultiHeadAttention, PositionWiseFeedForward and
// LayerNorm; the autoregressive paths run each layer on the new positions only.
#include "burn/nn/transformer.hpp"

namespace burn::nn {

namespace {

void check_config(const char* name, std::size_t d_model, std::size_t d_ff, std::size_t n_heads,
                  std::size_t n_layers, double dropout) {
    BURN_CHECK(d_model > 0 && d_ff > 0 && n_heads > 0 && n_layers > 0, "[", name,
               "] d_model, d_ff, n_heads and n_layers must be positive, got ", d_model, ", ", d_ff, ", ",
               n_heads, ", ", n_layers);
    BURN_CHECK(d_model % n_heads == 0, "[", name, "] d_model ", d_model, " must be divisible by n_heads ",
               n_heads);
    BURN_CHECK(dropout >= 0.0 && dropout < 1.0, "[", name, "] dropout must be in [0, 1), got ", dropout);
}

MultiHeadAttention make_mha(std::size_t d_model, std::size_t n_heads, double dropout, bool quiet,
                            const Initializer& init, const Device& device) {
    MultiHeadAttentionConfig c;
    c.d_model = d_model;
    c.n_heads = n_heads;
    c.dropout = dropout;
    c.quiet_softmax = quiet;
    c.initializer = init;
    return c.init(device);
}

PositionWiseFeedForward make_pwff(std::size_t d_model, std::size_t d_ff, double dropout,
                                  const Initializer& init, FeedForwardActivation act, const Device& device) {
    return PositionWiseFeedForwardConfig{d_model, d_ff, dropout, init, act}.init(device);
}

LayerNorm make_norm(std::size_t d_model, double eps, const Device& device) {
    return LayerNormConfig{d_model, eps, true}.init(device);
}

/// The rows [done, done + n) of an attention mask given for all seq rows (or already for the new ones).
std::optional<Tensor<3, Bool>> new_rows(const std::optional<Tensor<3, Bool>>& mask, int64_t seq, int64_t done,
                                        int64_t n, const char* layer) {
    if (!mask) return mask;
    const int64_t rows = mask->shape()[1];
    if (rows == n) return mask;
    BURN_CHECK_KIND(rows == seq, shape, "[", layer, "] attention mask ", mask->shape(), " must have ", seq,
                    " rows (the whole sequence) or ", n, " (the new positions)");
    return mask->narrow(1, done, n);
}

void check_model(const Tensor<3>& x, const char* what, int64_t d, const char* layer) {
    BURN_CHECK(x.defined(), "[", layer, "] ", what, " is undefined");
    BURN_CHECK_KIND(x.shape()[2] == d, shape, "[", layer, "] ", what, " ", x.shape(),
                    " must be [batch, seq, ", d, "]");
}

}  // namespace

// ------------------------------------------------------------------ encoder

Tensor<3> TransformerEncoderLayer::forward(const Tensor<3>& x, const std::optional<Tensor<2, Bool>>& pad_mask,
                                           const std::optional<Tensor<3, Bool>>& attn_mask, MhaCache* cache,
                                           bool causal) const {
    auto attend = [&](const Tensor<3>& z) {
        MhaInput in{z, z, z, pad_mask, attn_mask, false, causal};  // the context only: fused attention
        return cache ? mha.forward_step(in, *cache).context : mha.forward(in).context;
    };
    auto drop = [&](const Tensor<3>& z) { return dropout.forward(z); };
    if (norm_first) {
        Tensor<3> x1 = x + drop(attend(norm_1.forward(x)));
        return x1 + drop(pwff.forward(norm_2.forward(x1)));
    }
    Tensor<3> x1 = norm_1.forward(x + drop(attend(x)));
    return norm_2.forward(x1 + drop(pwff.forward(x1)));
}

TransformerEncoder TransformerEncoderConfig::init(const Device& device) const {
    check_config("TransformerEncoderConfig", d_model, d_ff, n_heads, n_layers, dropout);
    TransformerEncoder enc;
    for (std::size_t i = 0; i < n_layers; ++i) {
        TransformerEncoderLayer l;
        l.mha = make_mha(d_model, n_heads, dropout, quiet_softmax, initializer, device);
        l.pwff = make_pwff(d_model, d_ff, dropout, initializer, activation, device);
        l.norm_1 = make_norm(d_model, layer_norm_eps, device);
        l.norm_2 = make_norm(d_model, layer_norm_eps, device);
        l.dropout = Dropout{dropout, false};
        l.norm_first = norm_first;
        enc.layers.push_back(std::move(l));
    }
    return enc;
}

Tensor<3> TransformerEncoder::forward(const TransformerEncoderInput& input) const {
    BURN_CHECK(!layers.empty(), "[TransformerEncoder] has no layers");
    check_model(input.tensor, "input", static_cast<int64_t>(layers[0].mha.d_model), "TransformerEncoder");
    Tensor<3> x = input.tensor;
    for (const auto& layer : layers)
        x = layer.forward(x, input.pad_mask, input.attn_mask, nullptr, input.causal);
    return x;
}

TransformerEncoderAutoregressiveCache TransformerEncoder::new_autoregressive_cache() const {
    return TransformerEncoderAutoregressiveCache{
        std::vector<MhaCache>(layers.size(), MhaCache::autoregressive()), std::nullopt};
}

Tensor<3> TransformerEncoder::forward_autoregressive_inference(
    const TransformerEncoderInput& input, TransformerEncoderAutoregressiveCache& cache) const {
    BURN_CHECK(!layers.empty(), "[TransformerEncoder] has no layers");
    check_model(input.tensor, "input", static_cast<int64_t>(layers[0].mha.d_model), "TransformerEncoder");
    if (cache.layers.size() != layers.size()) cache = new_autoregressive_cache();
    const int64_t seq = input.tensor.shape()[1], done = cache.len(), n = seq - done;
    BURN_CHECK_KIND(n >= 0, shape, "[TransformerEncoder] the cache has seen ", done,
                    " positions but the input has ", seq, "; start a new cache for a new sequence");
    if (n == 0 && cache.output) return *cache.output;
    std::optional<Tensor<3, Bool>> attn = new_rows(input.attn_mask, seq, done, n, "TransformerEncoder");
    Tensor<3> x = input.tensor.narrow(1, done, n);
    for (std::size_t i = 0; i < layers.size(); ++i)
        x = layers[i].forward(x, input.pad_mask, attn, &cache.layers[i], input.causal);
    cache.output = cache.output ? Tensor<3>::cat({*cache.output, x}, 1) : x;
    return *cache.output;
}

// ------------------------------------------------------------------ decoder

Tensor<3> TransformerDecoderLayer::forward(const Tensor<3>& x, const TransformerDecoderInput& masks,
                                           MhaCache* self_cache, MhaCache* cross_cache) const {
    auto self = [&](const Tensor<3>& z) {
        MhaInput in{z, z, z, masks.target_pad_mask, masks.target_attn_mask, false, masks.target_causal};
        return self_cache ? self_attn.forward_step(in, *self_cache).context : self_attn.forward(in).context;
    };
    auto cross = [&](const Tensor<3>& z) {
        MhaInput in{z, masks.memory, masks.memory, masks.memory_pad_mask, masks.memory_attn_mask, false};
        return cross_cache ? cross_attn.forward_step(in, *cross_cache).context
                           : cross_attn.forward(in).context;
    };
    auto drop = [&](const Tensor<3>& z) { return dropout.forward(z); };
    if (norm_first) {
        Tensor<3> x1 = x + drop(self(norm_1.forward(x)));
        Tensor<3> x2 = x1 + drop(cross(norm_2.forward(x1)));
        return x2 + drop(pwff.forward(norm_3.forward(x2)));
    }
    Tensor<3> x1 = norm_1.forward(x + drop(self(x)));
    Tensor<3> x2 = norm_2.forward(x1 + drop(cross(x1)));
    return norm_3.forward(x2 + drop(pwff.forward(x2)));
}

TransformerDecoder TransformerDecoderConfig::init(const Device& device) const {
    check_config("TransformerDecoderConfig", d_model, d_ff, n_heads, n_layers, dropout);
    TransformerDecoder dec;
    for (std::size_t i = 0; i < n_layers; ++i) {
        TransformerDecoderLayer l;
        l.cross_attn = make_mha(d_model, n_heads, dropout, quiet_softmax, initializer, device);
        l.self_attn = make_mha(d_model, n_heads, dropout, quiet_softmax, initializer, device);
        l.pwff = make_pwff(d_model, d_ff, dropout, initializer, activation, device);
        l.norm_1 = make_norm(d_model, layer_norm_eps, device);
        l.norm_2 = make_norm(d_model, layer_norm_eps, device);
        l.norm_3 = make_norm(d_model, layer_norm_eps, device);
        l.dropout = Dropout{dropout, false};
        l.norm_first = norm_first;
        dec.layers.push_back(std::move(l));
    }
    return dec;
}

Tensor<3> TransformerDecoder::forward(const TransformerDecoderInput& input) const {
    BURN_CHECK(!layers.empty(), "[TransformerDecoder] has no layers");
    const auto d = static_cast<int64_t>(layers[0].self_attn.d_model);
    check_model(input.target, "target", d, "TransformerDecoder");
    check_model(input.memory, "memory", d, "TransformerDecoder");
    Tensor<3> x = input.target;
    for (const auto& layer : layers) x = layer.forward(x, input);
    return x;
}

TransformerDecoderAutoregressiveCache TransformerDecoder::new_autoregressive_cache() const {
    return TransformerDecoderAutoregressiveCache{
        std::vector<MhaCache>(layers.size(), MhaCache::autoregressive()),
        std::vector<MhaCache>(layers.size(), MhaCache::autoregressive_cross_attention()), std::nullopt};
}

Tensor<3> TransformerDecoder::forward_autoregressive_inference(
    const TransformerDecoderInput& input, TransformerDecoderAutoregressiveCache& cache) const {
    BURN_CHECK(!layers.empty(), "[TransformerDecoder] has no layers");
    const auto d = static_cast<int64_t>(layers[0].self_attn.d_model);
    check_model(input.target, "target", d, "TransformerDecoder");
    check_model(input.memory, "memory", d, "TransformerDecoder");
    if (cache.self_attn.size() != layers.size()) cache = new_autoregressive_cache();
    const int64_t seq = input.target.shape()[1], done = cache.len(), n = seq - done;
    BURN_CHECK_KIND(n >= 0, shape, "[TransformerDecoder] the cache has seen ", done,
                    " positions but the target has ", seq, "; start a new cache for a new sequence");
    if (n == 0 && cache.output) return *cache.output;
    TransformerDecoderInput step = input;
    step.target_attn_mask = new_rows(input.target_attn_mask, seq, done, n, "TransformerDecoder");
    step.memory_attn_mask = new_rows(input.memory_attn_mask, seq, done, n, "TransformerDecoder");
    Tensor<3> x = input.target.narrow(1, done, n);
    for (std::size_t i = 0; i < layers.size(); ++i)
        x = layers[i].forward(x, step, &cache.self_attn[i], &cache.cross_attn[i]);
    cache.output = cache.output ? Tensor<3>::cat({*cache.output, x}, 1) : x;
    return *cache.output;
}

}  // namespace burn::nn
