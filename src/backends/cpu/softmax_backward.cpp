// CPU softmax_backward: the gradient of softmax (dx = y * (g - sum(g * y))) or log_softmax
// (dx = g - exp(y) * sum(g)) from the forward's output y, in one fused kernel: a row (dim is last) or
// a column block (other dims) per task, the sum accumulated in double. f16/bf16 compute in f32.
#include <cmath>

#include "backends/cpu/reduce_common.hpp"

namespace burn::cpu {

namespace {

template <class T>
void backward_rows(const T* y, const T* g, T* dx, const Geometry& geo, bool log) {
    using C = compute_t<T>;
    platform::parallel_for(geo.outer, grain_for(3 * geo.n), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
            const T* yr = y + r * geo.n;
            const T* gr = g + r * geo.n;
            T* dr = dx + r * geo.n;
            double s = 0;
            if (log)
                for (int64_t k = 0; k < geo.n; ++k) s += double(C(gr[k]));
            else
                for (int64_t k = 0; k < geo.n; ++k) s += double(C(gr[k])) * double(C(yr[k]));
            const C sc = C(s);
            if (log)
                for (int64_t k = 0; k < geo.n; ++k) dr[k] = T(C(gr[k]) - std::exp(C(yr[k])) * sc);
            else
                for (int64_t k = 0; k < geo.n; ++k) dr[k] = T(C(yr[k]) * (C(gr[k]) - sc));
        }
    });
}

template <class T>
void backward_cols(const T* y, const T* g, T* dx, const Geometry& geo, bool log) {
    using C = compute_t<T>;
    for_col_blocks(geo, [&](int64_t o, int64_t j0, int64_t cnt) {
        double s[kColBlock] = {};
        const int64_t base = o * geo.n * geo.inner + j0;
        for (int64_t k = 0; k < geo.n; ++k) {
            const T* yr = y + base + k * geo.inner;
            const T* gr = g + base + k * geo.inner;
            for (int64_t j = 0; j < cnt; ++j)
                s[j] += log ? double(C(gr[j])) : double(C(gr[j])) * double(C(yr[j]));
        }
        for (int64_t k = 0; k < geo.n; ++k) {
            const int64_t off = base + k * geo.inner;
            for (int64_t j = 0; j < cnt; ++j) {
                const C yv = C(y[off + j]), gv = C(g[off + j]), sc = C(s[j]);
                dx[off + j] = T(log ? gv - std::exp(yv) * sc : yv * (gv - sc));
            }
        }
    });
}

}  // namespace

TensorRefs softmax_backward_kernel(const OpCall& call, TensorRefs& in) {
    const bool log = call.ints[1] != 0;
    TensorRef ys = contiguous(in[0]), gs = contiguous(in[1]);
    const CpuTensor& y = as_cpu(ys);
    const CpuTensor& g = as_cpu(gs);
    auto out = alloc(call.shape, call.dtype, y.device);
    const Geometry geo = geometry(y.shape, static_cast<int>(call.ints[0]));
    if (y.shape.numel() == 0) return {out};
    dispatch_kinds<OpKinds::float_only>(y.dtype, "softmax_backward", [&](auto tag) {
        using T = decltype(tag);
        if (geo.inner == 1)
            backward_rows(y.data<T>(), g.data<T>(), out->data<T>(), geo, log);
        else
            backward_cols(y.data<T>(), g.data<T>(), out->data<T>(), geo, log);
    });
    return {out};
}

}  // namespace burn::cpu
