"""PyTorch's side of burn-bench's sdpa_* workloads (bench/workloads_attention.cpp): causal
F.scaled_dot_product_attention on B 8, H 12, S 1024, D 64, forward and forward + backward of
out * dout seeded with ones (as burn-bench), bf16 on the flash backend, float32 on the memory-efficient one (flash takes only
16-bit inputs). Median of CUDA-event-timed runs; FLOPs by flash-attention's convention (forward
4 B H S^2 D / 2 causal, backward 2.5x). One JSON line per workload."""
import json
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def bench(fn, warmup=5, reps=30):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2]


def main():
    b, h, s, d = 8, 12, 1024, 64
    fwd_flop = 4.0 * b * h * s * s * d * 0.5
    for backward in (False, True):
        for dt, backend in ((torch.bfloat16, SDPBackend.FLASH_ATTENTION),
                            (torch.float32, SDPBackend.EFFICIENT_ATTENTION)):
            g = torch.Generator(device="cuda").manual_seed(0)
            mk = lambda: torch.randn(b, h, s, d, device="cuda", dtype=dt, generator=g).requires_grad_(backward)
            q, k, v = mk(), mk(), mk()
            dout = torch.randn(b, h, s, d, device="cuda", dtype=dt, generator=g)

            def step():
                with sdpa_kernel(backend):
                    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                if backward:
                    (y * dout).backward(torch.ones_like(y))
                    q.grad = k.grad = v.grad = None

            ms = bench(step)
            flop = fwd_flop * (3.5 if backward else 1.0)
            name = f"sdpa_{'fwdbwd' if backward else 'fwd'}_{'bf16' if dt == torch.bfloat16 else 'f32'}"
            print(json.dumps({"workload": name, "framework": "torch", "backend": backend.name,
                              "median_ms": round(ms, 4), "tflop_per_s": round(flop / ms / 1e9, 1)}))


if __name__ == "__main__":
    torch.backends.cuda.matmul.allow_tf32 = False
    main()
