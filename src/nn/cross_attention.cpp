// CrossAttention (nn/cross_attention.hpp): projections, grouped-query head expansion, masked softmax
// (or quiet softmax), dropout, the weighted sum and the output projection.
#include "burn/nn/cross_attention.hpp"

#include <cmath>

#include "burn/nn/activation_softmax.hpp"

namespace burn::nn {

using namespace ops;

CrossAttention CrossAttentionConfig::init(const Device& device) const {
    BURN_CHECK(
        d_model > 0 && d_context > 0 && n_heads > 0 && n_heads_kv > 0 && d_head > 0,
        "[CrossAttentionConfig] d_model, d_context, n_heads, n_heads_kv and d_head must be positive, got ",
        d_model, ", ", d_context, ", ", n_heads, ", ", n_heads_kv, ", ", d_head);
    BURN_CHECK(n_heads % n_heads_kv == 0, "[CrossAttentionConfig] n_heads ", n_heads,
               " must be a multiple of n_heads_kv ", n_heads_kv, " (each key/value head serves n_heads / ",
               "n_heads_kv query heads)");
    BURN_CHECK(dropout >= 0.0 && dropout < 1.0, "[CrossAttentionConfig] dropout must be in [0, 1), got ",
               dropout);
    const Initializer init =
        initializer.value_or(Initializer::KaimingUniform(1.0 / std::sqrt(static_cast<double>(d_head))));
    auto linear = [&](std::size_t in, std::size_t out) {
        return LinearConfig{in, out, true, init}.init(device);
    };
    CrossAttention m;
    m.query = linear(d_model, n_heads * d_head);
    m.key = linear(d_context, n_heads_kv * d_head);
    m.value = linear(d_context, n_heads_kv * d_head);
    m.output = linear(n_heads * d_head, d_model);
    m.dropout = Dropout{dropout, false};
    m.n_heads = n_heads;
    m.n_heads_kv = n_heads_kv;
    m.d_head = d_head;
    m.scale = 1.0 / std::sqrt(static_cast<double>(d_head));
    m.min_float = min_float;
    m.quiet_softmax = quiet_softmax;
    return m;
}

namespace {

/// [batch, seq, heads * d_head] -> [batch, heads, seq, d_head]
TensorAny split_heads(const TensorAny& x, std::size_t heads, std::size_t d_head) {
    const int64_t b = x.shape()[0], t = x.shape()[1];
    return swap_dims(reshape(x, Dims{b, t, static_cast<int64_t>(heads), static_cast<int64_t>(d_head)}), 1, 2);
}

/// [batch, kv_heads, seq, d] -> [batch, kv_heads * rep, seq, d], each kv head repeated rep times.
TensorAny repeat_heads(const TensorAny& x, int64_t rep) {
    if (rep == 1) return x;
    const Dims s = x.shape();
    TensorAny e = expand(reshape(x, Dims{s[0], s[1], 1, s[2], s[3]}), Dims{s[0], s[1], rep, s[2], s[3]});
    return reshape(std::move(e), Dims{s[0], s[1] * rep, s[2], s[3]});
}

void check_context(const CrossAttention& m, const Tensor<3>& query, const Tensor<3>& context) {
    const int64_t d_context = m.key.weight.val().shape()[1];
    BURN_CHECK_KIND(
        context.defined() && context.shape()[2] == d_context && context.shape()[0] == query.shape()[0], shape,
        "[CrossAttention] context ", context.defined() ? context.shape() : Dims{},
        " must be [batch = ", query.shape()[0], ", seq_k, d_context = ", d_context, "]");
}

}  // namespace

Tensor<3> CrossAttention::forward(const Tensor<3>& query_in, const Tensor<3>& context,
                                  const std::optional<Tensor<2, Bool>>& mask) const {
    CrossAttentionCache cache;
    return forward_cache(query_in, context, mask, cache);
}

Tensor<3> CrossAttention::forward_cache(const Tensor<3>& query_in, const Tensor<3>& context,
                                        const std::optional<Tensor<2, Bool>>& mask,
                                        CrossAttentionCache& cache) const {
    const int64_t d_model = query.weight.val().shape()[1];
    BURN_CHECK_KIND(query_in.defined() && query_in.shape()[2] == d_model, shape, "[CrossAttention] query ",
                    query_in.defined() ? query_in.shape() : Dims{},
                    " must be [batch, seq_q, d_model = ", d_model, "]");
    if (cache.empty()) {
        check_context(*this, query_in, context);
        cache.key = Tensor<4>(split_heads(key.forward_any(context.handle()), n_heads_kv, d_head));
        cache.value = Tensor<4>(split_heads(value.forward_any(context.handle()), n_heads_kv, d_head));
    }
    const int64_t b = query_in.shape()[0], lq = query_in.shape()[1], lk = cache.key->shape()[2];
    BURN_CHECK_KIND(cache.key->shape()[0] == b, shape, "[CrossAttention] the cache holds a context of batch ",
                    cache.key->shape()[0], ", the query has batch ", b,
                    " (reset the cache for a new context)");
    const int64_t rep = static_cast<int64_t>(n_heads / n_heads_kv);
    const TensorAny q = split_heads(query.forward_any(query_in.handle()), n_heads, d_head);
    const TensorAny k = repeat_heads(cache.key->handle(), rep), v = repeat_heads(cache.value->handle(), rep);
    TensorAny scores = mul_scalar(matmul(q, swap_dims(k, 2, 3)), scale);
    if (mask) {
        BURN_CHECK_KIND(mask->shape()[0] == b && mask->shape()[1] == lk, shape, "[CrossAttention] mask ",
                        mask->shape(), " must be [batch, seq_k] = [", b, ", ", lk, "]");
        scores = mask_fill(std::move(scores), reshape(mask->handle(), Dims{b, 1, 1, lk}), min_float);
    }
    TensorAny w = quiet_softmax ? activation::any::quiet_softmax(scores, 3) : softmax(scores, 3);
    w = dropout.forward_any(w);
    TensorAny ctx = swap_dims(matmul(w, v), 1, 2);  // [b, lq, heads, d_head]
    ctx = reshape(std::move(ctx), Dims{b, lq, static_cast<int64_t>(n_heads * d_head)});
    return Tensor<3>(output.forward_any(ctx));
}

}  // namespace burn::nn
