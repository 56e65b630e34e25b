// autodiff_overhead (burn-only, not in WORKLOADS.md; compare.py lists it without a torch figure):
// 1,000 tiny ops on [4, 4] tensors (250 x {mul, add, tanh, mul_scalar}), where the op itself costs
// next to nothing, so the time is the framework's per-op overhead. median_ms is the chain on an
// autodiff device with a tracked input (the tape records every op); "plain_ms" is the same chain
// on the plain device, "ratio" = median_ms / plain_ms (the tape's cost), and "backward_ms" the
// tracked chain plus its backward pass.
#include <cstdio>
#include <memory>

#include "harness.hpp"

namespace bench {

using namespace burn;

namespace {

constexpr int kRounds = 250;  // 4 ops each

Tensor<2> chain(Tensor<2> x, const Tensor<2>& w, const Tensor<2>& b) {
    for (int i = 0; i < kRounds; ++i) x = (x * w + b).tanh() * 0.5;
    return x;
}

Workload autodiff_overhead() {
    Workload w;
    w.name = "autodiff_overhead";
    w.warmup = 3;
    w.reps = 21;
    w.make = [](const Context& ctx) -> std::optional<Case> {
        struct State {
            Tensor<2> x, w, b;
        };
        auto make_state = [](const Device& device, bool track) {
            auto r = [&] { return Tensor<2>::random({4, 4}, Distribution::Normal(0.0, 1.0), device); };
            State s{r(), r(), r()};
            if (track) s.w = s.w.require_grad();
            return std::make_shared<State>(s);
        };
        auto plain = make_state(ctx.device, false);
        auto tracked = make_state(ctx.device.autodiff(), true);
        Case plain_case;
        plain_case.step = [plain] { (void)chain(plain->x, plain->w, plain->b); };
        const double plain_ms = time_median_ms(plain_case, ctx.device, 3, 21);
        Case backward_case;
        backward_case.step = [tracked] { (void)chain(tracked->x, tracked->w, tracked->b).sum().backward(); };
        const double backward_ms = time_median_ms(backward_case, ctx.device, 3, 21);

        Case c;
        c.step = [tracked] { (void)chain(tracked->x, tracked->w, tracked->b); };
        c.units = 4 * kRounds;
        c.unit = "op";
        c.extra = [plain_ms, backward_ms](double ms) {
            const double ratio = ms / plain_ms;
            std::fprintf(stderr,
                         "burn-bench: autodiff_overhead: 1000 ops on [4,4]: plain %.4f ms (%.2f us/op), "
                         "autodiff %.4f ms (%.2f us/op), ratio %.2f; with backward %.4f ms\n",
                         plain_ms, plain_ms, ms, ms, ratio, backward_ms);
            char buf[160];
            std::snprintf(buf, sizeof buf, ", \"plain_ms\": %.4f, \"ratio\": %.3f, \"backward_ms\": %.4f",
                          plain_ms, ratio, backward_ms);
            return std::string(buf);
        };
        return c;
    };
    return w;
}

}  // namespace

void add_autodiff_workloads(std::vector<Workload>& table) {
    table.push_back(autodiff_overhead());
}

}  // namespace bench
