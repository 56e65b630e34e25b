// CPU softmax_backward: the gradient of softmax (dx = y * (g - sum(g * y))) or log_softmax
// (dx = g - exp(y) * sum(g)) from the forward's output y, in one fused kernel: a row (dim is last) or
// a column block (other dims) per task, the sum accumulated in double; with a mask (dim last), dx is 0
// where it is true. masked_softmax: softmax(where(mask, fill, x)) along the last dim, a row at a time.
// f16/bf16 compute in f32.
#include <cmath>
#include <vector>

#include "backends/cpu/reduce_common.hpp"
#include "backends/cpu/simd_math.hpp"

namespace burn::cpu {

namespace {

/// The element offset of row r's first mask value: the mask is a strided bool view of x's shape
/// (broadcast dims have stride 0); rows run over every dim but the last.
int64_t mask_row(const CpuTensor& m, int64_t r) {
    int64_t off = 0;
    for (int d = m.shape.rank() - 2; d >= 0; --d) {
        const int64_t q = r / m.shape[d];
        off += (r - q * m.shape[d]) * m.strides[d];
        r = q;
    }
    return off;
}

template <class T>
void backward_rows(const T* y, const T* g, T* dx, const Geometry& geo, bool log, const CpuTensor* mask) {
    using C = compute_t<T>;
    const bool* mb = mask ? mask->data<bool>() : nullptr;
    const int64_t ms = mask ? mask->strides[mask->shape.rank() - 1] : 0;
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
            if (mb) {
                const bool* mr = mb + mask_row(*mask, r);
                for (int64_t k = 0; k < geo.n; ++k)
                    if (mr[k * ms]) dr[k] = T(0);
            }
        }
    });
}

template <class T>
void masked_rows(const T* x, T* y, const CpuTensor& mask, int64_t rows, int64_t n, double fill) {
    using C = compute_t<T>;
    const bool* mb = mask.data<bool>();
    const int64_t ms = mask.strides[mask.shape.rank() - 1];
    const C f = C(fill);
    platform::parallel_for(rows, grain_for(4 * n), [&](int64_t b, int64_t e) {
        std::vector<C> buf(static_cast<std::size_t>(n));
        for (int64_t r = b; r < e; ++r) {
            const bool* mr = mb + mask_row(mask, r);
            for (int64_t k = 0; k < n; ++k)
                buf[static_cast<std::size_t>(k)] = mr[k * ms] ? f : C(x[r * n + k]);
            if constexpr (std::is_same_v<T, C>) {
                simd::softmax_row(buf.data(), y + r * n, n, false);
            } else {
                simd::softmax_row(buf.data(), buf.data(), n, false);
                for (int64_t k = 0; k < n; ++k) y[r * n + k] = T(buf[static_cast<std::size_t>(k)]);
            }
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
    const auto sa = call.attrs<attrs::SoftmaxBackward>();
    const bool log = sa.log;
    TensorRef ys = contiguous(in[0]), gs = contiguous(in[1]);
    const CpuTensor& y = as_cpu(ys);
    const CpuTensor& g = as_cpu(gs);
    const CpuTensor* mask = in.size() > 2 ? &as_cpu(in[2]) : nullptr;  // the frontend: dim is the last
    auto out = alloc(call.shape, call.dtype, y.device);
    const Geometry geo = geometry(y.shape, static_cast<int>(sa.dim));
    if (y.shape.numel() == 0) return {out};
    dispatch_kinds<OpKinds::float_only>(y.dtype, "softmax_backward", [&](auto tag) {
        using T = decltype(tag);
        if (geo.inner == 1)
            backward_rows(y.data<T>(), g.data<T>(), out->data<T>(), geo, log, mask);
        else
            backward_cols(y.data<T>(), g.data<T>(), out->data<T>(), geo, log);
    });
    return {out};
}

TensorRefs masked_softmax_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xs = contiguous(in[0]);
    const CpuTensor& x = as_cpu(xs);
    const CpuTensor& mask = as_cpu(in[1]);
    auto out = alloc(call.shape, call.dtype, x.device);
    const int64_t n = x.shape[x.shape.rank() - 1];
    if (x.shape.numel() == 0) return {out};
    const int64_t rows = x.shape.numel() / n;
    const double fill = call.attrs<attrs::MaskedSoftmax>().fill;
    dispatch_kinds<OpKinds::float_only>(x.dtype, "masked_softmax", [&](auto tag) {
        using T = decltype(tag);
        masked_rows(x.data<T>(), out->data<T>(), mask, rows, n, fill);
    });
    return {out};
}

}  // namespace burn::cpu
