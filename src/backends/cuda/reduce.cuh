#pragma once
// Pieces shared by the reductions (reduce.cu) and softmax (softmax.cu): the [outer, n, inner] view of
// a reduction along one dim, a warp shuffle of any 4-byte-multiple value, and a group tree reduction.
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

struct Geometry {
    int64_t outer = 1, n = 1, inner = 1;
};
inline Geometry geometry(const Dims& shape, int dim) {
    Geometry g;
    for (int i = 0; i < dim; ++i) g.outer *= shape[i];
    g.n = shape[dim];
    for (int i = dim + 1; i < shape.rank(); ++i) g.inner *= shape[i];
    return g;
}

template <class T>
__device__ __forceinline__ T shfl_down(T v, int delta) {
    static_assert(sizeof(T) % 4 == 0, "shuffle needs 4-byte words");
    constexpr int W = sizeof(T) / 4;
    union U {
        T t;
        int w[W];
        __device__ U() {}
    } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < W; ++k) out.w[k] = __shfl_down_sync(0xffffffffu, in.w[k], delta);
    return out.t;
}

/// A butterfly step: every lane gets the value of lane ^ mask (all lanes end with the full reduction).
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
    static_assert(sizeof(T) % 4 == 0, "shuffle needs 4-byte words");
    constexpr int W = sizeof(T) / 4;
    union U {
        T t;
        int w[W];
        __device__ U() {}
    } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < W; ++k) out.w[k] = __shfl_xor_sync(0xffffffffu, in.w[k], mask);
    return out.t;
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
