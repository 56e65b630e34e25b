#pragma once
// Memory facts: what this process uses and may use. 0 means unknown (no OS to ask, as in a build with
// BURN_FILESYSTEM=OFF).
#include <cstddef>
#include <cstdint>

namespace burn::platform {

/// Resident set size of this process in bytes (0 when unknown).
uint64_t resident_memory_bytes();
/// Physical memory of the machine in bytes (0 when unknown).
uint64_t total_memory_bytes();
/// The memory this process may use at most, in bytes: the physical memory, lowered to the cgroup
/// limit (cgroup v2 memory.max, v1 memory.limit_in_bytes) where one is set (0 when unknown).
uint64_t memory_limit_bytes();

/// `bytes` (> 0) aligned to `alignment` (a power of two, at least sizeof(void*)), or null when
/// memory is out; release with aligned_free. C11 aligned_alloc where the C library has it, newlib's
/// memalign on bare metal (newlib-nano's aligned_alloc needs a posix_memalign it does not provide).
void* aligned_alloc(std::size_t alignment, std::size_t bytes);
void aligned_free(void* p);

}  // namespace burn::platform
