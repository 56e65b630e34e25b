#pragma once
// Shared by the CUDA attention kernels (attention.cu, attention_backward.cu): the launch parameters,
// the bool mask of the row (broadcast dims read with stride 0), the causal bound, and the bf16/f16
// tensor-core step (mma.sync m16n8k16, f32 accumulators) with its fragment layout:
//   A (16x16, row-major) regs a0..a3: (g, 2t), (g+8, 2t), (g, 2t+8), (g+8, 2t+8), each two elements
//   along k; B (16x8, k-major) regs b0, b1: (k = 2t, n = g), (k = 2t+8, n = g); C (16x8) c0..c3:
//   (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1); g = lane / 4, t = lane % 4.
// A C tile pair (two n8 tiles) re-read as an A fragment is how P and dS stay in registers. Fragments
// come from shared memory through ldmatrix (.trans for operands stored k-major), rows padded by 16
// bytes so that the 8 rows of a matrix fall in distinct banks.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "backends/cuda/kernels.cuh"

namespace burn::cuda::attn {

constexpr float kLog2e = 1.4426950408889634f;

/// The row's mask [..., Lq, Lk] (each dim 1 or full): hidden(b, i, j) = row(b)[i * si + j * sj].
struct MaskP {
    const bool* p = nullptr;
    int64_t si = 0, sj = 0;
    int nlead = 0;
    int64_t size[kMaxRank] = {}, stride[kMaxRank] = {};
    __device__ __forceinline__ const bool* batch(int64_t b) const {
        if (!p) return nullptr;
        int64_t off = 0;
        for (int d = nlead - 1; d >= 0; --d) {
            off += (b % size[d]) * stride[d];
            b /= size[d];
        }
        return p + off;
    }
};

/// Where an operand's rows lie: [batch, L, dim] with dim contiguous, batch index b = b0 * n1 + b1 (the
/// two leading dims of a rank-4 tensor, e.g. [B, H, L, D] views of [B, L, H, D] projections, so that the
/// heads of a linear layer's output are read in place), element (b, i, c) at b0 s0 + b1 s1 + i sr + c.
struct Layout {
    int64_t s0 = 0, s1 = 0, sr = 0;
    int64_t n1 = 1;
    __device__ __forceinline__ int64_t off(int64_t b) const { return (b / n1) * s0 + (b % n1) * s1; }
};

/// The operands and outputs, each with its Layout (lse and delta dense [batch, lq]).
struct Params {
    const void *q, *k, *v, *o, *g;  // o, g: the backward's out and output gradient
    void *out, *dq, *dk, *dv;
    float* lse;          // [batch, lq], natural log
    const float* delta;  // [batch, lq]: rowsum(g * out) (backward)
    int lq, lk, d, dv_dim;
    int64_t batch;
    float scale;
    bool causal;
    MaskP mask;
    Layout lq_, lk_, lv_, lo_, lg_;  // q, k, v, the forward's out / the backward's o, g
    Layout lout, ldq, ldk, ldv;      // written: out, dq, dk, dv
};

/// Whether key j is hidden from query i (causal rule, the mask, past the ends); mrow = mask.batch(b).
__device__ __forceinline__ bool hidden(const Params& p, const bool* mrow, int i, int j) {
    if (j >= p.lk || i >= p.lq) return true;
    if (p.causal && j > i + p.lk - p.lq) return true;
    return mrow && mrow[i * p.mask.si + j * p.mask.sj];
}

__device__ __forceinline__ float to_f(float x) {
    return x;
}
__device__ __forceinline__ float to_f(__half x) {
    return __half2float(x);
}
__device__ __forceinline__ float to_f(__nv_bfloat16 x) {
    return __bfloat162float(x);
}
template <class T>
__device__ __forceinline__ T from_f(float x);
template <>
__device__ __forceinline__ float from_f<float>(float x) {
    return x;
}
template <>
__device__ __forceinline__ __half from_f<__half>(float x) {
    return __float2half_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float x) {
    return __float2bfloat16_rn(x);
}

/// Two floats as one 32-bit register of two 16-bit elements (lo first).
template <class T>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
    if constexpr (std::is_same_v<T, __half>) {
        __half2 h = __floats2half2_rn(lo, hi);
        return *reinterpret_cast<uint32_t*>(&h);
    } else {
        __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
        return *reinterpret_cast<uint32_t*>(&h);
    }
}

/// c += a b on the tensor cores (m16n8k16, f32 accumulators).
template <class T>
__device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    if constexpr (std::is_same_v<T, __half>) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
}

/// ldmatrix .x4: four 8x8 matrices of 16-bit elements; lane l gives the address of row l % 8 of matrix
/// l / 8 and receives (row g, columns 2t, 2t+1) of each (.trans: (rows 2t, 2t+1, column g)).
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], const void* p) {
    const auto a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}
__device__ __forceinline__ void ldsm_x4_t(uint32_t (&r)[4], const void* p) {
    const auto a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

/// The A fragment of rows r0..r0+16, columns c0..c0+16 of a row-major shared tile (row stride ld).
template <class T>
__device__ __forceinline__ void load_a(uint32_t (&a)[4], const T* s, int ld, int r0, int c0, int lane) {
    const int m = lane / 8, r = lane % 8;
    ldsm_x4(a, s + (r0 + r + (m & 1) * 8) * ld + c0 + (m >> 1) * 8);
}

/// B fragments of n-tile n0..n0+8 from a tile stored [n][k] (k contiguous: k q^T, v g^T): {r0, r1} for
/// k0..k0+16, {r2, r3} for k0+16..k0+32.
template <class T>
__device__ __forceinline__ void load_b(uint32_t (&b)[4], const T* s, int ld, int n0, int k0, int lane) {
    ldsm_x4(b, s + (n0 + lane % 8) * ld + k0 + (lane / 8) * 8);
}

/// B fragments of k0..k0+16 from a tile stored [k][n] (n contiguous: p v, ds k): {r0, r1} for n-tile
/// n0..n0+8, {r2, r3} for n0+8..n0+16.
template <class T>
__device__ __forceinline__ void load_bt(uint32_t (&b)[4], const T* s, int ld, int k0, int n0, int lane) {
    const int m = lane / 8, r = lane % 8;
    ldsm_x4_t(b, s + (k0 + (m & 1) * 8 + r) * ld + n0 + (m >> 1) * 8);
}

/// C tiles n and n+1 (16x8 each, f32) as the A fragment of a 16x16 block (k along their columns).
template <class T>
__device__ __forceinline__ void c_to_a(uint32_t (&a)[4], const float (&c0)[4], const float (&c1)[4]) {
    a[0] = pack2<T>(c0[0], c0[1]);
    a[1] = pack2<T>(c0[2], c0[3]);
    a[2] = pack2<T>(c1[0], c1[1]);
    a[3] = pack2<T>(c1[2], c1[3]);
}

/// A 16-byte global -> shared copy that bypasses the registers (cp.async), zero-filled when !valid.
__device__ __forceinline__ void cp_async16(void* dst, const void* src, bool valid) {
    const auto a = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(a), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
/// Waits until at most n groups of this thread's copies are in flight.
template <int n>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(n));
}

/// Starts copying rows [r0, r0 + R) of an [L, dim] operand (rows rs elements apart) into shared s (row
/// stride ld, DP columns), zero past L and dim: cp.async 16-byte pieces when vec (dim and rs multiples of
/// 16 / sizeof(T), 16-byte aligned rows; complete after cp_async_wait), plain stores otherwise
/// (complete at once).
template <class T, int R, int DP>
__device__ __forceinline__ void load_tile(T* s, int ld, const T* src, int64_t rs, int r0, int L, int dim,
                                          bool vec) {
    constexpr int kV = 16 / sizeof(T);
    if (vec) {
        for (int idx = threadIdx.x; idx < R * DP / kV; idx += blockDim.x) {
            const int r = idx / (DP / kV), c = (idx % (DP / kV)) * kV;
            const bool ok = r0 + r < L && c < dim;
            cp_async16(s + r * ld + c, ok ? src + (r0 + r) * rs + c : src, ok);
        }
    } else {
        const T zero = from_f<T>(0.f);
        for (int idx = threadIdx.x; idx < R * DP; idx += blockDim.x) {
            const int r = idx / DP, c = idx % DP;
            s[r * ld + c] = r0 + r < L && c < dim ? src[(r0 + r) * rs + c] : zero;
        }
    }
}

/// The dot product of two shared rows of n floats (n % 4 == 0, 16-byte aligned).
template <int n>
__device__ __forceinline__ float dot4(const float* a, const float* b) {
    float acc = 0.f;
#pragma unroll
    for (int c = 0; c < n; c += 4) {
        const float4 x = *reinterpret_cast<const float4*>(a + c), y = *reinterpret_cast<const float4*>(b + c);
        acc = fmaf(x.x, y.x, fmaf(x.y, y.y, fmaf(x.z, y.z, fmaf(x.w, y.w, acc))));
    }
    return acc;
}

/// acc[4 w + e] += x * row[part * 4 + 32 w + e]: the f32 kernels' columns of one thread (8 threads per
/// row, 4 contiguous columns each per 32).
template <int DP>
__device__ __forceinline__ void axpy4(float (&acc)[DP / 8], float x, const float* row, int part) {
#pragma unroll
    for (int w = 0; w < DP / 32; ++w) {
        const float4 v = *reinterpret_cast<const float4*>(row + part * 4 + 32 * w);
        acc[4 * w] = fmaf(x, v.x, acc[4 * w]);
        acc[4 * w + 1] = fmaf(x, v.y, acc[4 * w + 1]);
        acc[4 * w + 2] = fmaf(x, v.z, acc[4 * w + 2]);
        acc[4 * w + 3] = fmaf(x, v.w, acc[4 * w + 3]);
    }
}

/// The column of acc[u] in axpy4's layout.
__device__ __forceinline__ int col4(int part, int u) {
    return part * 4 + 32 * (u / 4) + u % 4;
}

/// The mask parameters of the row's mask tensor (null: none) for q's shape.
MaskP mask_params(const CudaTensor* mask, const Dims& q_shape);

/// The Layout of x, whose last dim is contiguous and which has at most two leading dims.
Layout layout_of(const CudaTensor& x);

/// t's Layout, replacing t by a contiguous copy first when its rows are not in one (its last dim's
/// stride is not 1, or it has more than two leading dims that do not flatten).
Layout operand_layout(TensorRef& t);

/// A new tensor of `shape` for an output computed from `like` (same rank): when like is a dense
/// [B, H, L, D] view of a [B, L, H, D] buffer (the heads of a projection), the output is laid out the
/// same way ([B, L, H, shape[3]] in memory), so that the caller's transpose back is a view; else
/// contiguous.
std::shared_ptr<CudaTensor> alloc_like(const Dims& shape, DType dtype, const CudaTensor& like);

/// Whether every row start of the operand is 16-byte aligned for T-sized elements (cp.async).
bool rows_aligned(const void* base, const Layout& l, int elem_bytes);

}  // namespace burn::cuda::attn
