#pragma once
// The one parallel-for of the library. Threads live only here (and in platform/), so a build without
// threads (wasm without pthreads, bare metal) runs the same code serially.
#include <cstdint>
#include <string>

#include "platform/function_ref.hpp"

namespace burn::platform {

int hardware_threads();
/// Threads used by parallel_for (including the caller). 0 restores the default (all hardware threads).
void set_threads(int n);
int threads();

/// BURN_NUM_THREADS's value as a thread count: a positive decimal integer up to 65535 (spaces around it
/// allowed). Anything else ("abc", "-3", "0", "4x") throws burn::Error naming the variable, the value
/// and the fix: a mistyped value is an error, not a silent single thread.
int parse_num_threads(const std::string& text);

/// Calls fn(begin, end) on disjoint chunks covering [0, n), in parallel when n >= 2 * grain.
/// Nested calls from inside a chunk run serially. fn is referenced, not copied (it outlives the call).
void parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> fn);

}  // namespace burn::platform
