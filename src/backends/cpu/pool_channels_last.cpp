// max_pool2d over channels-last activations (pool_channels_last.hpp): per output pixel, the window's
// C-vectors are compared in turn, which the compiler vectorises along the channels.
#include "backends/cpu/pool_channels_last.hpp"

#include <algorithm>
#include <limits>

namespace burn::cpu {

namespace {

template <class T>
void max_pool_pixels(const attrs::PoolWindow& a, const Dims& xs, const Dims& ys, const T* x, T* y,
                     int32_t* ind) {
    const int64_t c = xs[1], h = xs[2], w = xs[3], oh = ys[2], ow = ys[3];
    const T ninf = -std::numeric_limits<T>::infinity();
    platform::parallel_for(
        xs[0] * oh, std::max<int64_t>(1, kGrain / std::max<int64_t>(1, ow * c)), [&](int64_t r0, int64_t r1) {
            for (int64_t r = r0; r < r1; ++r) {
                const int64_t n = r / oh, i = r % oh;
                for (int64_t j = 0; j < ow; ++j) {
                    T* __restrict yp = y + (r * ow + j) * c;
                    int32_t* __restrict ip = ind + (r * ow + j) * c;
                    bool first = true;
                    for (int64_t p = 0; p < a.kernel[0]; ++p) {
                        const int64_t hh = i * a.stride[0] - a.pad[0] + p * a.dilation[0];
                        if (hh < 0 || hh >= h) continue;
                        for (int64_t q = 0; q < a.kernel[1]; ++q) {
                            const int64_t ww = j * a.stride[1] - a.pad[1] + q * a.dilation[1];
                            if (ww < 0 || ww >= w) continue;
                            const T* __restrict xp = x + ((n * h + hh) * w + ww) * c;
                            const auto pos = static_cast<int32_t>(hh * w + ww);
                            if (first) {  // the first position in the window
                                for (int64_t k = 0; k < c; ++k) {
                                    yp[k] = ninf;
                                    ip[k] = pos;
                                }
                                first = false;
                            }
                            for (int64_t k = 0; k < c; ++k) {
                                const T v = xp[k];
                                const bool take = v > yp[k] || v != v;  // NaN wins
                                yp[k] = take ? v : yp[k];
                                ip[k] = take ? pos : ip[k];
                            }
                        }
                    }
                    if (first)  // a window over padding only
                        for (int64_t k = 0; k < c; ++k) {
                            yp[k] = ninf;
                            ip[k] = 0;
                        }
                }
            }
        });
}

}  // namespace

TensorRefs max_pool2d_channels_last(const OpCall& call, const TensorRef& xr) {
    const CpuTensor& x = as_cpu(xr);
    if ((x.dtype != DType::f32 && x.dtype != DType::f64) || x.shape.rank() != 4 || x.is_contiguous() ||
        !x.is_channels_last() || call.dtype != x.dtype)
        return {};
    auto y = alloc(call.shape, x.dtype, x.device);
    auto ind = alloc(call.shape, DType::i32, x.device);
    y->strides = ind->strides = CpuTensor::channels_last_strides(call.shape);
    if (call.shape.numel() > 0) {
        const attrs::PoolWindow a = call.attrs<attrs::MaxPool2d>().window;
        if (x.dtype == DType::f32)
            max_pool_pixels(a, x.shape, call.shape, x.data<float>(), y->data<float>(), ind->data<int32_t>());
        else
            max_pool_pixels(a, x.shape, call.shape, x.data<double>(), y->data<double>(),
                            ind->data<int32_t>());
    }
    return {y, ind};
}

}  // namespace burn::cpu
