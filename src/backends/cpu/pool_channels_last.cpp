// max_pool2d over channels-last activations (pool_channels_last.hpp): per output pixel, the window's
// C-vectors are compared in turn with the running maximum and its position held in vector registers
// (f32: simd::max_window, Highway with run-time dispatch; ResNet-18's 3x3/2 pool at batch 8 went from
// 2.7 to 1.4 ms on two threads, where the plain loop kept both in memory; f64: fixed-size blocks).
#include "backends/cpu/pool_channels_last.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/simd_act.hpp"

namespace burn::cpu {

namespace {

/// One output pixel over channels [k0, k0 + cnt) (cnt <= B): the running max and its position stay in
/// registers over the window's positions (B a multiple of the vector width: the compiler keeps the
/// fixed-size arrays in vector registers), stored once.
template <int64_t B, class T>
inline void window_block(const T* const* src, int64_t k0, const int32_t* pos, int64_t npos, int64_t cnt,
                         T* __restrict yp, int32_t* __restrict ip) {
    T best[B];
    int32_t at[B];
    for (int64_t k = 0; k < B; ++k) {
        best[k] = -std::numeric_limits<T>::infinity();
        at[k] = npos > 0 ? pos[0] : 0;
    }
    if (cnt == B) {
        for (int64_t p = 0; p < npos; ++p) {
            const T* __restrict xp = src[p] + k0;
            for (int64_t k = 0; k < B; ++k) {
                const T v = xp[k];
                const bool take = v > best[k] || v != v;  // NaN wins
                best[k] = take ? v : best[k];
                at[k] = take ? pos[p] : at[k];
            }
        }
    } else {
        for (int64_t p = 0; p < npos; ++p)
            for (int64_t k = 0; k < cnt; ++k) {
                const T v = src[p][k0 + k];
                const bool take = v > best[k] || v != v;
                best[k] = take ? v : best[k];
                at[k] = take ? pos[p] : at[k];
            }
    }
    for (int64_t k = 0; k < cnt; ++k) {
        yp[k0 + k] = best[k];
        ip[k0 + k] = at[k];
    }
}

template <class T>
void max_pool_pixels(const attrs::PoolWindow& a, const Dims& xs, const Dims& ys, const T* x, T* y,
                     int32_t* ind) {
    const int64_t c = xs[1], h = xs[2], w = xs[3], oh = ys[2], ow = ys[3];
    constexpr int64_t B = 64 / sizeof(T);  // one AVX-512 vector, four SSE ones
    const int64_t window = a.kernel[0] * a.kernel[1];
    platform::parallel_for(
        xs[0] * oh, std::max<int64_t>(1, kGrain / std::max<int64_t>(1, ow * c)), [&](int64_t r0, int64_t r1) {
            std::vector<const T*> src(static_cast<std::size_t>(window));
            std::vector<int32_t> pos(static_cast<std::size_t>(window));
            for (int64_t r = r0; r < r1; ++r) {
                const int64_t n = r / oh, i = r % oh;
                for (int64_t j = 0; j < ow; ++j) {
                    // the window's positions inside the image, in row-major order (the first max wins)
                    int64_t npos = 0;
                    for (int64_t p = 0; p < a.kernel[0]; ++p) {
                        const int64_t hh = i * a.stride[0] - a.pad[0] + p * a.dilation[0];
                        if (hh < 0 || hh >= h) continue;
                        for (int64_t q = 0; q < a.kernel[1]; ++q) {
                            const int64_t ww = j * a.stride[1] - a.pad[1] + q * a.dilation[1];
                            if (ww < 0 || ww >= w) continue;
                            src[static_cast<std::size_t>(npos)] = x + ((n * h + hh) * w + ww) * c;
                            pos[static_cast<std::size_t>(npos++)] = static_cast<int32_t>(hh * w + ww);
                        }
                    }
                    T* yp = y + (r * ow + j) * c;
                    int32_t* ip = ind + (r * ow + j) * c;
                    if constexpr (std::is_same_v<T, float>) {
                        simd::max_window(src.data(), pos.data(), npos, c, yp, ip);
                    } else {
                        for (int64_t k0 = 0; k0 < c; k0 += B)
                            window_block<B>(src.data(), k0, pos.data(), npos, std::min(B, c - k0), yp, ip);
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
