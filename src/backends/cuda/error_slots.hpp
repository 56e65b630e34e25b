#pragma once
// Errors found by kernels (an index out of range, a target outside the classes) without a host
// synchronisation per op. A launch that can fail takes a slot: two long longs in a per-device array,
// [0] set to 1 by the first failing thread and [1] the bad value (flag_bad in index.cu, norm.cu). The
// host keeps how to word the message. The backend reads every slot in use at its next synchronisation
// (to_host, sync), with the stream synchronisation it makes anyway, and raises the first error as a
// burn::IndexError naming the op that caused it. Like CUDA's device-side asserts and PyTorch's, the
// error surfaces at the next read, not at the op; until then the failing op's output holds zeros where
// an index was bad. docs/cuda.md, "Errors".
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "burn/core/shape.hpp"

namespace burn::cuda {

/// How to word one launch's error: a message function and its arguments, held by value, so taking a
/// slot allocates nothing (op is a static string; context, what the user called, is usually empty).
struct ErrorInfo {
    using Format = std::string (*)(const ErrorInfo& info, long long value);
    Format format = nullptr;
    const char* op = "";
    int dim = 0;
    int64_t size = 0;  // the extent the value must lie below
    Dims target;       // the indexed tensor's shape, when there is one
    std::string context;
};

class ErrorSlots {
  public:
    explicit ErrorSlots(cudaStream_t stream);
    ~ErrorSlots();
    ErrorSlots(const ErrorSlots&) = delete;
    ErrorSlots& operator=(const ErrorSlots&) = delete;

    /// A zeroed slot for the next launch on the stream. When every slot is in use, synchronises first
    /// (and raises an error found by then).
    long long* take(const ErrorInfo& info);
    /// Synchronises the stream (what to_host and sync did before) and raises the first error recorded
    /// since the last call; every slot is free again either way.
    void synchronize();

  private:
    void synchronize_locked(std::unique_lock<std::mutex>& lock);

    static constexpr int kSlots = 256;
    cudaStream_t stream_;
    long long* dev_ = nullptr;   // 2 * kSlots, zero where free
    long long* host_ = nullptr;  // pinned copy, read after the synchronisation
    std::vector<ErrorInfo> pending_;
    std::mutex mutex_;
};

}  // namespace burn::cuda
