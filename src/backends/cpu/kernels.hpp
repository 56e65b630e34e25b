#pragma once
// The CPU backend's kernel table and the helpers its kernel files share. Each family file
// (elementwise.cpp, views.cpp, reduce.cpp, ...) fills its rows in a register_* function.
#include <array>
#include <type_traits>

#include "backends/common/strided_ops.hpp"
#include "backends/cpu/cpu_tensor.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/core/error.hpp"
#include "ops/op_kinds.hpp"
#include "platform/parallel.hpp"

namespace burn::cpu {

using Kernel = TensorRefs (*)(const OpCall& call, TensorRefs& inputs);
using KernelTable = std::array<Kernel, kNumOps>;

void register_creation(KernelTable& t);
void register_elementwise(KernelTable& t);
void register_views(KernelTable& t);
void register_reduce(KernelTable& t);
void register_scan(KernelTable& t);
void register_sort(KernelTable& t);
void register_index(KernelTable& t);
void register_matmul(KernelTable& t);
void register_conv(KernelTable& t);        // conv.cpp
void register_conv_fused(KernelTable& t);  // conv_fused.cpp
/// The conv row's kernel (conv.cpp), for conv_fused's.
TensorRefs conv_row_kernel(const OpCall& call, TensorRefs& in);
void register_pool(KernelTable& t);                // pool.cpp
void register_interpolate(KernelTable& t);         // interpolate.cpp
void register_optim(KernelTable& t);               // optim.cpp: fused optimizer updates
void register_norm(KernelTable& t);                // norm.cpp: layer_norm, cross_entropy
void register_attention(KernelTable& t);           // attention.cpp: scaled dot-product attention
void register_attention_backward(KernelTable& t);  // attention_backward.cpp: its adjoint
void register_dft(KernelTable& t);                 // fft_kiss.cpp: dft through kissfft (when built with it)

/// Elements per parallel chunk for cheap elementwise work.
inline constexpr int64_t kGrain = 32768;

/// The arithmetic type of a storage type: float for f16/bf16, the type itself otherwise.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, f16> || std::is_same_v<T, bf16>, float, T>;

inline int64_t idx(OpId id) {
    return static_cast<int64_t>(id);
}

/// dst's region (src's shape, dst_strides, dst_offset, in elements) = src; same dtype (index.cpp).
void copy_region(const CpuTensor& src, const CpuTensor& dst, const Dims& dst_strides, int64_t dst_offset);

/// The CPU backend's hooks of the strided layer (backends/common/strided_ops.hpp).
struct CpuTraits {
    using Tensor = CpuTensor;
    static std::shared_ptr<CpuTensor> alloc(const Dims& shape, DType dtype, const Device& device) {
        return cpu::alloc(shape, dtype, device);
    }
    static void copy_region(const CpuTensor& src, const CpuTensor& dst, const Dims& dst_strides,
                            int64_t dst_offset) {
        cpu::copy_region(src, dst, dst_strides, dst_offset);
    }
};
using Strided = strided::Ops<CpuTraits>;

/// The output for an op producing shape/dtype: input i's tensor itself when the caller handed over
/// the only reference to a dense buffer of that shape and dtype (in-place), a new tensor otherwise.
inline std::shared_ptr<CpuTensor> reuse_or_alloc(TensorRefs& inputs, std::initializer_list<int> candidates,
                                                 const Dims& shape, DType dtype) {
    return Strided::reuse_or_alloc(inputs, candidates, shape, dtype,
                                   inputs.empty() ? Device::cpu() : inputs[0]->device);
}
/// A contiguous copy of t (same dtype); t itself when already contiguous.
inline TensorRef contiguous_copy(const TensorRef& t) {
    return Strided::contiguous_copy(t);
}
inline TensorRef contiguous(const TensorRef& t) {
    return Strided::contiguous(t);
}

/// Walks a (possibly strided) iteration space of shape with N operands, in parallel chunks, calling
/// f(flat_index, offsets, inner_strides, count) for runs of count elements along the last dim.
/// offsets[k] is operand k's element offset for the run's first element.
template <int N, class F>
void strided_apply(const Dims& shape, const std::array<Dims, N>& strides_in,
                   const std::array<int64_t, N>& base, int64_t grain, F&& f) {
    // Coalesce dims that are contiguous with their neighbour for every operand; drop size-1 dims.
    int64_t sh[kMaxRank];
    int64_t st[N][kMaxRank];
    int r = 0;
    for (int d = 0; d < shape.rank(); ++d) {
        if (shape[d] == 1) continue;
        if (r > 0) {
            bool merge = true;
            for (int k = 0; k < N; ++k)
                if (st[k][r - 1] != strides_in[k][d] * shape[d]) merge = false;
            if (merge) {
                sh[r - 1] *= shape[d];
                for (int k = 0; k < N; ++k) st[k][r - 1] = strides_in[k][d];
                continue;
            }
        }
        sh[r] = shape[d];
        for (int k = 0; k < N; ++k) st[k][r] = strides_in[k][d];
        ++r;
    }
    if (r == 0) {
        sh[0] = 1;
        for (int k = 0; k < N; ++k) st[k][0] = 0;
        r = 1;
    }
    int64_t numel = 1;
    for (int d = 0; d < r; ++d) numel *= sh[d];
    if (numel == 0) return;
    const int last = r - 1;
    int64_t inner_strides[N];
    for (int k = 0; k < N; ++k) inner_strides[k] = st[k][last];
    platform::parallel_for(numel, grain, [&](int64_t begin, int64_t end) {
        int64_t ix[kMaxRank];
        int64_t off[N];
        int64_t rem = begin;
        for (int d = last; d >= 0; --d) {
            ix[d] = rem % sh[d];
            rem /= sh[d];
        }
        for (int k = 0; k < N; ++k) {
            off[k] = base[k];
            for (int d = 0; d <= last; ++d) off[k] += ix[d] * st[k][d];
        }
        int64_t i = begin;
        while (i < end) {
            int64_t count = std::min(sh[last] - ix[last], end - i);
            f(i, off, inner_strides, count);
            i += count;
            ix[last] += count;
            for (int k = 0; k < N; ++k) off[k] += count * st[k][last];
            for (int d = last; d > 0 && ix[d] == sh[d]; --d) {
                for (int k = 0; k < N; ++k) off[k] += st[k][d - 1] - sh[d] * st[k][d];
                ix[d] = 0;
                ++ix[d - 1];
            }
        }
    });
}

// The dtypes this build compiled CPU kernels for: CMake's BURN_CPU_DTYPES sets the mask (bit i: the
// i-th dtype of BURN_DTYPES) and its list; every dtype by default.
#ifndef BURN_CPU_DTYPE_MASK
#define BURN_CPU_DTYPE_MASK 0xffffffffu
#define BURN_CPU_DTYPE_LIST "all"
#endif
/// Whether this build has CPU kernels for dtype d (BURN_CPU_DTYPES); the kernels of the others are
/// never instantiated.
constexpr bool kernel_dtype_built(DType d) {
    return ((static_cast<uint32_t>(BURN_CPU_DTYPE_MASK) >> static_cast<unsigned>(d)) & 1u) != 0;
}
/// Throws the error for a dtype this build left out (kernel_dtype_built false), naming the option.
[[noreturn]] void throw_dtype_not_built(DType d, const char* op);

/// Calls f(T{}) with the host type of d when this build has kernels for d; throws otherwise. The
/// CPU kernels' visit_dtype: only the built dtypes instantiate f.
template <class F>
decltype(auto) visit_kernel_dtype(DType d, const char* op, F&& f) {
    switch (d) {
#define BURN_X(e, T, n, is_f, is_s)                                \
    case DType::e:                                                 \
        if constexpr (kernel_dtype_built(DType::e)) return f(T{}); \
        break;
        BURN_DTYPES(BURN_X)
#undef BURN_X
    }
    throw_dtype_not_built(d, op);
}

/// Calls f(T{}) for the dtypes an elementwise op of kinds K accepts (kinds_accept); throws for the rest.
/// The switch is generated from the dtype list, BURN_DTYPES.
template <OpKinds K, class F>
decltype(auto) dispatch_kinds(DType d, const char* op, F&& f) {
    switch (d) {
#define BURN_X(e, T, n, is_f, is_s)                                                             \
    case DType::e:                                                                              \
        if constexpr (kinds_accept(K, DType::e) && kernel_dtype_built(DType::e)) return f(T{}); \
        if constexpr (kinds_accept(K, DType::e)) throw_dtype_not_built(d, op);                  \
        break;
        BURN_DTYPES(BURN_X)
#undef BURN_X
    }
    BURN_THROW_KIND(dtype, "[", op, "] the cpu backend has no kernel for dtype ", d);
}

}  // namespace burn::cpu
