#pragma once
// Pieces shared by the reductions (reduce.cu) and softmax (softmax.cu): the [outer, n, inner] view of
// a reduction along one dim, a warp shuffle of any 4-byte-multiple value, and a group tree reduction.
#include "backends/common/reduce_geometry.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

using reduction::geometry;
using reduction::Geometry;

/// Shuffles a value of any 4-byte multiple across the warp, a word at a time: shfl(word) -> word.
template <class T, class Shfl>
__device__ __forceinline__ T shuffle_words(T v, Shfl shfl) {
    static_assert(sizeof(T) % 4 == 0, "shuffle needs 4-byte words");
    constexpr int W = sizeof(T) / 4;
    union U {
        T t;
        int w[W];
        __device__ U() {}
    } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < W; ++k) out.w[k] = shfl(in.w[k]);
    return out.t;
}

template <class T>
__device__ __forceinline__ T shfl_down(T v, int delta) {
    return shuffle_words(v, [delta](int w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}

/// A butterfly step: every lane gets the value of lane ^ mask (all lanes end with the full reduction).
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
    return shuffle_words(v, [mask](int w) { return __shfl_xor_sync(0xffffffffu, w, mask); });
}

/// Reduces v over a group of TPR threads (32: a warp; 256: the block); the result is valid in the
/// group's thread 0.
template <int TPR, class Red>
__device__ typename Red::Acc group_reduce(const Red& red, typename Red::Acc v) {
    using Acc = typename Red::Acc;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v = red.combine(v, shfl_down(v, d));
    if constexpr (TPR > 32) {
        __shared__ alignas(16) unsigned char raw[32 * sizeof(Acc)];
        Acc* smem = reinterpret_cast<Acc*>(raw);
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        __syncthreads();  // smem reuse across rows
        if (lane == 0) smem[warp] = v;
        __syncthreads();
        if (warp == 0) {
            v = lane < TPR / 32 ? smem[lane] : red.init();
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) v = red.combine(v, shfl_down(v, d));
        }
    }
    return v;
}

}  // namespace burn::cuda
