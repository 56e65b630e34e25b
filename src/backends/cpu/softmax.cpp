// CPU softmax / log_softmax: fused and numerically stable (max, then exp and sum, then scale), one
// row (dim is last) or one column block (other dims) per task, vectorised through simd_math.
// f16/bf16 compute in f32. The input's buffer is reused for the output when the caller gave it up.
#include <algorithm>
#include <vector>

#include "backends/cpu/reduce_common.hpp"
#include "backends/cpu/simd_math.hpp"

namespace burn::cpu {

namespace {

/// Widest column block: wide blocks keep each row's slice long (prefetch- and TLB-friendly).
constexpr int64_t kMaxWidth = 1024;

template <class T>
void softmax_typed(const T* x, T* y, const Geometry& g, bool log) {
    if (g.n == 0) return;
    if (g.inner == 1) {
        platform::parallel_for(g.outer, grain_for(4 * g.n), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) simd::softmax_row(x + r * g.n, y + r * g.n, g.n, log);
        });
        return;
    }
    // Blocks as wide as possible while still giving every thread work (the per-column results do not
    // depend on the blocking), in whole 64-byte lines.
    const int64_t line = 64 / static_cast<int64_t>(sizeof(T));
    const int64_t per_outer = std::max<int64_t>(1, (2 * platform::threads() + g.outer - 1) / g.outer);
    const int64_t width = std::clamp<int64_t>(
        ((g.inner + per_outer - 1) / per_outer + line - 1) / line * line, line, kMaxWidth);
    for_col_blocks(
        g,
        [&](int64_t o, int64_t j0, int64_t cnt) {
            T work[3 * kMaxWidth];
            const int64_t off = o * g.n * g.inner + j0;
            simd::softmax_cols(x + off, y + off, g.n, cnt, g.inner, log, work);
        },
        width);
}

}  // namespace

TensorRefs softmax_kernel(const OpCall& call, TensorRefs& in) {
    const bool log = call.op == OpId::log_softmax;
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    TensorRef src = contiguous(in[0]);
    const CpuTensor& x = as_cpu(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    const int64_t numel = x.shape.numel();
    visit_kernel_dtype(x.dtype, op_name(call.op).data(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
            softmax_typed(x.data<T>(), out->data<T>(), g, log);
        } else if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>) {
            std::vector<float> tmp(static_cast<std::size_t>(numel));
            const T* a = x.data<T>();
            T* o = out->data<T>();
            platform::parallel_for(numel, kGrain, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) tmp[static_cast<std::size_t>(i)] = float(a[i]);
            });
            softmax_typed(tmp.data(), tmp.data(), g, log);
            platform::parallel_for(numel, kGrain, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) o[i] = T(tmp[static_cast<std::size_t>(i)]);
            });
        } else {
            BURN_THROW_KIND(dtype, "[", call.op, "] the cpu backend has no kernel for dtype ", x.dtype);
        }
    });
    return {out};
}

}  // namespace burn::cpu
