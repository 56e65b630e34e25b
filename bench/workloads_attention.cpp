// Fused attention (burn-only, not in WORKLOADS.md; bench/attention_torch.py times PyTorch's
// F.scaled_dot_product_attention on the same shapes): sdpa_{fwd,fwdbwd}_{bf16,f32}, causal, GPT-2
// small's attention on CUDA (B 8, H 12, S 1024, D 64), B 1, H 2, S 256 on the CPU. fwdbwd is the
// forward on an autodiff device and the backward of out * dout seeded with ones (so dy = dout; the
// torch script does the same: one mul forward, a fill and a mul backward around the attention).
// FLOPs by flash-attention's convention: forward 4 B H S^2 D, halved by causal; backward 2.5x that.
#include "harness.hpp"

namespace bench {

using namespace burn;

namespace {

Workload sdpa(bool backward, DType dt) {
    Workload w;
    w.name = std::string("sdpa_") + (backward ? "fwdbwd_" : "fwd_") + (dt == DType::bf16 ? "bf16" : "f32");
    w.warmup = 5;
    w.reps = 30;
    w.make = [backward, dt](const Context& ctx) -> std::optional<Case> {
        const int64_t b = ctx.gpu ? 8 : 1, h = ctx.gpu ? 12 : 2, s = ctx.gpu ? 1024 : 256, d = 64;
        const Device dev = backward ? ctx.device.autodiff() : ctx.device;
        auto r = [&](bool grad) {
            TensorAny t = ops::cast(
                ops::random(Dims{b, h, s, d}, Distribution::Normal(0.0, 1.0), DType::f32, ctx.device), dt);
            t = ops::to_device(t, dev);
            return grad && backward ? ops::require_grad(t) : t;
        };
        const TensorAny q = r(true), k = r(true), v = r(true), dout = r(false);
        Case c;
        c.step = [q, k, v, dout, backward] {
            TensorAny y = ops::attention(q, k, v, std::nullopt, true);
            if (backward) {
                Gradients g = ops::backward(ops::mul(y, dout));  // seeded with ones: dy = dout
                (void)g;
            }
        };
        const double fwd = 4.0 * double(b * h) * double(s) * double(s) * double(d) * 0.5;
        c.units = (backward ? 3.5 : 1.0) * fwd / 1e9;
        c.unit = "gflop";
        return c;
    };
    return w;
}

}  // namespace

void add_attention_workloads(std::vector<Workload>& table) {
    for (bool bwd : {false, true})
        for (DType dt : {DType::bf16, DType::f32}) table.push_back(sdpa(bwd, dt));
}

}  // namespace bench
