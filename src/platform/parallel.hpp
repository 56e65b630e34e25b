#pragma once
// The one parallel-for of the library. Threads live only here (and in platform/), so a build without
// threads (wasm without pthreads, bare metal) runs the same code serially.
#include <cstdint>
#include <functional>

namespace burn::platform {

int hardware_threads();
/// Threads used by parallel_for (including the caller). 0 restores the default (all hardware threads).
void set_threads(int n);
int threads();

/// Calls fn(begin, end) on disjoint chunks covering [0, n), in parallel when n >= 2 * grain.
/// Nested calls from inside a chunk run serially.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace burn::platform
