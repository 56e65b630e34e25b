#pragma once
// Device-side helpers shared by the .cu files: launch geometry, strided iteration over up to N
// operands of one shape (dims coalesced on the host), dtype dispatch for the instantiated families.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

constexpr int kThreads = 256;

/// Blocks for a grid-stride loop over n items (enough to fill the chip several times over).
inline unsigned blocks_for(int64_t n, int per_thread = 1) {
    int64_t b = (n / per_thread + kThreads - 1) / kThreads;
    if (b < 1) b = 1;
    if (b > 132 * 32) b = 132 * 32;
    return static_cast<unsigned>(b);
}

#define BURN_GRID_STRIDE(i, n)                                                             \
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)

/// Division by a fixed divisor d >= 1 of numerators below 2^31 as a multiply-high and a shift (the
/// round-up method of Granlund and Montgomery): 64-bit division is a long software sequence on the GPU
/// and dominated the strided (broadcast, transposed) elementwise kernels.
struct FastDiv {
    uint32_t mul = 1, shift = 0;
    void init(uint32_t d) {
        if (d == 0) return;  // an empty dim: never divided by (no elements)
        shift = 0;
        while (shift < 32 && (uint64_t(1) << shift) < d) ++shift;
        mul = static_cast<uint32_t>(((uint64_t(1) << 32) * ((uint64_t(1) << shift) - d)) / d + 1);
    }
    __device__ __forceinline__ uint32_t div(uint32_t n) const { return (__umulhi(n, mul) + n) >> shift; }
};

/// Element offsets of N operands over one iteration shape, coalesced (rank <= kMaxRank).
template <int N>
struct Iter {
    int rank = 1;
    bool narrow = false;  // every index and every operand offset is below 2^31: 32-bit FastDiv path
    int64_t size[kMaxRank];
    FastDiv fdiv[kMaxRank];
    int64_t stride[N][kMaxRank];
    int64_t base[N];
    __device__ __forceinline__ void offsets(int64_t i, int64_t* off) const {
#pragma unroll
        for (int k = 0; k < N; ++k) off[k] = base[k];
        if (narrow) {  // 32-bit index arithmetic (64-bit multiplies are several instructions each)
            uint32_t u = static_cast<uint32_t>(i);
            int32_t o[N] = {};
            for (int d = rank - 1; d > 0; --d) {
                const uint32_t q = fdiv[d].div(u);
                const int32_t r = static_cast<int32_t>(u - q * static_cast<uint32_t>(size[d]));
                u = q;
#pragma unroll
                for (int k = 0; k < N; ++k) o[k] += r * static_cast<int32_t>(stride[k][d]);
            }
#pragma unroll
            for (int k = 0; k < N; ++k)
                off[k] += o[k] + static_cast<int32_t>(u) * static_cast<int32_t>(stride[k][0]);
            return;
        }
        for (int d = rank - 1; d >= 0; --d) {
            const int64_t s = size[d];
            const int64_t q = i / s;
            const int64_t r = i - q * s;
            i = q;
#pragma unroll
            for (int k = 0; k < N; ++k) off[k] += r * stride[k][d];
        }
    }
};

/// Builds an Iter over `shape` for operands with the given strides and offsets (elements).
template <int N>
Iter<N> make_iter(const Dims& shape, const Dims* const* strides, const int64_t* base) {
    Iter<N> it{};
    int r = 0;
    for (int d = 0; d < shape.rank(); ++d) {
        if (shape[d] == 1) continue;
        if (r > 0) {
            bool merge = true;
            for (int k = 0; k < N; ++k)
                if (it.stride[k][r - 1] != (*strides[k])[d] * shape[d]) merge = false;
            if (merge) {
                it.size[r - 1] *= shape[d];
                for (int k = 0; k < N; ++k) it.stride[k][r - 1] = (*strides[k])[d];
                continue;
            }
        }
        it.size[r] = shape[d];
        for (int k = 0; k < N; ++k) it.stride[k][r] = (*strides[k])[d];
        ++r;
    }
    if (r == 0) {
        it.size[0] = 1;
        for (int k = 0; k < N; ++k) it.stride[k][0] = 0;
        r = 1;
    }
    it.rank = r;
    for (int k = 0; k < N; ++k) it.base[k] = base[k];
    it.narrow = shape.numel() < (int64_t(1) << 31);
    for (int k = 0; k < N && it.narrow; ++k) {  // the farthest offset of every operand fits 31 bits
        int64_t reach = 0;
        for (int d = 0; d < r; ++d)
            reach += (it.size[d] - 1) * (it.stride[k][d] < 0 ? -it.stride[k][d] : it.stride[k][d]);
        it.narrow = reach < (int64_t(1) << 31);
    }
    if (it.narrow)
        for (int d = 0; d < r; ++d) it.fdiv[d].init(static_cast<uint32_t>(it.size[d]));
    return it;
}

/// 16-bit floats are stored as CUDA's __half / __nv_bfloat16 and computed in float.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T>
using dc_t = std::conditional_t<is_half_v<T>, float, T>;

[[noreturn]] inline void no_kernel_for(DType d) {
    BURN_THROW_KIND(dtype, "[", ctx().op, "] the cuda backend has no kernel for dtype ", d);
}

/// Calls f(T{}) with the unsigned integer type of d's element size (copies and gathers move bits).
template <class F>
void dispatch_bits(DType d, F&& f) {
    switch (size_of(d)) {
        case 1:
            f(uint8_t{});
            return;
        case 2:
            f(uint16_t{});
            return;
        case 4:
            f(uint32_t{});
            return;
        case 8:
            f(uint64_t{});
            return;
        default:
            BURN_THROW("[", ctx().op, "] unsupported element size");
    }
}

/// Calls f(T{}) when d is a float dtype (16-bit ones as __half / __nv_bfloat16); says whether it did.
template <class F>
bool dispatch_float_if(DType d, F&& f) {
    switch (d) {
        case DType::f32:
            f(float{});
            return true;
        case DType::f64:
            f(double{});
            return true;
        case DType::f16:
            f(__half{});
            return true;
        case DType::bf16:
            f(__nv_bfloat16{});
            return true;
        default:
            return false;
    }
}

/// Calls f(T{}) when d is an integer dtype (bool is not one); says whether it did.
template <class F>
bool dispatch_int_if(DType d, F&& f) {
    switch (d) {
        case DType::i64:
            f(int64_t{});
            return true;
        case DType::i32:
            f(int32_t{});
            return true;
        case DType::i16:
            f(int16_t{});
            return true;
        case DType::i8:
            f(int8_t{});
            return true;
        case DType::u8:
            f(uint8_t{});
            return true;
        default:
            return false;
    }
}

/// Calls f(T{}) for the storage types the CUDA kernels are built for.
template <class F>
void dispatch_all(DType d, F&& f) {
    if (dispatch_float_if(d, f) || dispatch_int_if(d, f)) return;
    if (d != DType::boolean) no_kernel_for(d);
    f(bool{});
}
template <class F>
void dispatch_numeric(DType d, F&& f) {
    switch (d) {
        case DType::f32:
            f(float{});
            return;
        case DType::f64:
            f(double{});
            return;
        case DType::i64:
            f(int64_t{});
            return;
        case DType::i32:
            f(int32_t{});
            return;
        default:
            break;
    }
    BURN_THROW_KIND(dtype, "[", ctx().op, "] the cuda backend has no kernel for dtype ", d);
}
template <class F>
void dispatch_float(DType d, F&& f) {
    switch (d) {
        case DType::f32:
            f(float{});
            return;
        case DType::f64:
            f(double{});
            return;
        default:
            break;
    }
    BURN_THROW_KIND(dtype, "[", ctx().op, "] the cuda backend has no kernel for dtype ", d);
}

/// The elementwise families: every float (16-bit too) and every integer width.
template <class F>
void dispatch_float_ew(DType d, F&& f) {
    if (!dispatch_float_if(d, f)) no_kernel_for(d);
}
template <class F>
void dispatch_numeric_ew(DType d, F&& f) {
    if (!dispatch_int_if(d, f)) dispatch_float_ew(d, f);
}

template <class T>
__device__ __forceinline__ bool dev_isnan(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return v != v;
    else
        return false;
}

}  // namespace burn::cuda
