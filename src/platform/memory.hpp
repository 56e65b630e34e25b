#pragma once
// Memory facts: what this process uses and may use. 0 means unknown (no OS to ask, as in a build with
// BURN_FILESYSTEM=OFF).
#include <cstdint>

namespace burn::platform {

/// Resident set size of this process in bytes (0 when unknown).
uint64_t resident_memory_bytes();
/// Physical memory of the machine in bytes (0 when unknown).
uint64_t total_memory_bytes();
/// The memory this process may use at most, in bytes: the physical memory, lowered to the cgroup
/// limit (cgroup v2 memory.max, v1 memory.limit_in_bytes) where one is set (0 when unknown).
uint64_t memory_limit_bytes();

}  // namespace burn::platform
