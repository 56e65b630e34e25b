#pragma once
// Internals shared by the CUDA backend's files: the tensor (device storage viewed through strides,
// like the CPU's), the per-device context (stream, cuBLAS handle), the kernel table and error checks.
#include <cuda_runtime.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>

#include "backends/common/strided_ops.hpp"
#include "backends/cuda/cuda.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/core/error.hpp"

typedef struct cublasContext* cublasHandle_t;

namespace burn::cuda {

/// A block of device memory from the caching allocator; returns to the cache when destroyed.
struct Storage {
    Storage(int device, std::size_t bytes, const char* op);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    void* data = nullptr;
    std::size_t bytes = 0;  // requested
    std::size_t block = 0;  // the block's size in the allocator
    int device = 0;
};

struct CudaTensor final : strided::Tensor<Storage> {
    using strided::Tensor<Storage>::Tensor;
};

const CudaTensor& as_cuda(const TensorRef& t);

/// The device an op runs on, set by CudaBackend::execute for the duration of the call.
class ErrorSlots;
struct Context {
    int device = 0;
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    const char* op = "cuda";       // for error messages
    ErrorSlots* errors = nullptr;  // the device's kernel error slots (error_slots.hpp)
};
Context& ctx();

/// Runs f with device `index`'s context current (its stream, its handles; ctx().op = op), as the
/// backend's own calls run: for work that starts outside an op (the lazy decorator's fused passes).
void in_context(int index, const char* op, const std::function<void()>& f);

/// A new contiguous tensor on the current device (uninitialised contents).
std::shared_ptr<CudaTensor> alloc(const Dims& shape, DType dtype);
/// Whether kernels keep their inputs' layouts where they can (on by default; BURN_CUDA_KEEP_LAYOUT=0
/// turns it off, for comparisons): the cast of a dense view keeps its strides, and attention reads the
/// heads of a projection in place and writes its outputs in their layout. Off, both make contiguous
/// copies, as before.
bool keep_layout();
/// A new tensor on the current device laid out with `strides`, which must be dense (a permutation of a
/// contiguous layout: Tensor::is_dense); uninitialised contents.
std::shared_ptr<CudaTensor> alloc_strided(const Dims& shape, DType dtype, const Dims& strides);
/// Device scratch memory for the current op (returned to the cache when dropped).
std::shared_ptr<Storage> scratch(std::size_t bytes);
/// dst's region (src's shape, dst_strides from dst_offset) = src; same dtype (layout.cu).
void copy_region(const CudaTensor& src, const CudaTensor& dst, const Dims& dst_strides, int64_t dst_offset);

/// The CUDA backend's hooks of the strided layer (backends/common/strided_ops.hpp).
struct CudaTraits {
    using Tensor = CudaTensor;
    static std::shared_ptr<CudaTensor> alloc(const Dims& shape, DType dtype, const Device&) {
        return cuda::alloc(shape, dtype);  // on the device of the op being run
    }
    static void copy_region(const CudaTensor& src, const CudaTensor& dst, const Dims& dst_strides,
                            int64_t dst_offset) {
        cuda::copy_region(src, dst, dst_strides, dst_offset);
    }
};
using Strided = strided::Ops<CudaTraits>;

/// A contiguous copy (same dtype), or t itself when already contiguous.
inline TensorRef contiguous(const TensorRef& t) {
    return Strided::contiguous(t);
}
inline TensorRef contiguous_copy(const TensorRef& t) {
    return Strided::contiguous_copy(t);
}
/// The output for an elementwise op: input i itself when it is a unique dense buffer (in place).
inline std::shared_ptr<CudaTensor> reuse_or_alloc(TensorRefs& inputs, std::initializer_list<int> candidates,
                                                  const Dims& shape, DType dtype) {
    return Strided::reuse_or_alloc(inputs, candidates, shape, dtype, Device::cuda(ctx().device));
}

[[noreturn]] void throw_cuda(cudaError_t err, const char* what, const char* file, int line);
#define BURN_CUDA_CHECK(expr)                                                                         \
    do {                                                                                              \
        cudaError_t burn_err_ = (expr);                                                               \
        if (burn_err_ != cudaSuccess) ::burn::cuda::throw_cuda(burn_err_, #expr, __FILE__, __LINE__); \
    } while (0)
/// After a kernel launch.
#define BURN_CUDA_LAUNCHED() BURN_CUDA_CHECK(cudaGetLastError())

using Kernel = TensorRefs (*)(const OpCall& call, TensorRefs& inputs);
using Supports = bool (*)(const OpCall& call, const TensorRefs& inputs);
struct KernelEntry {
    Kernel run = nullptr;
    Supports ok = nullptr;  // nullptr: every call
};
using KernelTable = std::array<KernelEntry, kNumOps>;
inline std::size_t idx(OpId id) {
    return static_cast<std::size_t>(id);
}

void register_views(KernelTable& t);        // cuda_backend.cpp
void register_elementwise(KernelTable& t);  // elementwise*.cu
void register_layout(KernelTable& t);       // layout.cu: fill, arange, random, cast, copy, cat, slice_assign
void register_index(KernelTable& t);        // index.cu
void register_reduce(KernelTable& t);       // reduce.cu
void register_softmax(KernelTable& t);      // softmax.cu: softmax, log_softmax, softmax_backward
void register_matmul(KernelTable& t);       // matmul.cpp
void register_linear(KernelTable& t);       // linear.cpp: cuBLASLt with the bias in the epilogue
void register_nn(KernelTable& t);           // nn.cu: conv, adam
void register_pool(KernelTable& t);         // pool.cu: max, avg and adaptive pooling
void register_interpolate(KernelTable& t);  // interpolate.cu
void register_sort(KernelTable& t);         // sort.cu: sort, topk
void register_norm(KernelTable& t);         // norm.cu: layer_norm, cross_entropy
void register_attention(KernelTable& t);    // attention.cu, attention_backward.cu
void register_optim_multi(KernelTable& t);  // optim_multi.cu: adam_step_multi
void register_fft(KernelTable& t);          // fft_cufft.cpp: the dft row through cuFFT

/// A copy of t converted to dtype d (contiguous).
TensorRef cast_to(const TensorRef& t, DType d);
/// The dtype a kernel built for f32/f64/i32/i64 computes a narrow dtype in: f16/bf16 in f32 (like the
/// CPU backend), i16/i8/u8 in i64 (sums and products wrap to the narrow type the same way).
inline DType widened(DType d) {
    if (d == DType::f16 || d == DType::bf16) return DType::f32;
    if (d == DType::i16 || d == DType::i8 || d == DType::u8) return DType::i64;
    return d;
}
/// Runs k with the inputs of the narrow dtype widened and its outputs of the wide dtype narrowed back.
TensorRefs run_widened(Kernel k, const OpCall& call, TensorRefs& in);
template <Kernel K>
TensorRefs widening(const OpCall& call, TensorRefs& in) {
    const DType d = in.empty() ? call.dtype : in[0]->dtype;
    if (widened(d) == d) return K(call, in);
    return run_widened(K, call, in);
}

/// Dtype families the kernels are instantiated for.
inline bool is_any_k(DType) {
    return true;
}  // cast, fill, copies and gathers move any dtype
/// Elementwise kernels: every float width and every integer width.
inline bool is_float_ew(DType d) {
    return is_float(d);
}
inline bool is_numeric_ew(DType d) {
    return d != DType::boolean;
}

}  // namespace burn::cuda

namespace burn::cuda {

/// A row-major matrix operand: element strides of rows and columns, and between batch entries.
struct MatRef {
    const void* data;
    int64_t rs, cs, batch_stride;
};
/// C[b] = alpha * A[b] (m x k) * B[b] (k x n) + beta * C[b], C row-major with leading dim ldc, for
/// f32 (TF32 when allowed) or f64, through cuBLAS. Each operand must be row- or column-major.
/// c_dtype: C's dtype when wider than the operands' (f16/bf16 operands, f32 C: the accumulator written as
/// is); default the operands' own.
void gemm(DType dtype, int64_t m, int64_t n, int64_t k, const MatRef& a, const MatRef& b, void* c,
          int64_t ldc, int64_t c_batch_stride, int64_t batches, double alpha, double beta,
          std::optional<DType> c_dtype = std::nullopt);

}  // namespace burn::cuda
