// gpt_train and gpt_train_amp of WORKLOADS.md: one training step (forward, cross-entropy over all
// positions, backward, AdamW lr 3e-4) of torch_reference.py's pre-norm GPT (gpt_model.hpp); the amp one
// in bf16 autocast with float32 master weights.
#include <memory>

#include "gpt_model.hpp"
#include "harness.hpp"
#include "workloads_util.hpp"

namespace bench {

using namespace burn;

namespace {

/// gpt_train, and gpt_train_amp with amp: the same model and step on the bf16 autocast decorator
/// (docs/mixed_precision.md): matmuls and attention in bf16, float32 master weights and loss.
Workload gpt_train(bool amp) {
    Workload w;
    w.name = amp ? "gpt_train_amp" : "gpt_train";
    w.warmup = amp ? 5 : 2;  // gpt_train_amp: WORKLOADS.md's warm-up 5, median of 10
    w.reps = amp ? 10 : 5;
    w.make = [amp](const Context& ctx) -> std::optional<Case> {
        const GptShape shape =
            ctx.gpu ? GptShape{50304, 768, 12, 12, 1024, 8} : GptShape{8192, 256, 4, 4, 128, 8};
        auto device = (amp ? ctx.device.autocast(DType::bf16) : ctx.device).autodiff();
        const auto b = static_cast<int64_t>(shape.batch), t = static_cast<int64_t>(shape.seq);
        struct State {
            Gpt model;
            optim::Optimizer optimizer;
            Tensor<2, Int> x, positions;
            Tensor<1, Int> y;
        };
        optim::AdamWConfig adamw;  // torch.optim.AdamW's defaults
        adamw.epsilon = 1e-8;
        adamw.weight_decay = 0.01;
        const auto tokens = shape.batch * shape.seq;
        const int vocab = static_cast<int>(shape.vocab);
        auto s = std::make_shared<State>(State{Gpt::init(shape, device), adamw.init(),
                                               random_classes(tokens, vocab, device).reshape<2>({b, t}),
                                               Tensor<1, Int>::arange(0, t, device).reshape<2>({1, t}),
                                               random_classes(tokens, vocab, device, 7)});
        check_param_count(amp ? "gpt_train_amp" : "gpt_train", s->model.num_params(),
                          Gpt::torch_params(shape));
        Case c;
        c.step = [s, vocab = static_cast<int64_t>(shape.vocab)] {
            Tensor<3> logits = s->model.forward(s->x, s->positions);
            auto loss = nn::loss::CrossEntropyLoss().forward(logits.reshape<2>({-1, vocab}), s->y);
            auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
            s->model = s->optimizer.step(3e-4, std::move(s->model), grads);
        };
        c.phases = [s, vocab = static_cast<int64_t>(shape.vocab)] {
            PhaseTimer t(s->x.device());
            {
                Tensor<3> logits = s->model.forward(s->x, s->positions);
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
    table.push_back(gpt_train(false));
    table.push_back(gpt_train(true));
}

}  // namespace bench
