// interpolate (nearest, bilinear, bicubic) and its backward on CUDA, PyTorch's coordinate rules. The
// per-axis tap tables (input index and weight of each output position) are built on the host exactly
// as the CPU backend builds them and copied to the device; the forward is a thread per output (the
// CPU's summation order), the backward a thread per plane scattering in the CPU's order (bit-equal).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cuda/kernels.cuh"
#include "burn/tensor/module_ops.hpp"

namespace burn::cuda {

namespace {

template <class T>
struct Taps {
    int n = 1;                 // taps per output position
    std::vector<int64_t> idx;  // [out * n]
    std::vector<T> w;          // [out * n]
};

/// PyTorch's "nearest": floor(dst * in / out) in float arithmetic.
int64_t nearest_index(int64_t o, int64_t in, int64_t out) {
    if (out == in) return o;
    if (out == 2 * in) return o >> 1;
    const float scale = static_cast<float>(in) / static_cast<float>(out);
    return std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * scale)), in - 1);
}

template <class T>
T cubic1(T x, T a) {  // |x| <= 1
    return ((a + 2) * x - (a + 3)) * x * x + 1;
}
template <class T>
T cubic2(T x, T a) {  // 1 < |x| < 2
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}

template <class T>
Taps<T> taps(InterpolateMode mode, bool align_corners, int64_t in, int64_t out) {
    Taps<T> t;
    t.n = mode == InterpolateMode::nearest ? 1 : mode == InterpolateMode::bilinear ? 2 : 4;
    t.idx.resize(static_cast<std::size_t>(out * t.n));
    t.w.resize(static_cast<std::size_t>(out * t.n));
    const T scale = align_corners ? (out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0))
                                  : static_cast<T>(in) / static_cast<T>(out);
    for (int64_t o = 0; o < out; ++o) {
        int64_t* ix = t.idx.data() + o * t.n;
        T* w = t.w.data() + o * t.n;
        if (mode == InterpolateMode::nearest) {
            ix[0] = nearest_index(o, in, out);
            w[0] = 1;
            continue;
        }
        T src = align_corners ? scale * static_cast<T>(o) : scale * (static_cast<T>(o) + T(0.5)) - T(0.5);
        if (mode == InterpolateMode::bilinear) {
            if (out == in) {
                ix[0] = ix[1] = o;
                w[0] = 1;
                w[1] = 0;
                continue;
            }
            if (src < 0) src = 0;
            const int64_t i0 = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
            const T l = std::min(std::max(src - static_cast<T>(i0), T(0)), T(1));
            ix[0] = i0;
            ix[1] = i0 + (i0 < in - 1 ? 1 : 0);
            w[0] = 1 - l;
            w[1] = l;
        } else {
            const int64_t i0 = static_cast<int64_t>(std::floor(src));
            const T f = src - static_cast<T>(i0), a = T(-0.75);
            w[0] = cubic2<T>(f + 1, a);
            w[1] = cubic1<T>(f, a);
            w[2] = cubic1<T>(1 - f, a);
            w[3] = cubic2<T>(2 - f, a);
            for (int k = 0; k < 4; ++k) ix[k] = std::min(std::max<int64_t>(i0 - 1 + k, 0), in - 1);
        }
    }
    return t;
}

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
    const auto mode = static_cast<InterpolateMode>(call.ints[0]);
    const bool align = call.ints[1] != 0;
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
