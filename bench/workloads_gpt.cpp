// gpt_train and gpt_train_amp of WORKLOADS.md: one training step (forward, cross-entropy over all
// positions, backward, AdamW lr 3e-4) of torch_reference.py's pre-norm GPT (gpt_model.hpp); the amp one
// in bf16 autocast with float32 master weights.
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "gpt_model.hpp"
#include "harness.hpp"
#include "workloads_util.hpp"

namespace bench {

using namespace burn;

namespace {

/// How gpt_train_amp turns autocast on (BURN_BENCH_AMP): "guard" (default), an autocast::Guard around
/// the forward pass on autodiff(device), torch.autocast's form (torch_reference.py's recipe);
/// "decorator", the autocast decorator below autodiff, autodiff(autocast_bf16(device)), which casts
/// again in backward what the guard's tape saved in bf16 (H100: 54 ms against 45.7 ms);
/// "outer", autocast_bf16(autodiff(device)).
enum class AmpForm { decorator, guard, outer };
AmpForm amp_form() {
    const char* e = std::getenv("BURN_BENCH_AMP");
    const std::string v = e ? e : "";
    if (v == "decorator") return AmpForm::decorator;
    if (v == "outer") return AmpForm::outer;
    return AmpForm::guard;
}

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
        const AmpForm form = amp_form();
        auto device = !amp                         ? ctx.device.autodiff()
                      : form == AmpForm::decorator ? ctx.device.autocast(DType::bf16).autodiff()
                      : form == AmpForm::outer     ? ctx.device.autodiff().autocast(DType::bf16)
                                                   : ctx.device.autodiff();
        const std::optional<DType> guard =
            amp && form == AmpForm::guard ? std::optional<DType>(DType::bf16) : std::nullopt;
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
        // Forward and loss, under the guard when that is the form (backward runs outside it, as torch's).
        auto loss_of = [guard, vocab = static_cast<int64_t>(shape.vocab)](const State& st) {
            autocast::Guard amp(guard);
            Tensor<3> logits = st.model.forward(st.x, st.positions);
            return nn::loss::CrossEntropyLoss().forward(logits.reshape<2>({-1, vocab}), st.y);
        };
        c.step = [s, loss_of] {
            Tensor<1> loss = loss_of(*s);
            auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
            s->model = s->optimizer.step(3e-4, std::move(s->model), grads);
        };
        c.phases = [s, loss_of] {
            PhaseTimer t(s->x.device());
            {
                Tensor<1> loss = loss_of(*s);
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
