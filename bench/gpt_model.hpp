#pragma once
// torch_reference.py's pre-norm GPT (gpt_train and gpt_train_amp of WORKLOADS.md), built from the
// project's layers: token + learned position embeddings (nn::Embedding, untied from the head),
// blocks = nn::TransformerEncoder with norm_first (LayerNorm -> causal MultiHeadAttention with biased
// q/k/v/out projections -> residual, LayerNorm -> Linear(d, 4d) -> GELU (erf) -> Linear(4d, d) ->
// residual), dropout 0 (nn.MultiheadAttention's default), final LayerNorm, Linear(d, vocab) with bias.
// Header-only: the mixed-precision tests (tests/amp_train_test.cpp) train a small one.
#include <burn/burn.hpp>
#include <cstddef>

namespace bench {

using namespace burn;

struct GptShape {
    std::size_t vocab, d, heads, layers, seq, batch;
};

struct Gpt {
    nn::Embedding tok, pos;
    nn::TransformerEncoder blocks;
    nn::LayerNorm ln;
    nn::Linear head;
    BURN_MODULE(Gpt, tok, pos, blocks, ln, head)

    static Gpt init(const GptShape& s, const Device& device) {
        nn::TransformerEncoderConfig blocks;
        blocks.d_model = s.d;
        blocks.d_ff = 4 * s.d;
        blocks.n_heads = s.heads;
        blocks.n_layers = s.layers;
        blocks.dropout = 0.0;
        blocks.norm_first = true;
        blocks.activation = nn::FeedForwardActivation::gelu;
        return Gpt{nn::EmbeddingConfig{s.vocab, s.d}.init(device),
                   nn::EmbeddingConfig{s.seq, s.d}.init(device), blocks.init(device),
                   nn::LayerNormConfig{s.d}.init(device), nn::LinearConfig{s.d, s.vocab}.init(device)};
    }
    /// torch_reference.py's Gpt, counted by hand: embeddings, per block 2 LayerNorms, in_proj
    /// [3d, d] + [3d], out_proj, fc1, fc2; final LayerNorm; head with bias.
    static std::size_t torch_params(const GptShape& s) {
        const std::size_t d = s.d;
        const std::size_t block =
            2 * (2 * d) + (3 * d * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d);
        return s.vocab * d + s.seq * d + s.layers * block + 2 * d + (d * s.vocab + s.vocab);
    }

    /// idx [batch, seq], positions [1, seq] -> logits [batch, seq, vocab]; causal attention (torch's
    /// float -inf triu mask in gpt_train, is_causal in gpt_train_amp: the same result)
    Tensor<3> forward(const Tensor<2, Int>& idx, const Tensor<2, Int>& positions) const {
        Tensor<3> x = tok.forward(idx) + pos.forward(positions);
        x = blocks.forward(nn::TransformerEncoderInput{x}.mask_causal());
        return head.forward(ln.forward(x));
    }
};

}  // namespace bench
