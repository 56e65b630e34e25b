#pragma once
// The CUDA backend's host-side interface (no CUDA headers): device discovery, the backend of a
// device, and the caching allocator's statistics. Built only with BURN_HAVE_CUDA.
#include <cstddef>
#include <cstdint>
#include <string>

#include "burn/backend/backend.hpp"

namespace burn::cuda {

/// Number of usable CUDA devices (0 without a GPU or driver; never throws).
int device_count();
/// Why there is no device ("" when there is one): the CUDA runtime's error, for skip messages.
std::string unavailable_reason();
/// The backend of CUDA device `index` (checked by Device::cuda).
Backend& backend(int index);

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

/// Ops without a CUDA kernel: when enabled (BURN_CUDA_HOST_FALLBACK=1 or this call), they run on the
/// CPU backend through host copies; otherwise supports() is false and the frontend names the op.
void set_host_fallback(bool on);
bool host_fallback();
/// Matmul in TF32 on the tensor cores (f32 inputs; about 10 bits of mantissa). Off by default;
/// BURN_CUDA_TF32=1 turns it on at start.
void set_allow_tf32(bool on);
bool allow_tf32();

}  // namespace burn::cuda
