// Multi-head attention: the projections are GEMMs over [batch * seq, d]; the heads are [b, h, t, d_k]
// views of them (no copy), scores and context one batched matmul each, one fused masked softmax.
#include "burn/nn/attention.hpp"

#include <algorithm>
#include <cmath>

#include "burn/amp/autocast.hpp"
#include "burn/nn/activation_softmax.hpp"
#include "burn/nn/sdpa.hpp"

namespace burn::nn {

using namespace ops;

namespace {

void check_input(const char* what, const Tensor<3>& t, int64_t d_model) {
    BURN_CHECK(t.defined(), "[MultiHeadAttention] ", what, " is undefined");
    BURN_CHECK_KIND(t.shape()[2] == d_model, shape, "[MultiHeadAttention] ", what, " ", t.shape(),
                    " must be [batch, seq, d_model = ", d_model, "]");
}

/// The [batch or 1, 1, seq_q, seq_k] Bool mask combining pad [batch, seq_k] and attn [b', seq_q, seq_k]
/// (undefined when neither is given), checked against the shapes and moved to device.
TensorAny combined_mask(const std::optional<Tensor<2, Bool>>& pad, const std::optional<Tensor<3, Bool>>& attn,
                        int64_t batch, int64_t seq_q, int64_t seq_k, const Device& device) {
    TensorAny mask;
    if (pad) {
        BURN_CHECK_KIND(pad->shape()[0] == batch && pad->shape()[1] == seq_k, shape,
                        "[MultiHeadAttention] mask_pad ", pad->shape(), " must be [batch, seq_k] = [", batch,
                        ", ", seq_k, "]");
        mask = reshape(to_device(pad->handle(), device), Dims{batch, 1, 1, seq_k});
    }
    if (attn) {
        const int64_t b = attn->shape()[0];
        BURN_CHECK_KIND((b == batch || b == 1) && attn->shape()[1] == seq_q && attn->shape()[2] == seq_k,
                        shape, "[MultiHeadAttention] mask_attn ", attn->shape(),
                        " must be [batch, seq_q, seq_k] = [", batch, ", ", seq_q, ", ", seq_k,
                        "] (or batch 1)");
        TensorAny a = unsqueeze_dim(to_device(attn->handle(), device), 1);
        mask = mask.defined() ? bool_or(std::move(mask), std::move(a)) : std::move(a);
    }
    return mask;
}

}  // namespace

MultiHeadAttention MultiHeadAttentionConfig::init(const Device& device) const {
    BURN_CHECK(d_model > 0 && n_heads > 0,
               "[MultiHeadAttentionConfig] d_model and n_heads must be positive, got ", d_model, " and ",
               n_heads);
    BURN_CHECK(d_model % n_heads == 0, "[MultiHeadAttentionConfig] d_model ", d_model,
               " must be divisible by n_heads ", n_heads);
    BURN_CHECK(dropout >= 0.0 && dropout < 1.0, "[MultiHeadAttentionConfig] dropout must be in [0, 1), got ",
               dropout);
    auto linear = [&](bool bias) { return LinearConfig{d_model, d_model, bias, initializer}.init(device); };
    MultiHeadAttention m;
    m.query = linear(enable_query_bias);
    m.key = linear(enable_key_bias);
    m.value = linear(enable_value_bias);
    m.output = linear(enable_output_bias);
    m.dropout = Dropout{dropout, false};
    m.d_model = d_model;
    m.n_heads = n_heads;
    m.d_k = d_model / n_heads;
    m.min_float = min_float;
    m.quiet_softmax = quiet_softmax;
    return m;
}

namespace {

struct Heads {
    const MultiHeadAttention& m;
    /// Under autocast, on the fused path: the low dtype the heads and the attention's output stay in
    /// (autocast::activation_dtype), as torch.autocast's in_proj, SDPA and out_proj keep them: the
    /// projections write bf16/f16, the fused op reads and writes it, the output projection reads it and
    /// writes the query's dtype. Else every projection writes the query's dtype.
    std::optional<DType> low{};
    /// [batch, seq, d_model] -> linear -> [batch, n_heads, seq, d_k] (a view of the GEMM's output).
    TensorAny split(const TensorAny& x, const Linear& linear) const {
        const int64_t b = x.shape()[0], t = x.shape()[1];
        TensorAny y = reshape(low ? linear.forward_in(x, *low, *low) : linear.forward_any(x),
                              Dims{b, t, static_cast<int64_t>(m.n_heads), static_cast<int64_t>(m.d_k)});
        return swap_dims(std::move(y), 1, 2);
    }
    /// q [b, h, tq, d_k], k/v [b, h, tk, d_k] -> (weights [b, h, tq, tk], context [b, tq, d_model]).
    MhaOutput attend(const TensorAny& q, const TensorAny& k, const TensorAny& v, TensorAny mask,
                     bool need_weights, bool causal, DType out_dtype) const {
        const int64_t b = q.shape()[0], tq = q.shape()[2], tk = k.shape()[2];
        BURN_CHECK_KIND(!causal || tq <= tk, shape, "[MultiHeadAttention] causal attention of ", tq,
                        " queries over ", tk,
                        " keys: the queries are the last positions, so there must be at",
                        " least as many keys; pass an explicit attn_mask instead");
        if (!need_weights && !m.quiet_softmax) {  // one fused op; the weights are never stored
            SdpaOptions o;
            o.causal = causal;
            if (mask.defined()) o.mask = Tensor<4, Bool>(mask);
            o.dropout = m.dropout.prob;
            const Tensor<4> ctx = scaled_dot_product_attention(Tensor<4>(q), Tensor<4>(k), Tensor<4>(v), o);
            TensorAny c =
                reshape(swap_dims(ctx.handle(), 1, 2), Dims{b, tq, static_cast<int64_t>(m.d_model)});
            return MhaOutput{Tensor<4>(), Tensor<3>(low ? m.output.forward_in(c, *low, out_dtype)
                                                        : m.output.forward_any(c))};
        }
        if (causal) {  // the composed path takes causality as one more mask
            TensorAny c = unsqueeze_dim(generate_autoregressive_mask(1, static_cast<std::size_t>(tq),
                                                                     static_cast<std::size_t>(tk), q.device())
                                            .handle(),
                                        1);
            mask = mask.defined() ? bool_or(std::move(mask), std::move(c)) : std::move(c);
        }
        // Scale q (tq * d_k elements) rather than the scores (tq * tk); also makes q contiguous.
        TensorAny qs = mul_scalar(q, 1.0 / std::sqrt(static_cast<double>(m.d_k)));
        TensorAny scores = matmul(std::move(qs), swap_dims(k, 2, 3));
        TensorAny w;
        if (m.quiet_softmax) {
            if (mask.defined()) scores = mask_fill(std::move(scores), mask, m.min_float);
            w = activation::any::quiet_softmax(scores, 3);
        } else {
            // one fused pass (and one in the backward) instead of a mask pass plus softmax
            w = mask.defined() ? masked_softmax(std::move(scores), mask, 3, m.min_float)
                               : softmax(std::move(scores), 3);
        }
        TensorAny ctx = matmul(m.dropout.forward_any(w), v);  // [b, h, tq, d_k]
        ctx = reshape(swap_dims(std::move(ctx), 1, 2), Dims{b, tq, static_cast<int64_t>(m.d_model)});
        return MhaOutput{Tensor<4>(std::move(w)), Tensor<3>(m.output.forward_any(ctx))};
    }
};

}  // namespace

MhaOutput MultiHeadAttention::forward(const MhaInput& input) const {
    const auto d = static_cast<int64_t>(d_model);
    check_input("query", input.query, d);
    check_input("key", input.key, d);
    check_input("value", input.value, d);
    const int64_t b = input.query.shape()[0], tq = input.query.shape()[1], tk = input.key.shape()[1];
    BURN_CHECK_KIND(input.key.shape()[0] == b && input.value.shape()[0] == b && input.value.shape()[1] == tk,
                    shape, "[MultiHeadAttention] query ", input.query.shape(), ", key ", input.key.shape(),
                    " and value ", input.value.shape(),
                    " must share the batch, and key and value the sequence length");
    TensorAny mask = combined_mask(input.pad_mask, input.attn_mask, b, tq, tk, input.query.device());
    Heads h{*this};
    const TensorAny& x = input.query.handle();
    if (!input.need_weights && !quiet_softmax) h.low = autocast::activation_dtype(x.device(), x.dtype());
    TensorAny q = h.split(x, query);
    // Self-attention passes one tensor three times: project it once per linear (the same GEMMs).
    TensorAny k = h.split(input.key.handle(), key);
    TensorAny v = h.split(input.value.handle(), value);
    return h.attend(q, k, v, mask, input.need_weights, input.causal, x.dtype());
}

MhaOutput MultiHeadAttention::forward_step(const MhaInput& input, MhaCache& cache) const {
    const auto d = static_cast<int64_t>(d_model);
    check_input("query", input.query, d);
    const int64_t b = input.query.shape()[0], n = input.query.shape()[1];
    Heads h{*this};
    if (!cache.cross || !cache.key) {
        check_input("key", input.key, d);
        check_input("value", input.value, d);
        BURN_CHECK_KIND(input.key.shape()[0] == b && input.value.dims() == input.key.dims(), shape,
                        "[MultiHeadAttention] key ", input.key.shape(), " and value ", input.value.shape(),
                        " must match and share the query's batch ", b);
        Tensor<4> k(h.split(input.key.handle(), key)), v(h.split(input.value.handle(), value));
        if (cache.key && !cache.cross) {
            BURN_CHECK_KIND(cache.key->shape()[0] == b, shape, "[MultiHeadAttention] the cache holds batch ",
                            cache.key->shape()[0], " but the input has batch ", b, "; reset the cache");
            k = Tensor<4>::cat({*cache.key, k}, 2);
            v = Tensor<4>::cat({*cache.value, v}, 2);
        }
        cache.key = k;
        cache.value = v;
    }
    BURN_CHECK_KIND(cache.key->shape()[0] == b, shape, "[MultiHeadAttention] the cache holds batch ",
                    cache.key->shape()[0], " but the input has batch ", b, "; reset the cache");
    const int64_t tk = cache.key->shape()[2];
    TensorAny mask = combined_mask(input.pad_mask, input.attn_mask, b, n, tk, input.query.device());
    MhaOutput out = h.attend(h.split(input.query.handle(), query), cache.key->handle(), cache.value->handle(),
                             mask, input.need_weights, input.causal, input.query.dtype());
    cache.rows += n;
    return out;
}

MhaOutput MultiHeadAttention::forward_cache(const MhaInput& input, MhaCache& cache) const {
    check_input("query", input.query, static_cast<int64_t>(d_model));
    const int64_t tq = input.query.shape()[1], done = cache.rows, n = tq - done;
    BURN_CHECK_KIND(n >= 0, shape, "[MultiHeadAttention] the cache has seen ", done,
                    " positions but the query has only ", tq, "; reset the cache for a new sequence");
    if (n == 0 && cache.output) return MhaOutput{Tensor<4>(), *cache.output};
    MhaInput step = input;
    step.query = input.query.narrow(1, done, n);
    if (!cache.cross) {
        check_input("key", input.key, static_cast<int64_t>(d_model));
        const int64_t have = cache.key ? cache.key->shape()[2] : 0, tk = input.key.shape()[1];
        BURN_CHECK_KIND(tk >= have, shape, "[MultiHeadAttention] the cache holds ", have,
                        " keys but the input has ", tk, "; reset the cache for a new sequence");
        step.key = input.key.narrow(1, have, tk - have);
        step.value = input.value.narrow(1, have, tk - have);
    }
    if (input.attn_mask && input.attn_mask->shape()[1] == tq && n != tq)
        step.attn_mask = input.attn_mask->narrow(1, done, n);
    MhaOutput out = forward_step(step, cache);
    cache.output = cache.output ? Tensor<3>::cat({*cache.output, out.context}, 1) : out.context;
    return MhaOutput{out.weights, *cache.output};
}

Tensor<3, Bool> generate_autoregressive_mask(std::size_t batch_size, std::size_t seq_length,
                                             const Device& device) {
    return generate_autoregressive_mask(batch_size, seq_length, seq_length, device);
}

Tensor<3, Bool> generate_autoregressive_mask(std::size_t batch_size, std::size_t seq_q, std::size_t seq_k,
                                             const Device& device) {
    BURN_CHECK(seq_q <= seq_k, "[generate_autoregressive_mask] seq_q ", seq_q, " exceeds seq_k ", seq_k);
    const auto q = static_cast<int64_t>(seq_q), k = static_cast<int64_t>(seq_k);
    // key j is masked for query i when j > i + (k - q)
    TensorAny rows = reshape(arange(k - q, k, 1, DType::i32, device), Dims{q, 1});
    TensorAny cols = reshape(arange(0, k, 1, DType::i32, device), Dims{1, k});
    TensorAny mask = greater(std::move(cols), std::move(rows));  // [q, k]
    return Tensor<3, Bool>(
        expand(unsqueeze_dim(std::move(mask), 0), Dims{static_cast<int64_t>(batch_size), q, k}));
}

GeneratePaddingMask generate_padding_mask(int64_t pad_token,
                                          const std::vector<std::vector<int64_t>>& tokens_list,
                                          std::optional<std::size_t> max_seq_length, const Device& device) {
    std::size_t size = 1;
    if (!tokens_list.empty()) {
        size = 0;
        for (const auto& t : tokens_list) size = std::max(size, t.size());
    }
    if (max_seq_length) size = std::min(size, *max_seq_length);
    std::vector<int32_t> data(tokens_list.size() * size, static_cast<int32_t>(pad_token));
    for (std::size_t i = 0; i < tokens_list.size(); ++i)
        for (std::size_t j = 0; j < std::min(size, tokens_list[i].size()); ++j)
            data[i * size + j] = static_cast<int32_t>(tokens_list[i][j]);
    Tensor<2, Int> tensor = Tensor<2, Int>::from_data(
        TensorData(data, Dims{static_cast<int64_t>(tokens_list.size()), static_cast<int64_t>(size)}), device);
    return GeneratePaddingMask{tensor, tensor.equal_elem(static_cast<double>(pad_token))};
}

}  // namespace burn::nn
