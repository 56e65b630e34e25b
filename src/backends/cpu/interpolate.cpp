// CPU interpolate kernels (nearest, bilinear, bicubic) and their backward, PyTorch's coordinate rules.
// Every mode is separable: per axis a table gives each output position its input taps and weights, and
// out[i, j] = sum_a sum_b wh[i][a] * ww[j][b] * x[ih[i][a], iw[j][b]]; the backward scatters the same
// products back. Parallel over the N * C planes; f16/bf16 compute in f32.
#include <algorithm>
#include <cmath>

#include "backends/cpu/nn_common.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn::cpu {

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

/// Forward (x -> y) when gx is null, backward (gy -> gx) otherwise.
template <class T>
void interpolate_planes(const OpCall& call, const Dims& x_shape, const Dims& y_shape, const T* x, T* y, T* gx,
                        const T* gy) {
    const bool backward = gx != nullptr;
    const auto mode = static_cast<InterpolateMode>(call.ints[0]);
    const bool align = call.ints[1] != 0;
    const int64_t planes = x_shape[0] * x_shape[1], h = x_shape[2], w = x_shape[3], oh = y_shape[2], ow = y_shape[3];
    const Taps<T> th = taps<T>(mode, align, h, oh), tw = taps<T>(mode, align, w, ow);
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, oh * ow * th.n * tw.n));
    platform::parallel_for(planes, grain, [&](int64_t b, int64_t e) {
        for (int64_t pl = b; pl < e; ++pl) {
            const T* xp = backward ? nullptr : x + pl * h * w;
            T* yp = backward ? nullptr : y + pl * oh * ow;
            T* gxp = backward ? gx + pl * h * w : nullptr;
            const T* gyp = backward ? gy + pl * oh * ow : nullptr;
            if (backward) std::fill(gxp, gxp + h * w, T(0));
            for (int64_t i = 0; i < oh; ++i) {
                const int64_t* hi = th.idx.data() + i * th.n;
                const T* hw = th.w.data() + i * th.n;
                for (int64_t j = 0; j < ow; ++j) {
                    const int64_t* wi = tw.idx.data() + j * tw.n;
                    const T* ww = tw.w.data() + j * tw.n;
                    if (backward) {
                        const T g = gyp[i * ow + j];
                        for (int a = 0; a < th.n; ++a)
                            for (int c = 0; c < tw.n; ++c) gxp[hi[a] * w + wi[c]] += hw[a] * ww[c] * g;
                    } else {
                        T sum = 0;
                        for (int a = 0; a < th.n; ++a) {
                            T row = 0;
                            for (int c = 0; c < tw.n; ++c) row += ww[c] * xp[hi[a] * w + wi[c]];
                            sum += hw[a] * row;
                        }
                        yp[i * ow + j] = sum;
                    }
                }
            }
        }
    });
}

TensorRefs interpolate_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef x = nn::to_compute(in[0]);
    auto y = alloc(call.shape, x->dtype, in[0]->device);
    nn::dispatch_compute(x->dtype, [&](auto tag) {
        using T = decltype(tag);
        interpolate_planes<T>(call, x->shape, call.shape, as_cpu(x).data<T>(), y->data<T>(), nullptr, nullptr);
    });
    return {nn::from_compute(y, call.dtype)};
}

TensorRefs interpolate_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef g = nn::to_compute(in[0]);
    auto dx = alloc(call.shape, g->dtype, in[0]->device);
    nn::dispatch_compute(g->dtype, [&](auto tag) {
        using T = decltype(tag);
        interpolate_planes<T>(call, call.shape, g->shape, nullptr, nullptr, dx->data<T>(), as_cpu(g).data<T>());
    });
    return {nn::from_compute(dx, call.dtype)};
}

}  // namespace

void register_interpolate(KernelTable& t) {
    t[idx(OpId::interpolate)] = &interpolate_kernel;
    t[idx(OpId::interpolate_backward)] = &interpolate_backward_kernel;
}

}  // namespace burn::cpu
