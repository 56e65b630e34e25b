// interpolate (nearest, bilinear, bicubic) and its backward on CUDA, PyTorch's coordinate rules. The
// per-axis tap tables (input index and weight of each output position) are built on the host exactly
// as the CPU backend builds them and copied to the device; the forward is a thread per output (the
// CPU's summation order), the backward a thread per plane scattering in the CPU's order (bit-equal).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/common/interpolate_taps.hpp"
#include "backends/cuda/kernels.cuh"
#include "burn/tensor/module_ops.hpp"

namespace burn::cuda {

namespace {

using interp::Taps;
using interp::taps;

template <class T>
struct DevTaps {
    std::shared_ptr<Storage> idx, w;
    int n;
};

template <class T>
DevTaps<T> upload(const Taps<T>& t) {
    DevTaps<T> d{scratch(std::max<std::size_t>(1, t.idx.size()) * sizeof(int64_t)),
                 scratch(std::max<std::size_t>(1, t.w.size()) * sizeof(T)), t.n};
    if (!t.idx.empty()) {
        BURN_CUDA_CHECK(cudaMemcpyAsync(d.idx->data, t.idx.data(), t.idx.size() * sizeof(int64_t),
                                        cudaMemcpyHostToDevice, ctx().stream));
        BURN_CUDA_CHECK(cudaMemcpyAsync(d.w->data, t.w.data(), t.w.size() * sizeof(T), cudaMemcpyHostToDevice,
                                        ctx().stream));
    }
    return d;
}

struct Geo {
    int64_t planes, h, w, oh, ow;
    int nh, nw;
};

template <class T>
__global__ void interp_fwd_k(const T* x, T* y, const int64_t* hi, const T* hw, const int64_t* wi, const T* ww,
                             Geo g, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t j = t % g.ow, i = (t / g.ow) % g.oh, pl = t / (g.ow * g.oh);
        const T* xp = x + pl * g.h * g.w;
        T sum = 0;
        for (int a = 0; a < g.nh; ++a) {
            T row = 0;
            for (int c = 0; c < g.nw; ++c)
                row += ww[j * g.nw + c] * xp[hi[i * g.nh + a] * g.w + wi[j * g.nw + c]];
            sum += hw[i * g.nh + a] * row;
        }
        y[t] = sum;
    }
}

template <class T>
__global__ void interp_bwd_k(const T* gy, T* gx, const int64_t* hi, const T* hw, const int64_t* wi,
                             const T* ww, Geo g) {
    BURN_GRID_STRIDE(pl, g.planes) {
        T* gxp = gx + pl * g.h * g.w;
        const T* gyp = gy + pl * g.oh * g.ow;
        for (int64_t i = 0; i < g.oh; ++i)
            for (int64_t j = 0; j < g.ow; ++j) {
                const T v = gyp[i * g.ow + j];
                for (int a = 0; a < g.nh; ++a)
                    for (int c = 0; c < g.nw; ++c)
                        gxp[hi[i * g.nh + a] * g.w + wi[j * g.nw + c]] +=
                            hw[i * g.nh + a] * ww[j * g.nw + c] * v;
            }
    }
}

/// Forward (x -> y) or backward (gy -> gx); xs is the input's shape, ys the output's.
template <class T>
void run(const OpCall& call, const Dims& xs, const Dims& ys, const T* src, T* dst, bool backward) {
    const auto ia = call.attrs<attrs::Interpolate>();
    const auto mode = static_cast<InterpolateMode>(ia.mode);
    const bool align = ia.align_corners;
    Geo g{xs[0] * xs[1], xs[2], xs[3], ys[2], ys[3], 1, 1};
    const Taps<T> th = taps<T>(mode, align, g.h, g.oh), tw = taps<T>(mode, align, g.w, g.ow);
    g.nh = th.n;
    g.nw = tw.n;
    const DevTaps<T> dh = upload(th), dw = upload(tw);
    const auto* hi = static_cast<const int64_t*>(dh.idx->data);
    const auto* wi = static_cast<const int64_t*>(dw.idx->data);
    const T* hw = static_cast<const T*>(dh.w->data);
    const T* ww = static_cast<const T*>(dw.w->data);
    cudaStream_t s = ctx().stream;
    if (backward) {
        BURN_CUDA_CHECK(cudaMemsetAsync(dst, 0, static_cast<std::size_t>(xs.numel()) * sizeof(T), s));
        if (ys.numel() > 0)
            interp_bwd_k<T><<<blocks_for(g.planes), kThreads, 0, s>>>(src, dst, hi, hw, wi, ww, g);
    } else {
        const int64_t total = ys.numel();
        if (total > 0)
            interp_fwd_k<T><<<blocks_for(total), kThreads, 0, s>>>(src, dst, hi, hw, wi, ww, g, total);
    }
    BURN_CUDA_LAUNCHED();
}

TensorRefs interpolate_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]);
    const CudaTensor& x = as_cuda(xr);
    auto y = alloc(call.shape, call.dtype);
    if (call.shape.numel() == 0) return {y};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        run<T>(call, x.shape, call.shape, x.data<T>(), y->data<T>(), false);
    });
    return {y};
}

TensorRefs interpolate_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef gr = contiguous(in[0]);
    const CudaTensor& g = as_cuda(gr);
    auto dx = alloc(call.shape, call.dtype);
    if (call.shape.numel() == 0) return {dx};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        run<T>(call, call.shape, g.shape, g.data<T>(), dx->data<T>(), true);
    });
    return {dx};
}

bool interp_ok(const OpCall& call, const TensorRefs& in) {
    return is_float(call.dtype) && !in.empty() && in[0]->shape.rank() == 4;
}

}  // namespace

void register_interpolate(KernelTable& t) {
    t[idx(OpId::interpolate)] = {&widening<&interpolate_kernel>, &interp_ok};
    t[idx(OpId::interpolate_backward)] = {&widening<&interpolate_backward_kernel>, &interp_ok};
}

}  // namespace burn::cuda
