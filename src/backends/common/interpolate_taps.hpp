#pragma once
// The per-axis tap tables of interpolate (nearest, bilinear, bicubic) with PyTorch's coordinate rules:
// for each output position, its input indices and weights. Built on the host; the CPU backend uses them
// directly and the CUDA backend copies them to the device, so both sum the same taps in the same order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "burn/tensor/module_ops.hpp"

namespace burn::interp {

template <class T>
struct Taps {
    int n = 1;                 // taps per output position
    std::vector<int64_t> idx;  // [out * n]
    std::vector<T> w;          // [out * n]
};

/// PyTorch's "nearest": floor(dst * in / out) in float arithmetic.
inline int64_t nearest_index(int64_t o, int64_t in, int64_t out) {
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

/// PyTorch's "nearest-exact": floor((dst + 0.5) * in / out) in float arithmetic.
inline int64_t nearest_exact_index(int64_t o, int64_t in, int64_t out) {
    if (out == in) return o;
    const float scale = static_cast<float>(in) / static_cast<float>(out);
    return std::min(static_cast<int64_t>(std::floor((static_cast<float>(o) + 0.5f) * scale)), in - 1);
}

template <class T>
Taps<T> taps(InterpolateMode mode, bool align_corners, int64_t in, int64_t out) {
    Taps<T> t;
    const bool nearest = mode == InterpolateMode::nearest || mode == InterpolateMode::nearest_exact;
    t.n = nearest ? 1 : mode == InterpolateMode::bilinear ? 2 : 4;
    t.idx.resize(static_cast<std::size_t>(out * t.n));
    t.w.resize(static_cast<std::size_t>(out * t.n));
    const T scale = align_corners ? (out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0))
                                  : static_cast<T>(in) / static_cast<T>(out);
    for (int64_t o = 0; o < out; ++o) {
        int64_t* ix = t.idx.data() + o * t.n;
        T* w = t.w.data() + o * t.n;
        if (nearest) {
            ix[0] = mode == InterpolateMode::nearest ? nearest_index(o, in, out)
                                                     : nearest_exact_index(o, in, out);
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

}  // namespace burn::interp
