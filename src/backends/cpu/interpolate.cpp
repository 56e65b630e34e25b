// CPU interpolate kernels (nearest, bilinear, bicubic) and their backward, PyTorch's coordinate rules.
// Every mode is separable: per axis a table gives each output position its input taps and weights, and
// out[i, j] = sum_a sum_b wh[i][a] * ww[j][b] * x[ih[i][a], iw[j][b]]; the backward scatters the same
// products back. Parallel over the N * C planes; f16/bf16 compute in f32.
#include <algorithm>
#include <cmath>

#include "backends/common/interpolate_taps.hpp"
#include "backends/cpu/nn_common.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn::cpu {

namespace {

using interp::Taps;
using interp::taps;

/// Forward (x -> y) when gx is null, backward (gy -> gx) otherwise.
template <class T>
void interpolate_planes(const OpCall& call, const Dims& x_shape, const Dims& y_shape, const T* x, T* y, T* gx,
                        const T* gy) {
    const bool backward = gx != nullptr;
    const auto a = call.attrs<attrs::Interpolate>();
    const auto mode = static_cast<InterpolateMode>(a.mode);
    const bool align = a.align_corners;
    const int64_t planes = x_shape[0] * x_shape[1], h = x_shape[2], w = x_shape[3], oh = y_shape[2],
                  ow = y_shape[3];
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
        interpolate_planes<T>(call, x->shape, call.shape, as_cpu(x).data<T>(), y->data<T>(), nullptr,
                              nullptr);
    });
    return {nn::from_compute(y, call.dtype)};
}

TensorRefs interpolate_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef g = nn::to_compute(in[0]);
    auto dx = alloc(call.shape, g->dtype, in[0]->device);
    nn::dispatch_compute(g->dtype, [&](auto tag) {
        using T = decltype(tag);
        interpolate_planes<T>(call, call.shape, g->shape, nullptr, nullptr, dx->data<T>(),
                              as_cpu(g).data<T>());
    });
    return {nn::from_compute(dx, call.dtype)};
}

}  // namespace

void register_interpolate(KernelTable& t) {
    t[idx(OpId::interpolate)] = &interpolate_kernel;
    t[idx(OpId::interpolate_backward)] = &interpolate_backward_kernel;
}

}  // namespace burn::cpu
