// CPU kernels of the fused optimizer ops (ops.def family optim).
// Built with -fno-math-errno (CMakeLists.txt): sqrt never sees a negative here, and errno handling
// would keep GCC from vectorising it.
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

namespace {

struct AdamScalars {
    double b1, b2, step, eps, decay, l2;
};

// Elements [b, e), a block at a time: the block's results go to local arrays first and are copied out
// after, so outputs may alias their own inputs (the in-place update) while the arithmetic loop, which
// only reads the inputs and writes locals, still vectorises.
template <class T>
void adam_range(int64_t b, int64_t e, const T* p, const T* g, const T* m, const T* v, T* pw, T* mw, T* vw,
                AdamScalars h) {
    using C = compute_t<T>;
    const C b1 = C(h.b1), b2 = C(h.b2), step = C(h.step), eps = C(h.eps), decay = C(h.decay), l2 = C(h.l2);
    const C w1 = C(1 - h.b1), w2 = C(1 - h.b2);
    constexpr int64_t kBlock = 256;
    C np[kBlock], nm[kBlock], nv[kBlock];
    for (int64_t s = b; s < e; s += kBlock) {
        const int64_t n = std::min(kBlock, e - s);
        for (int64_t j = 0; j < n; ++j) {
            const C pi = C(p[s + j]);
            const C gi = C(g[s + j]) + l2 * pi;
            const C mi = b1 * C(m[s + j]) + w1 * gi;
            const C vi = b2 * C(v[s + j]) + w2 * gi * gi;
            nm[j] = mi;
            nv[j] = vi;
            np[j] = decay * pi - step * mi / (std::sqrt(vi) + eps);
        }
        for (int64_t j = 0; j < n; ++j) pw[s + j] = T(np[j]);
        for (int64_t j = 0; j < n; ++j) mw[s + j] = T(nm[j]);
        for (int64_t j = 0; j < n; ++j) vw[s + j] = T(nv[j]);
    }
}

template <class T>
void adam_typed(const TensorRefs& in, CpuTensor& po, CpuTensor& mo, CpuTensor& vo) {
    const T* p = as_cpu(in[0]).data<T>();
    const T* g = as_cpu(in[1]).data<T>();
    const T* m = as_cpu(in[2]).data<T>();
    const T* v = as_cpu(in[3]).data<T>();
    const double* h = as_cpu(in[4]).data<double>();
    const AdamScalars s{h[0], h[1], h[2], h[3], h[4], h[5]};
    T* pw = po.data<T>();
    T* mw = mo.data<T>();
    T* vw = vo.data<T>();
    platform::parallel_for(in[0]->shape.numel(), kGrain,
                           [&](int64_t b, int64_t e) { adam_range<T>(b, e, p, g, m, v, pw, mw, vw, s); });
}

/// The gradient of a Linear weight arrives as a transposed view ([rows, cols] with strides
/// (1, rows)). Instead of a full contiguous copy, blocks of 16 rows are transposed into a buffer
/// that stays in cache and updated from there. False when g is not such a view.
template <class T>
bool adam_transposed(const TensorRefs& in, CpuTensor& po, CpuTensor& mo, CpuTensor& vo) {
    const CpuTensor& gt = as_cpu(in[1]);
    if (gt.shape.rank() != 2 || gt.strides[0] != 1 || gt.strides[1] != gt.shape[0] || gt.shape[0] < 16)
        return false;
    const int64_t rows = gt.shape[0], cols = gt.shape[1];
    constexpr int64_t kRows = 16;
    const T* p = as_cpu(in[0]).data<T>();
    const T* g = gt.data<T>();
    const T* m = as_cpu(in[2]).data<T>();
    const T* v = as_cpu(in[3]).data<T>();
    const double* h = as_cpu(in[4]).data<double>();
    const AdamScalars s{h[0], h[1], h[2], h[3], h[4], h[5]};
    T* pw = po.data<T>();
    T* mw = mo.data<T>();
    T* vw = vo.data<T>();
    const int64_t blocks = (rows + kRows - 1) / kRows;
    platform::parallel_for(
        blocks, std::max<int64_t>(1, kGrain / (kRows * cols)), [&](int64_t b0, int64_t b1) {
            std::vector<T> buf(static_cast<std::size_t>(kRows * cols));
            for (int64_t blk = b0; blk < b1; ++blk) {
                const int64_t i0 = blk * kRows, i1 = std::min(rows, i0 + kRows);
                for (int64_t j0 = 0; j0 < cols; j0 += 64) {  // 64 columns x 16 rows: both sides in L1
                    const int64_t j1 = std::min(cols, j0 + 64);
                    for (int64_t i = i0; i < i1; ++i)
                        for (int64_t j = j0; j < j1; ++j)
                            buf[static_cast<std::size_t>((i - i0) * cols + j)] = g[i + j * rows];
                }
                adam_range<T>(i0 * cols, i1 * cols, p, buf.data() - i0 * cols, m, v, pw, mw, vw, s);
            }
        });
    return true;
}

TensorRefs adam_step_kernel(const OpCall& call, TensorRefs& in) {
    for (std::size_t i = 0; i < in.size(); ++i)
        if (i != 1) in[i] = contiguous(in[i]);
    if (in[0]->dtype == DType::f32 && !as_cpu(in[1]).is_contiguous()) {
        // p may not take g's buffer here (g is a view), so only the state's own buffers are reused.
        auto p = reuse_or_alloc(in, {0}, call.shape, call.dtype);
        auto m = reuse_or_alloc(in, {2}, call.shape, call.dtype);
        auto v = reuse_or_alloc(in, {3}, call.shape, call.dtype);
        if (adam_transposed<float>(in, *p, *m, *v)) return {p, m, v};
        in[1] = contiguous(in[1]);
        dispatch_kinds<OpKinds::float_only>(call.dtype, "adam_step",
                                            [&](auto tag) { adam_typed<decltype(tag)>(in, *p, *m, *v); });
        return {p, m, v};
    }
    in[1] = contiguous(in[1]);
    // Each output takes its own input's buffer when that input is uniquely owned (the update in place);
    // the parameter may also take the gradient's.
    auto p = reuse_or_alloc(in, {0, 1}, call.shape, call.dtype);
    auto m = reuse_or_alloc(in, {2}, call.shape, call.dtype);
    auto v = reuse_or_alloc(in, {3}, call.shape, call.dtype);
    dispatch_kinds<OpKinds::float_only>(call.dtype, "adam_step",
                                        [&](auto tag) { adam_typed<decltype(tag)>(in, *p, *m, *v); });
    return {p, m, v};
}

/// adam_step_multi: n tensors' updates into three flat outputs, in one parallel pass over the total
/// element count (a range may span several tensors). Each element goes through adam_range, adam_step's
/// own arithmetic, so the results equal adam_step's bit for bit.
template <class T>
void adam_multi_typed(const TensorRefs& in, std::size_t n, CpuTensor& po, CpuTensor& mo, CpuTensor& vo) {
    std::vector<int64_t> offset(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) offset[i + 1] = offset[i] + in[i]->shape.numel();
    const double* h = as_cpu(in[4 * n]).data<double>();
    const AdamScalars s{h[0], h[1], h[2], h[3], h[4], h[5]};
    T* pw = po.data<T>();
    T* mw = mo.data<T>();
    T* vw = vo.data<T>();
    platform::parallel_for(offset[n], kGrain, [&](int64_t b, int64_t e) {
        // the first tensor whose range ends after b
        auto i =
            static_cast<std::size_t>(std::upper_bound(offset.begin(), offset.end(), b) - offset.begin() - 1);
        for (; i < n && offset[i] < e; ++i) {
            const int64_t lo = std::max(b, offset[i]) - offset[i],
                          hi = std::min(e, offset[i + 1]) - offset[i];
            if (lo >= hi) continue;
            const int64_t o = offset[i];
            adam_range<T>(lo, hi, as_cpu(in[i]).data<T>(), as_cpu(in[n + i]).data<T>(),
                          as_cpu(in[2 * n + i]).data<T>(), as_cpu(in[3 * n + i]).data<T>(), pw + o, mw + o,
                          vw + o, s);
        }
    });
}

TensorRefs adam_step_multi_kernel(const OpCall& call, TensorRefs& in) {
    const std::size_t n = (in.size() - 1) / 4;
    for (auto& t : in) t = contiguous(t);
    const Device device = in[0]->device;
    auto p = alloc(call.shape, call.dtype, device);
    auto m = alloc(call.shape, call.dtype, device);
    auto v = alloc(call.shape, call.dtype, device);
    dispatch_kinds<OpKinds::float_only>(
        call.dtype, "adam_step_multi", [&](auto tag) { adam_multi_typed<decltype(tag)>(in, n, *p, *m, *v); });
    return {p, m, v};
}

}  // namespace

void register_optim(KernelTable& t) {
    t[idx(OpId::adam_step)] = &adam_step_kernel;
    t[idx(OpId::adam_step_multi)] = &adam_step_multi_kernel;
}

}  // namespace burn::cpu
