// gpt_train of WORKLOADS.md: one training step (forward, cross-entropy over all positions, backward,
// AdamW lr 3e-4) of torch_reference.py's pre-norm GPT, built from the project's layers:
//   token + learned position embeddings (nn::Embedding, untied from the head),
//   blocks = nn::TransformerEncoder with norm_first (LayerNorm -> causal MultiHeadAttention with
//   biased q/k/v/out projections -> residual, LayerNorm -> Linear(d, 4d) -> GELU (erf) ->
//   Linear(4d, d) -> residual), dropout 0 (nn.MultiheadAttention's default),
//   final LayerNorm, Linear(d, vocab) with bias.
#include <memory>

#include "harness.hpp"
#include "workloads_util.hpp"

namespace bench {

using namespace burn;

namespace {

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

    /// idx [batch, seq], positions [1, seq], mask [1, seq, seq] -> logits [batch, seq, vocab]
    Tensor<3> forward(const Tensor<2, Int>& idx, const Tensor<2, Int>& positions,
                      const Tensor<3, Bool>& mask) const {
        Tensor<3> x = tok.forward(idx) + pos.forward(positions);
        x = blocks.forward(nn::TransformerEncoderInput{x, std::nullopt, mask});
        return head.forward(ln.forward(x));
    }
};

Workload gpt_train() {
    Workload w;
    w.name = "gpt_train";
    w.warmup = 2;
    w.reps = 5;
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const GptShape shape =
            ctx.gpu ? GptShape{50304, 768, 12, 12, 1024, 8} : GptShape{8192, 256, 4, 4, 128, 8};
        auto device = ctx.device.autodiff();
        const auto b = static_cast<int64_t>(shape.batch), t = static_cast<int64_t>(shape.seq);
        struct State {
            Gpt model;
            optim::Optimizer optimizer;
            Tensor<2, Int> x, positions;
            Tensor<1, Int> y;
            Tensor<3, Bool> mask;
        };
        optim::AdamWConfig adamw;  // torch.optim.AdamW's defaults
        adamw.epsilon = 1e-8;
        adamw.weight_decay = 0.01;
        const auto tokens = shape.batch * shape.seq;
        const int vocab = static_cast<int>(shape.vocab);
        auto s = std::make_shared<State>(State{
            Gpt::init(shape, device), adamw.init(), random_classes(tokens, vocab, device).reshape<2>({b, t}),
            Tensor<1, Int>::arange(0, t, device).reshape<2>({1, t}), random_classes(tokens, vocab, device, 7),
            nn::generate_autoregressive_mask(1, shape.seq, device)});
        check_param_count("gpt_train", s->model.num_params(), Gpt::torch_params(shape));
        Case c;
        c.step = [s, vocab = static_cast<int64_t>(shape.vocab)] {
            Tensor<3> logits = s->model.forward(s->x, s->positions, s->mask);
            auto loss = nn::loss::CrossEntropyLoss().forward(logits.reshape<2>({-1, vocab}), s->y);
            auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
            s->model = s->optimizer.step(3e-4, std::move(s->model), grads);
        };
        c.phases = [s, vocab = static_cast<int64_t>(shape.vocab)] {
            PhaseTimer t(s->x.device());
            {
                Tensor<3> logits = s->model.forward(s->x, s->positions, s->mask);
                auto loss = nn::loss::CrossEntropyLoss().forward(logits.reshape<2>({-1, vocab}), s->y);
                t.mark("forward");
                auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
                t.mark("backward");
                s->model = s->optimizer.step(3e-4, std::move(s->model), grads);
                t.mark("optimizer");
            }  // the graph, gradients and loss are freed here
            t.mark("release");
            return t.phases;
        };
        c.units = double(tokens);
        c.unit = "token";
        return c;
    };
    return w;
}

}  // namespace

void add_gpt_workloads(std::vector<Workload>& table) {
    table.push_back(gpt_train());
}

}  // namespace bench
