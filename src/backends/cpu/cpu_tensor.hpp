#pragma once
// The CPU backend's tensor: the strided layer's tensor (backends/common/strided_tensor.hpp) over a
// 64-byte aligned host block. View ops make new CpuTensors over the same storage.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "backends/common/strided_tensor.hpp"
#include "burn/backend/backend.hpp"

namespace burn::cpu {

/// A 64-byte aligned block from the caching allocator, or (borrowed) memory the caller owns, such as
/// weights in flash (ops::from_external): never freed here and never written (is_unique_dense is false
/// for it, so no op reuses it in place).
struct Storage {
    explicit Storage(std::size_t bytes);
    struct Borrow {};
    Storage(const void* external, std::size_t n, Borrow)
        : data(static_cast<uint8_t*>(const_cast<void*>(external))), bytes(n), borrowed(true) {}
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    uint8_t* data = nullptr;
    std::size_t bytes = 0;
    bool borrowed = false;
};

struct CpuTensor final : strided::Tensor<Storage> {
    using strided::Tensor<Storage>::Tensor;
};

/// A new contiguous tensor (uninitialised contents). Throws burn::Error, before allocating, when the
/// tensor needs more memory than the machine (or the process's cgroup) has.
std::shared_ptr<CpuTensor> alloc(const Dims& shape, DType dtype, const Device& device);
/// The op being executed on this thread (for error messages; "cpu" outside execute).
const char* current_op();
const CpuTensor& as_cpu(const TensorRef& t);

/// Bytes held by the allocator's cache and in live tensors (for tests and diagnostics).
struct AllocatorStats {
    std::size_t live_bytes = 0;
    std::size_t cached_bytes = 0;
};
AllocatorStats allocator_stats();
/// Returns cached blocks to the system.
void empty_cache();
/// Whether freed large blocks are cached (on unless BURN_CPU_CACHE=0); turning it off empties the cache.
bool cache_enabled();
void set_cache_enabled(bool on);

}  // namespace burn::cpu
