// Pooling on CUDA: max_pool2d (values, i32 indices) and its backward, avg_pool2d and
// adaptive_avg_pool2d with their backwards; the CPU's window rules (first maximum wins, NaN
// propagates; the average's divisor as the CPU computes it), deterministic accumulation orders.
#include <cmath>

#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

// ---- pooling: one thread per output element
struct Pool {
    int64_t planes, h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw, phe, pwe, include_pad;
};
/// The geometry of a max pool (attrs::MaxPool2d) or an avg pool (attrs::AvgPool2d) call.
Pool pool_geo(const OpCall& call, const Dims& x, const Dims& y, bool max) {
    Pool p{};
    p.planes = x[0] * x[1];
    p.h = x[2];
    p.w = x[3];
    p.oh = y[2];
    p.ow = y[3];
    if (max) {
        const attrs::PoolWindow a = call.attrs<attrs::MaxPool2d>().window;
        p.kh = a.kernel[0];
        p.kw = a.kernel[1];
        p.sh = a.stride[0];
        p.sw = a.stride[1];
        p.ph = a.pad[0];
        p.pw = a.pad[1];
        p.dh = a.dilation[0];
        p.dw = a.dilation[1];
    } else {
        const auto a = call.attrs<attrs::AvgPool2d>();
        p.kh = a.kernel[0];
        p.kw = a.kernel[1];
        p.sh = a.stride[0];
        p.sw = a.stride[1];
        p.ph = a.pad_begin[0];
        p.pw = a.pad_begin[1];
        p.dh = p.dw = 1;
        p.phe = a.pad_end[0];
        p.pwe = a.pad_end[1];
        p.include_pad = a.count_include_pad;
    }
    return p;
}

template <class T>
__global__ void max_pool_k(const T* x, T* y, int32_t* ix, Pool p, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t j = t % p.ow, i = (t / p.ow) % p.oh, pl = t / (p.ow * p.oh);
        const T* xp = x + pl * p.h * p.w;
        T best = -INFINITY;
        int32_t at = -1;
        for (int64_t a = 0; a < p.kh; ++a) {
            const int64_t hh = i * p.sh - p.ph + a * p.dh;
            if (hh < 0 || hh >= p.h) continue;
            for (int64_t b = 0; b < p.kw; ++b) {
                const int64_t ww = j * p.sw - p.pw + b * p.dw;
                if (ww < 0 || ww >= p.w) continue;
                const T v = xp[hh * p.w + ww];
                if (at < 0 || v > best || v != v) {
                    best = v;
                    at = static_cast<int32_t>(hh * p.w + ww);
                }
            }
        }
        y[t] = best;
        ix[t] = at < 0 ? 0 : at;
    }
}

template <class T, class I>
__global__ void max_pool_bwd_k(const T* gy, const I* ix, T* dx, int64_t plane, int64_t oplane,
                               int64_t total) {
    // a thread per input plane: serial over the plane's outputs (deterministic, no atomics)
    BURN_GRID_STRIDE(pl, total) {
        for (int64_t q = 0; q < oplane; ++q) {
            const int64_t at = static_cast<int64_t>(ix[pl * oplane + q]);
            if (at >= 0 && at < plane) dx[pl * plane + at] += gy[pl * oplane + q];
        }
    }
}

TensorRefs max_pool_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]);
    const CudaTensor& x = as_cuda(xr);
    const Pool p = pool_geo(call, x.shape, call.shape, true);
    auto y = alloc(call.shape, call.dtype);
    auto ix = alloc(call.shape, DType::i32);
    const int64_t total = call.shape.numel();
    if (total == 0) return {y, ix};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        max_pool_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(x.data<T>(), y->data<T>(),
                                                                        ix->data<int32_t>(), p, total);
    });
    BURN_CUDA_LAUNCHED();
    return {y, ix};
}

/// Disjoint windows: dx[index] = gy, a thread per output (each input is written at most once).
template <class T, class I>
__global__ void max_pool_bwd_flat_k(const T* gy, const I* ix, T* dx, int64_t plane, int64_t oplane,
                                    int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t pl = t / oplane;
        const int64_t at = static_cast<int64_t>(ix[t]);
        if (at >= 0 && at < plane) dx[pl * plane + at] = gy[t];
    }
}

TensorRefs max_pool_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef gr = contiguous(in[0]), ir = contiguous(in[1]);
    const CudaTensor& gy = as_cuda(gr);
    const CudaTensor& ix = as_cuda(ir);
    auto dx = alloc(call.shape, call.dtype);
    const int64_t plane = call.shape[2] * call.shape[3], oplane = gy.shape[2] * gy.shape[3];
    const int64_t planes = call.shape[0] * call.shape[1];
    cudaStream_t s = ctx().stream;
    BURN_CUDA_CHECK(cudaMemsetAsync(dx->raw(), 0, call.shape.numel() * size_of(call.dtype), s));
    if (planes * oplane == 0) return {dx};
    // Disjoint windows (stride >= dilated kernel extent; the autodiff rule passes the forward's window):
    // every input receives at most one gradient, so a thread per output stores it (no accumulation).
    const auto win = call.attrs<attrs::MaxPool2dBackward>().window;
    const bool disjoint = win && win->stride[0] >= (win->kernel[0] - 1) * win->dilation[0] + 1 &&
                          win->stride[1] >= (win->kernel[1] - 1) * win->dilation[1] + 1;
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        auto run = [&](auto itag) {
            using I = decltype(itag);
            if (disjoint)
                max_pool_bwd_flat_k<T, I><<<blocks_for(planes * oplane), kThreads, 0, s>>>(
                    gy.data<T>(), ix.data<I>(), dx->data<T>(), plane, oplane, planes * oplane);
            else
                max_pool_bwd_k<T, I><<<blocks_for(planes), kThreads, 0, s>>>(
                    gy.data<T>(), ix.data<I>(), dx->data<T>(), plane, oplane, planes);
        };
        if (ix.dtype == DType::i64)
            run(int64_t{});
        else
            run(int32_t{});
    });
    BURN_CUDA_LAUNCHED();
    return {dx};
}

__device__ __forceinline__ void avg_window(const Pool& p, int64_t i, int64_t j, int64_t& h0, int64_t& h1,
                                           int64_t& w0, int64_t& w1, double& div) {
    h0 = i * p.sh - p.ph;
    w0 = j * p.sw - p.pw;
    h1 = min(h0 + p.kh, p.h + p.phe);
    w1 = min(w0 + p.kw, p.w + p.pwe);
    const int64_t padded = (h1 - h0) * (w1 - w0);
    h0 = max(h0, int64_t(0));
    w0 = max(w0, int64_t(0));
    h1 = min(h1, p.h);
    w1 = min(w1, p.w);
    const int64_t inside = max(int64_t(0), h1 - h0) * max(int64_t(0), w1 - w0);
    div = static_cast<double>(p.include_pad ? padded : inside);
}

template <class T>
__global__ void avg_pool_k(const T* x, T* y, Pool p, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t j = t % p.ow, i = (t / p.ow) % p.oh, pl = t / (p.ow * p.oh);
        int64_t h0, h1, w0, w1;
        double div;
        avg_window(p, i, j, h0, h1, w0, w1, div);
        const T* xp = x + pl * p.h * p.w;
        T sum = 0;
        for (int64_t a = h0; a < h1; ++a)
            for (int64_t b = w0; b < w1; ++b) sum += xp[a * p.w + b];
        y[t] = div > 0 ? sum / static_cast<T>(div) : T(0);
    }
}

template <class T>
__global__ void avg_pool_bwd_k(const T* gy, T* dx, Pool p, int64_t total) {
    BURN_GRID_STRIDE(pl, total) {  // a thread per plane: serial accumulation like the CPU
        for (int64_t i = 0; i < p.oh; ++i)
            for (int64_t j = 0; j < p.ow; ++j) {
                int64_t h0, h1, w0, w1;
                double div;
                avg_window(p, i, j, h0, h1, w0, w1, div);
                if (div <= 0) continue;
                const T v = gy[(pl * p.oh + i) * p.ow + j] / static_cast<T>(div);
                for (int64_t a = h0; a < h1; ++a)
                    for (int64_t b = w0; b < w1; ++b) dx[pl * p.h * p.w + a * p.w + b] += v;
            }
    }
}

TensorRefs avg_pool_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]);
    const CudaTensor& x = as_cuda(xr);
    const Pool p = pool_geo(call, x.shape, call.shape, false);
    auto y = alloc(call.shape, call.dtype);
    const int64_t total = call.shape.numel();
    if (total == 0) return {y};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        avg_pool_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(x.data<T>(), y->data<T>(), p, total);
    });
    BURN_CUDA_LAUNCHED();
    return {y};
}

TensorRefs avg_pool_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef gr = contiguous(in[0]);
    const CudaTensor& gy = as_cuda(gr);
    const Pool p = pool_geo(call, call.shape, gy.shape, false);
    auto dx = alloc(call.shape, call.dtype);
    BURN_CUDA_CHECK(cudaMemsetAsync(dx->raw(), 0, call.shape.numel() * size_of(call.dtype), ctx().stream));
    if (p.planes * p.oh * p.ow == 0) return {dx};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        avg_pool_bwd_k<T>
            <<<blocks_for(p.planes), kThreads, 0, ctx().stream>>>(gy.data<T>(), dx->data<T>(), p, p.planes);
    });
    BURN_CUDA_LAUNCHED();
    return {dx};
}

bool pool_ok(const OpCall& call, const TensorRefs& in) {
    return is_float(call.dtype) && !in.empty() && in[0]->shape.rank() == 4;
}

// ---- adaptive average pooling: output i covers [floor(i * in / out), ceil((i + 1) * in / out))
__device__ __forceinline__ int64_t bin_start(int64_t i, int64_t in, int64_t out) {
    return (i * in) / out;
}
__device__ __forceinline__ int64_t bin_end(int64_t i, int64_t in, int64_t out) {
    return ((i + 1) * in + out - 1) / out;
}

template <class T>
__global__ void adaptive_avg_k(const T* x, T* y, Pool p, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t j = t % p.ow, i = (t / p.ow) % p.oh, pl = t / (p.ow * p.oh);
        const int64_t h0 = bin_start(i, p.h, p.oh), h1 = bin_end(i, p.h, p.oh);
        const int64_t w0 = bin_start(j, p.w, p.ow), w1 = bin_end(j, p.w, p.ow);
        const T* xp = x + pl * p.h * p.w;
        T sum = 0;
        for (int64_t a = h0; a < h1; ++a)
            for (int64_t b = w0; b < w1; ++b) sum += xp[a * p.w + b];
        y[t] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
    }
}

/// Gather form: each input sums the bins that cover it in the CPU's (i, j) order (bit-equal).
template <class T>
__global__ void adaptive_avg_bwd_k(const T* g, T* dx, Pool p, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t ww = t % p.w, hh = (t / p.w) % p.h, pl = t / (p.w * p.h);
        T acc = 0;
        for (int64_t i = 0; i < p.oh; ++i) {
            const int64_t h0 = bin_start(i, p.h, p.oh), h1 = bin_end(i, p.h, p.oh);
            if (hh < h0 || hh >= h1) continue;
            for (int64_t j = 0; j < p.ow; ++j) {
                const int64_t w0 = bin_start(j, p.w, p.ow), w1 = bin_end(j, p.w, p.ow);
                if (ww < w0 || ww >= w1) continue;
                acc += g[(pl * p.oh + i) * p.ow + j] / static_cast<T>((h1 - h0) * (w1 - w0));
            }
        }
        dx[t] = acc;
    }
}

Pool adaptive_geo(const Dims& x, const Dims& y) {
    Pool p{};
    p.planes = x[0] * x[1];
    p.h = x[2];
    p.w = x[3];
    p.oh = y[2];
    p.ow = y[3];
    return p;
}

TensorRefs adaptive_avg_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]);
    const CudaTensor& x = as_cuda(xr);
    const Pool p = adaptive_geo(x.shape, call.shape);
    auto y = alloc(call.shape, call.dtype);
    const int64_t total = call.shape.numel();
    if (total == 0) return {y};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        adaptive_avg_k<T>
            <<<blocks_for(total), kThreads, 0, ctx().stream>>>(x.data<T>(), y->data<T>(), p, total);
    });
    BURN_CUDA_LAUNCHED();
    return {y};
}

TensorRefs adaptive_avg_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef gr = contiguous(in[0]);
    const CudaTensor& g = as_cuda(gr);
    const Pool p = adaptive_geo(call.shape, g.shape);
    auto dx = alloc(call.shape, call.dtype);
    const int64_t total = call.shape.numel();
    if (total == 0) return {dx};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        adaptive_avg_bwd_k<T>
            <<<blocks_for(total), kThreads, 0, ctx().stream>>>(g.data<T>(), dx->data<T>(), p, total);
    });
    BURN_CUDA_LAUNCHED();
    return {dx};
}

}  // namespace

void register_pool(KernelTable& t) {
    t[idx(OpId::max_pool2d)] = {&widening<&max_pool_kernel>, &pool_ok};
    t[idx(OpId::max_pool2d_backward)] = {&widening<&max_pool_backward_kernel>, &pool_ok};
    t[idx(OpId::avg_pool2d)] = {&widening<&avg_pool_kernel>, &pool_ok};
    t[idx(OpId::avg_pool2d_backward)] = {&widening<&avg_pool_backward_kernel>, &pool_ok};
    t[idx(OpId::adaptive_avg_pool2d)] = {&widening<&adaptive_avg_kernel>, &pool_ok};
    t[idx(OpId::adaptive_avg_pool2d_backward)] = {&widening<&adaptive_avg_backward_kernel>, &pool_ok};
}

}  // namespace burn::cuda
