#pragma once
/// Scaled dot-product attention, PyTorch's F.scaled_dot_product_attention on burn's tensors:
///     auto ctx = nn::scaled_dot_product_attention(q, k, v, {.causal = true});  // [b, h, tq, dv]
/// One op (the attention row: ops::attention); the CPU runs it in one pass per query row without storing
/// the scores, other backends run its decomposition (matmul, masks, softmax, matmul) until they have a
/// kernel. With dropout on a training (autodiff) device it is composed, so that the dropped weights
/// exist. docs/nn.md, "Attention".
#include <optional>

#include "burn/tensor/tensor.hpp"

namespace burn::nn {

struct SdpaOptions {
    bool causal = false;                    // query i attends keys j <= i + seq_k - seq_q
    std::optional<Tensor<4, Bool>> mask{};  // broadcastable to [batch, heads, seq_q, seq_k]: true = the
                                            // key is not attended (burn's convention, as MhaInput's)
    double dropout = 0;                     // on the attention weights, on autodiff devices only
    std::optional<double> scale{};          // default 1 / sqrt(head dim)
    std::optional<double> softcap{};        // scores become softcap * tanh(scores / softcap) (Gemma 2's
                                            // logit soft-capping, burn's softcap), before the masks
};

/// q [batch, heads, seq_q, d], k [batch, heads, seq_k, d], v [batch, heads, seq_k, dv] ->
/// [batch, heads, seq_q, dv]. A query whose every key is masked gives NaN (as PyTorch).
Tensor<4> scaled_dot_product_attention(const Tensor<4>& q, const Tensor<4>& k, const Tensor<4>& v,
                                       const SdpaOptions& options = {});

/// The same attention always composed from tensor ops (burn's attention_fallback): scores = q k^T *
/// scale, soft-capped, masked with -inf, softmax, dropout (autodiff devices only), matmul with v. What
/// scaled_dot_product_attention runs for softcap and for dropout while training; a reference for the
/// fused op, and differentiable through the ordinary gradient rules.
Tensor<4> attention_fallback(const Tensor<4>& q, const Tensor<4>& k, const Tensor<4>& v,
                             const SdpaOptions& options = {});

}  // namespace burn::nn
