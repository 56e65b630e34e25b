// Convolutions on CUDA: depthwise ones forward by the direct kernel (conv_direct.cu); others through
// cuDNN when it loads (cudnn_conv.cpp: any spatial rank, f32/f64/f16/bf16), else 1-D and 2-D convolution
// and their adjoints as im2col + cuBLAS (groups loop; batched gemms write [N, O, L] directly; a pointwise
// one multiplies x itself; f16/bf16 widened to f32). conv_fused: the convolution, then its epilogue.
// Also the window copy and bias kernels of the cuDNN path.
#include <cmath>
#include <cstdio>

#include "backends/cuda/conv.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

struct Conv2d {
    int64_t n, c, h, w, o, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups, cg, og, ck, l;
};

/// The geometry of a 2-D convolution; a 1-D one ([N, C, L]) is a 2-D one of height 1.
Conv2d conv_geo(const attrs::Conv& a, const Dims& x, const Dims& w, const Dims& y) {
    const bool one = x.rank() == 3;
    Conv2d g{};
    g.n = x[0];
    g.c = x[1];
    g.h = one ? 1 : x[2];
    g.w = one ? x[2] : x[3];
    g.o = w[0];
    g.kh = one ? 1 : w[2];
    g.kw = one ? w[2] : w[3];
    g.oh = one ? 1 : y[2];
    g.ow = one ? y[2] : y[3];
    g.sh = one ? 1 : a.stride[0];
    g.sw = one ? a.stride[0] : a.stride[1];
    g.ph = one ? 0 : a.pad_begin[0];
    g.pw = one ? a.pad_begin[0] : a.pad_begin[1];
    g.dh = one ? 1 : a.dilation[0];
    g.dw = one ? a.dilation[0] : a.dilation[1];
    g.groups = a.groups;
    g.cg = g.c / g.groups;
    g.og = g.o / g.groups;
    g.ck = g.cg * g.kh * g.kw;
    g.l = g.oh * g.ow;
    return g;
}

/// col[n * sn + r * sr + l] for rows r = (c, i, j) of channels [c0, c0 + cg), zero in the padding.
template <class T>
__global__ void im2col_k(const T* x, T* col, Conv2d g, int64_t c0, int64_t sn, int64_t sr, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t l = t % g.l;
        int64_t rest = t / g.l;
        const int64_t r = rest % g.ck;
        const int64_t n = rest / g.ck;
        const int64_t j = r % g.kw, i = (r / g.kw) % g.kh, c = r / (g.kw * g.kh);
        const int64_t oy = l / g.ow, ox = l % g.ow;
        const int64_t iy = oy * g.sh - g.ph + i * g.dh, ix = ox * g.sw - g.pw + j * g.dw;
        T v = T(0);
        if (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w) v = x[((n * g.c + c0 + c) * g.h + iy) * g.w + ix];
        col[n * sn + r * sr + l] = v;
    }
}

/// dx[n, c0 + c, y, x] = sum of the col entries that read it (gather form: deterministic).
template <class T>
__global__ void col2im_k(const T* col, T* dx, Conv2d g, int64_t c0, int64_t total) {
    BURN_GRID_STRIDE(t, total) {  // over n, cg, h, w
        const int64_t xx = t % g.w;
        const int64_t yy = (t / g.w) % g.h;
        const int64_t c = (t / (g.w * g.h)) % g.cg;
        const int64_t n = t / (g.w * g.h * g.cg);
        T acc = T(0);
        for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t ty = yy + g.ph - i * g.dh;
            if (ty < 0 || ty % g.sh) continue;
            const int64_t oy = ty / g.sh;
            if (oy >= g.oh) continue;
            for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t tx = xx + g.pw - j * g.dw;
                if (tx < 0 || tx % g.sw) continue;
                const int64_t ox = tx / g.sw;
                if (ox >= g.ow) continue;
                acc += col[(n * g.ck + (c * g.kh + i) * g.kw + j) * g.l + oy * g.ow + ox];
            }
        }
        dx[((n * g.c + c0 + c) * g.h + yy) * g.w + xx] = acc;
    }
}

template <class T>
__global__ void bias_fill_k(const T* bias, T* y, int64_t o, int64_t l, int64_t total) {
    BURN_GRID_STRIDE(t, total) y[t] = bias[(t / l) % o];
}

TensorRefs conv_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]), wr = contiguous(in[1]);
    const CudaTensor& x = as_cuda(xr);
    const CudaTensor& w = as_cuda(wr);
    const Conv2d g = conv_geo(call.attrs<attrs::Conv>(), x.shape, w.shape, call.shape);
    auto y = alloc(call.shape, call.dtype);
    const int64_t ny = call.shape.numel();
    if (ny == 0) return {y};
    cudaStream_t s = ctx().stream;
    const bool bias = in.size() > 2;
    TensorRef br = bias ? contiguous(in[2]) : TensorRef();
    // A pointwise convolution's im2col matrix is x itself.
    const bool direct = g.groups == 1 && g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 &&
                        g.pw == 0 && g.oh == g.h && g.ow == g.w;
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (bias) {
            bias_fill_k<T>
                <<<blocks_for(ny), kThreads, 0, s>>>(as_cuda(br).data<T>(), y->data<T>(), g.o, g.l, ny);
        } else if (g.ck == 0) {
            BURN_CUDA_CHECK(cudaMemsetAsync(y->raw(), 0, ny * sizeof(T), s));
        }
        if (g.ck == 0) return;
        std::shared_ptr<Storage> col;
        T* cp = nullptr;
        const T* bp = x.data<T>();
        if (!direct) {
            col = scratch(static_cast<std::size_t>(g.n * g.ck * g.l) * sizeof(T));
            cp = static_cast<T*>(col->data);
            bp = cp;
        }
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            const int64_t total = g.n * g.ck * g.l;
            if (!direct) {
                im2col_k<T><<<blocks_for(total), kThreads, 0, s>>>(x.data<T>(), cp, g, gi * g.cg, g.ck * g.l,
                                                                   g.l, total);
                BURN_CUDA_LAUNCHED();
            }
            // y[n][og rows of group] (og x L) = W_g (og x ck) * col[n] (ck x L), onto the bias if any
            MatRef a{w.data<T>() + gi * g.og * g.ck, g.ck, 1, 0};
            MatRef b{bp, g.l, 1, g.ck * g.l};
            gemm(call.dtype, g.og, g.l, g.ck, a, b, y->data<T>() + gi * g.og * g.l, g.l, g.o * g.l, g.n, 1.0,
                 bias ? 1.0 : 0.0);
        }
    });
    BURN_CUDA_LAUNCHED();
    return {y};
}

TensorRefs conv_backward_input_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef gr = contiguous(in[0]), wr = contiguous(in[1]);
    const CudaTensor& gy = as_cuda(gr);
    const CudaTensor& w = as_cuda(wr);
    const Conv2d g = conv_geo(call.attrs<attrs::Conv>(), call.shape, w.shape, gy.shape);
    auto dx = alloc(call.shape, call.dtype);
    const int64_t nx = call.shape.numel();
    if (nx == 0) return {dx};
    cudaStream_t s = ctx().stream;
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (g.ck == 0 || g.l == 0 || g.og == 0) {
            BURN_CUDA_CHECK(cudaMemsetAsync(dx->raw(), 0, nx * sizeof(T), s));
            return;
        }
        auto col = scratch(static_cast<std::size_t>(g.n * g.ck * g.l) * sizeof(T));
        T* cp = static_cast<T*>(col->data);
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            // col[n] (ck x L) = W_g^T (ck x og) * gy[n][group rows] (og x L)
            MatRef a{w.data<T>() + gi * g.og * g.ck, 1, g.ck, 0};
            MatRef b{gy.data<T>() + gi * g.og * g.l, g.l, 1, g.o * g.l};
            gemm(call.dtype, g.ck, g.l, g.og, a, b, cp, g.l, g.ck * g.l, g.n, 1.0, 0.0);
            const int64_t total = g.n * g.cg * g.h * g.w;
            col2im_k<T><<<blocks_for(total), kThreads, 0, s>>>(cp, dx->data<T>(), g, gi * g.cg, total);
            BURN_CUDA_LAUNCHED();
        }
    });
    return {dx};
}

template <class T>
__global__ void permute_nol_k(const T* gy, T* out, int64_t n, int64_t o, int64_t l) {
    // out[o][n][l] = gy[n][o][l]
    BURN_GRID_STRIDE(t, n * o * l) {
        const int64_t li = t % l, ni = (t / l) % n, oi = t / (l * n);
        out[t] = gy[(ni * o + oi) * l + li];
    }
}

TensorRefs conv_backward_weight_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef xr = contiguous(in[0]), gr = contiguous(in[1]);
    const CudaTensor& x = as_cuda(xr);
    const CudaTensor& gy = as_cuda(gr);
    const Conv2d g = conv_geo(call.attrs<attrs::Conv>(), x.shape, call.shape, gy.shape);
    auto dw = alloc(call.shape, call.dtype);
    const int64_t nw = call.shape.numel();
    if (nw == 0) return {dw};
    cudaStream_t s = ctx().stream;
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        const int64_t nl = g.n * g.l;
        if (nl == 0) {
            BURN_CUDA_CHECK(cudaMemsetAsync(dw->raw(), 0, nw * sizeof(T), s));
            return;
        }
        auto gt = scratch(static_cast<std::size_t>(g.o * nl) * sizeof(T));
        T* gp = static_cast<T*>(gt->data);
        permute_nol_k<T><<<blocks_for(g.o * nl), kThreads, 0, s>>>(gy.data<T>(), gp, g.n, g.o, g.l);
        BURN_CUDA_LAUNCHED();
        auto col = scratch(static_cast<std::size_t>(g.ck * nl) * sizeof(T));
        T* cp = static_cast<T*>(col->data);
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            const int64_t total = g.n * g.ck * g.l;  // layout [ck][n][l]
            im2col_k<T><<<blocks_for(total), kThreads, 0, s>>>(x.data<T>(), cp, g, gi * g.cg, g.l, nl, total);
            BURN_CUDA_LAUNCHED();
            // dW_g (og x ck) = gT_g (og x NL) * col^T (NL x ck)
            MatRef a{gp + gi * g.og * nl, nl, 1, 0};
            MatRef b{cp, 1, nl, 0};
            gemm(call.dtype, g.og, g.ck, nl, a, b, dw->data<T>() + gi * g.og * g.ck, g.ck, 0, 1, 1.0, 0.0);
        }
    });
    return {dw};
}

/// Spatial rank 1 or 2 (im2col) or any (cuDNN), float, every input of the call's dtype.
bool conv_ok(const OpCall& call, const TensorRefs& in) {
    if (!is_float(call.dtype) || in.empty()) return false;
    for (const auto& t : in)
        if (t->dtype != call.dtype) return false;
    const int r = in[0]->shape.rank();
    if (r == 3 || r == 4) return true;
    return r == 5 && cudnn::handles(call, in);
}

template <cudnn::Dir D, Kernel Im2col>
TensorRefs conv_dispatch(const OpCall& call, TensorRefs& in) {
    if (cudnn::handles(call, in)) {
        if (auto out = cudnn::run(D, call, in)) return {out};
    }
    BURN_CHECK_KIND(in[0]->shape.rank() <= 4, device, "[", ctx().op,
                    "] cuDNN has no algorithm for this 3-D convolution (input ", in[0]->shape, ", dtype ",
                    call.dtype, ") and the im2col path covers 1-D and 2-D only");
    return widening<Im2col>(call, in);
}

/// The forward convolution: the direct depthwise kernel, cuDNN, or im2col + GEMM.
TensorRefs conv_forward(const OpCall& call, TensorRefs& in) {
    const auto a = call.attrs<attrs::Conv>();
    if (direct::depthwise_handles(a, in[0]->shape, in[1]->shape)) {
        direct::Epilogue e;
        if (in.size() > 2) e.bias = contiguous(in[2]);
        return {direct::depthwise(call.shape, call.dtype, a, in[0], in[1], e)};
    }
    return conv_dispatch<cudnn::Dir::forward, &conv_kernel>(call, in);
}

/// conv_fused: the depthwise kernel with the whole epilogue, else the convolution without its bias and
/// one epilogue pass (bias, residual, clamp) over the new output.
TensorRefs conv_fused_kernel(const OpCall& call, TensorRefs& in) {
    const auto a = call.attrs<attrs::ConvFused>();
    const std::size_t n_conv = in.size() - (a.residual ? 1 : 0);
    direct::Epilogue e;
    if (n_conv > 2) e.bias = contiguous(in[2]);
    if (a.residual) e.residual = contiguous(in.back());
    e.lo = a.lo;
    e.hi = a.hi;
    if (direct::depthwise_handles(a.conv, in[0]->shape, in[1]->shape))
        return {direct::depthwise(call.shape, call.dtype, a.conv, in[0], in[1], e)};
    OpCall conv = make_call(OpId::conv, a.conv);
    conv.dtype = call.dtype;
    TensorRefs conv_in{in[0], in[1]};
    TensorRef y = conv_dispatch<cudnn::Dir::forward, &conv_kernel>(conv, conv_in)[0];
    direct::apply_epilogue(y, e);
    return {y};
}

bool conv_fused_ok(const OpCall& call, const TensorRefs& in) {
    const auto a = call.attrs<attrs::ConvFused>();
    OpCall conv = make_call(OpId::conv, a.conv);
    conv.dtype = call.dtype;
    return conv_ok(conv, in);
}

// ---- helpers of the cuDNN path

struct Window {
    int rank;
    int64_t src[5], dst[5], off[5];
};

template <class T>
__global__ void window_k(const T* src, T* dst, Window w, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        int64_t rest = t, s = 0, scale = 1;
        bool inside = true;
        for (int d = w.rank - 1; d >= 0; --d) {
            const int64_t c = rest % w.dst[d] + w.off[d];
            rest /= w.dst[d];
            inside = inside && c >= 0 && c < w.src[d];
            s += c * scale;
            scale *= w.src[d];
        }
        dst[t] = inside ? src[s] : T(0.0f);
    }
}

template <class T>
__global__ void bias_add_k(T* y, const T* bias, int64_t o, int64_t l, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        y[t] = T(static_cast<dc_t<T>>(y[t]) + static_cast<dc_t<T>>(bias[(t / l) % o]));
    }
}

}  // namespace

namespace cudnn {

void window_copy(DType d, const void* src, const Dims& src_shape, void* dst, const Dims& dst_shape,
                 const int64_t* off) {
    Window w{};
    w.rank = src_shape.rank();
    for (int i = 0; i < w.rank; ++i) {
        w.src[i] = src_shape[i];
        w.dst[i] = dst_shape[i];
        w.off[i] = i < 2 ? 0 : off[i - 2];
    }
    const int64_t total = dst_shape.numel();
    if (total == 0) return;
    dispatch_float_ew(d, [&](auto tag) {
        using T = decltype(tag);
        window_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(static_cast<const T*>(src),
                                                                      static_cast<T*>(dst), w, total);
    });
    BURN_CUDA_LAUNCHED();
}

bool pointwise(const attrs::Conv& a, const Dims& x, const Dims& w, const Dims& y) {
    return a.spatial == 2 && a.groups == 1 && w.rank() == 4 && w[2] == 1 && w[3] == 1 && a.stride[0] == 1 &&
           a.stride[1] == 1 && a.pad_begin[0] == 0 && a.pad_begin[1] == 0 && y.rank() == 4 && x.rank() == 4 &&
           y[2] == x[2] && y[3] == x[3];
}

void add_bias(DType d, void* y, const void* bias, int64_t o, int64_t l, int64_t total) {
    if (total == 0 || l == 0) return;
    dispatch_float_ew(d, [&](auto tag) {
        using T = decltype(tag);
        bias_add_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
            static_cast<T*>(y), static_cast<const T*>(bias), o, l, total);
    });
    BURN_CUDA_LAUNCHED();
}

}  // namespace cudnn

void register_conv(KernelTable& t) {
    t[idx(OpId::conv)] = {&conv_forward, &conv_ok};
    t[idx(OpId::conv_fused)] = {&conv_fused_kernel, &conv_fused_ok};
    t[idx(OpId::conv_backward_input)] = {
        &conv_dispatch<cudnn::Dir::backward_data, &conv_backward_input_kernel>, &conv_ok};
    t[idx(OpId::conv_backward_weight)] = {
        &conv_dispatch<cudnn::Dir::backward_filter, &conv_backward_weight_kernel>, &conv_ok};
}

}  // namespace burn::cuda
