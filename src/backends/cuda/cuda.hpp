#pragma once
// The CUDA backend's host-side interface (no CUDA headers): device discovery, the backend of a
// device, and the caching allocator's statistics. Built only with BURN_HAVE_CUDA.
#include <cstddef>
#include <cstdint>
#include <string>

#include "burn/backend/backend.hpp"

namespace burn::lazy {
class FusionTarget;
}

namespace burn::cuda {

/// Number of usable CUDA devices (0 without a GPU or driver; never throws).
int device_count();
/// Why there is no device ("" when there is one): the CUDA runtime's error, for skip messages.
std::string unavailable_reason();
/// The backend of CUDA device `index` (checked by Device::cuda).
Backend& backend(int index);

/// The lazy decorator's fusion target over CUDA device `device` (fused_target.cpp): each fused pass
/// becomes one kernel, generated and compiled with NVRTC (docs/fusion.md).
lazy::FusionTarget* fusion_target(const Device& device);

/// The caching allocator of one device. allocated: bytes in blocks held by tensors; reserved:
/// allocated plus cached free blocks; peak: the largest allocated since the last reset.
struct MemoryStats {
    std::size_t allocated = 0;
    std::size_t reserved = 0;
    std::size_t peak = 0;
    int64_t device_mallocs = 0;  // cudaMalloc calls
    int64_t cache_hits = 0;      // allocations served from the cache
    int64_t oom_retries = 0;     // cudaMalloc failures that freed the cache and retried
};
MemoryStats memory_stats(int device);
void reset_peak(int device);
/// Returns the device's cached (free) blocks to the driver.
void empty_cache(int device);

/// The element strides of a tensor of a CUDA device: the layout a kernel wrote (tests, debugging).
Dims tensor_strides(const TensorRef& t);

/// Matmul in TF32 on the tensor cores (f32 inputs; about 10 bits of mantissa). Off by default;
/// BURN_CUDA_TF32=1 turns it on at start.
void set_allow_tf32(bool on);
bool allow_tf32();
/// Convolutions (cuDNN, f32) in TF32 on the tensor cores. On by default, like PyTorch's
/// torch.backends.cudnn.allow_tf32; BURN_CUDA_CONV_TF32=0 turns it off at start.
void set_allow_tf32_conv(bool on);
bool allow_tf32_conv();
/// Convolutions through cuDNN when libcudnn.so.9 loads (at the first convolution), else im2col +
/// cuBLAS (1-D and 2-D only). On by default; BURN_CUDA_CUDNN=0 turns it off at start.
void set_use_cudnn(bool on);
bool use_cudnn();
/// f32/f64 1-D and 2-D convolutions with fewer multiply-adds than this stay on im2col, where cuDNN's
/// per-call cost loses (default 2^23; BURN_CUDA_CUDNN_MIN_MACS at start; 0: every one on cuDNN).
void set_cudnn_min_macs(int64_t macs);
int64_t cudnn_min_macs();
/// f32/f64 pointwise convolutions (1x1 kernel, stride 1, no padding, groups 1) with at most this many
/// multiply-adds run as one batched GEMM on x itself (no im2col copy) instead of through cuDNN, whose
/// per-call host cost dominates at these sizes (default 2^28; BURN_CUDA_CONV1X1_GEMM_MAX_MACS at
/// start; 0: every one on cuDNN). They then follow the matmul's TF32 setting, not the convolutions'.
void set_pointwise_gemm_max_macs(int64_t macs);
int64_t pointwise_gemm_max_macs();
struct CudnnStatus {
    bool compiled = false;     // built with cudnn.h (BURN_CUDNN)
    bool enabled = false;      // use_cudnn()
    bool loaded = false;       // the library loaded (tried only when enabled)
    long version = 0;          // cudnnGetVersion(), e.g. 91900
    std::string detail;        // the version and path, or why cuDNN is not used
    int64_t convolutions = 0;  // convolutions run through cuDNN so far
    int64_t declined = 0;      // calls cuDNN had no algorithm for (they ran on im2col)
};
/// Loads cuDNN if enabled and not tried yet.
CudnnStatus cudnn_status();

}  // namespace burn::cuda
