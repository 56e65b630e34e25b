// Convolutions on CUDA without cuDNN or a GEMM, and conv_fused's epilogue.
// - Depthwise 2-D convolution (groups == input channels, one input channel per group: MobileNet's 3x3
//   layers): one thread per output element, the taps read through the cache, the epilogue (bias,
//   residual, clamp) applied before the single store. PyTorch does the same (its conv_depthwise2d
//   kernel): cuDNN's grouped convolution costs a descriptor-driven call of about 30 us of host time and,
//   for these memory-bound shapes, is no faster on the device. BURN_CUDA_DEPTHWISE=0 sends them to cuDNN.
// - The epilogue alone, in place, after a cuDNN or GEMM convolution (one pass instead of one per op).
#include <cstdlib>
#include <string>

#include "backends/cuda/conv.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda::direct {

namespace {

const bool g_enabled = [] {
    const char* v = std::getenv("BURN_CUDA_DEPTHWISE");
    return !v || !*v || std::string(v) != "0";
}();

struct Geo {
    int c, h, w, o, og, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw;
};

/// The epilogue on the accumulated value v of output element t (channel o): + bias (rounded to T, as the
/// conv row rounds), + residual (rounded), then the clamp (NaN stays NaN).
template <class T>
struct Epi {
    const T* bias;
    const T* residual;
    dc_t<T> lo, hi;
    bool clamp;
    __device__ __forceinline__ T apply(dc_t<T> v, int64_t t, int o) const {
        using C = dc_t<T>;
        if (bias) v += C(bias[o]);
        v = C(T(v));
        if (residual) v = C(T(v + C(residual[t])));
        if (clamp) v = v < lo ? lo : (v > hi ? hi : v);
        return T(v);
    }
};

template <class T, class I>
__global__ void depthwise_k(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y, Geo g,
                            Epi<T> e, I total) {
    using C = dc_t<T>;
    for (I t = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += static_cast<I>(blockDim.x) * gridDim.x) {
        const I ox = t % g.ow;
        I r = t / g.ow;
        const I oy = r % g.oh;
        r /= g.oh;
        const int o = static_cast<int>(r % g.o);
        const I n = r / g.o;
        const T* xp = x + (n * g.c + o / g.og) * static_cast<I>(g.h) * g.w;
        const T* wp = w + static_cast<I>(o) * g.kh * g.kw;
        const int iy0 = static_cast<int>(oy) * g.sh - g.ph, ix0 = static_cast<int>(ox) * g.sw - g.pw;
        C acc = C(0);
        for (int i = 0; i < g.kh; ++i) {
            const int iy = iy0 + i * g.dh;
            if (iy < 0 || iy >= g.h) continue;
            const T* row = xp + static_cast<I>(iy) * g.w;
            for (int j = 0; j < g.kw; ++j) {
                const int ix = ix0 + j * g.dw;
                if (ix >= 0 && ix < g.w) acc += C(__ldg(row + ix)) * C(__ldg(wp + i * g.kw + j));
            }
        }
        y[t] = e.apply(acc, static_cast<int64_t>(t), o);
    }
}

template <class T>
__global__ void epilogue_k(T* y, Epi<T> e, int64_t o, int64_t l, int64_t total) {
    BURN_GRID_STRIDE(t, total) y[t] = e.apply(dc_t<T>(y[t]), t, static_cast<int>((t / l) % o));
}

template <class T>
Epi<T> make_epi(const Epilogue& ep) {
    using C = dc_t<T>;
    Epi<T> e{};
    e.bias = ep.bias ? as_cuda(ep.bias).data<T>() : nullptr;
    e.residual = ep.residual ? as_cuda(ep.residual).data<T>() : nullptr;
    e.clamp = ep.clamp();
    e.lo = C(ep.lo);
    e.hi = C(ep.hi);
    return e;
}

}  // namespace

bool Epilogue::clamp() const {
    return lo > -1e308 || hi < 1e308;  // finite bounds (infinite ones: no clamp)
}

bool depthwise_handles(const attrs::Conv& a, const Dims& x, const Dims& w) {
    if (!g_enabled || a.spatial != 2 || x.rank() != 4 || w.rank() != 4) return false;
    if (a.groups <= 1 || a.groups != x[1] || w[1] != 1) return false;
    // int geometry; channels and the image numel fit comfortably
    const int64_t lim = int64_t{1} << 30;
    return x[2] * x[3] < lim && w[0] < lim && w[2] * w[3] <= 4096;
}

TensorRef depthwise(const Dims& out_shape, DType dt, const attrs::Conv& a, const TensorRef& x_in,
                    const TensorRef& w_in, const Epilogue& ep) {
    TensorRef xr = contiguous(x_in), wr = contiguous(w_in);
    const Dims& xs = xr->shape;
    const Dims& ws = wr->shape;
    auto y = alloc(out_shape, dt);
    const int64_t total = out_shape.numel();
    if (total == 0) return y;
    Geo g{};
    g.c = static_cast<int>(xs[1]);
    g.h = static_cast<int>(xs[2]);
    g.w = static_cast<int>(xs[3]);
    g.o = static_cast<int>(ws[0]);
    g.og = g.o / g.c;
    g.kh = static_cast<int>(ws[2]);
    g.kw = static_cast<int>(ws[3]);
    g.oh = static_cast<int>(out_shape[2]);
    g.ow = static_cast<int>(out_shape[3]);
    g.sh = static_cast<int>(a.stride[0]);
    g.sw = static_cast<int>(a.stride[1]);
    g.ph = static_cast<int>(a.pad_begin[0]);
    g.pw = static_cast<int>(a.pad_begin[1]);
    g.dh = static_cast<int>(a.dilation[0]);
    g.dw = static_cast<int>(a.dilation[1]);
    const bool narrow = total < (int64_t{1} << 31) && xs.numel() < (int64_t{1} << 31);
    dispatch_float_ew(dt, [&](auto tag) {
        using T = decltype(tag);
        const Epi<T> e = make_epi<T>(ep);
        const T* xp = as_cuda(xr).data<T>();
        const T* wp = as_cuda(wr).data<T>();
        if (narrow)
            depthwise_k<T, int32_t><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
                xp, wp, y->data<T>(), g, e, static_cast<int32_t>(total));
        else
            depthwise_k<T, int64_t>
                <<<blocks_for(total), kThreads, 0, ctx().stream>>>(xp, wp, y->data<T>(), g, e, total);
    });
    BURN_CUDA_LAUNCHED();
    return y;
}

void apply_epilogue(const TensorRef& y, const Epilogue& ep) {
    const int64_t total = y->shape.numel();
    if (total == 0) return;
    const int64_t o = y->shape[1];
    const int64_t l = o ? total / (y->shape[0] * o) : 0;
    if (l == 0) return;
    dispatch_float_ew(y->dtype, [&](auto tag) {
        using T = decltype(tag);
        epilogue_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(as_cuda(y).data<T>(), make_epi<T>(ep),
                                                                        o, l, total);
    });
    BURN_CUDA_LAUNCHED();
}

}  // namespace burn::cuda::direct
