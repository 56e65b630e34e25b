#include "backends/cuda/error_slots.hpp"

#include <utility>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

ErrorSlots::ErrorSlots(cudaStream_t stream) : stream_(stream) {
    BURN_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&dev_), 2 * kSlots * sizeof(long long)));
    BURN_CUDA_CHECK(cudaMemset(dev_, 0, 2 * kSlots * sizeof(long long)));
    BURN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_), 2 * kSlots * sizeof(long long)));
    pending_.reserve(kSlots);
}

ErrorSlots::~ErrorSlots() {
    cudaFree(dev_);
    cudaFreeHost(host_);
}

long long* ErrorSlots::take(const ErrorInfo& info) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (static_cast<int>(pending_.size()) == kSlots) synchronize_locked(lock);
    pending_.push_back(info);
    // What the user called, when it is not the kernel's op (one_hot launches a scatter).
    const std::string& context = detail::ErrorContext::current();
    if (!context.empty()) pending_.back().context = context;
    return dev_ + 2 * (pending_.size() - 1);
}

void ErrorSlots::synchronize() {
    std::unique_lock<std::mutex> lock(mutex_);
    synchronize_locked(lock);
}

void ErrorSlots::synchronize_locked(std::unique_lock<std::mutex>& lock) {
    const std::size_t n = pending_.size();
    if (n)
        BURN_CUDA_CHECK(
            cudaMemcpyAsync(host_, dev_, 2 * n * sizeof(long long), cudaMemcpyDeviceToHost, stream_));
    BURN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (!n) return;
    // Free the slots before raising: later launches (ordered after this memset) start from zero.
    BURN_CUDA_CHECK(cudaMemsetAsync(dev_, 0, 2 * n * sizeof(long long), stream_));
    std::size_t hit = n;
    for (std::size_t i = 0; i < n && hit == n; ++i)
        if (host_[2 * i]) hit = i;
    if (hit == n) {
        pending_.clear();
        return;
    }
    const long long value = host_[2 * hit + 1];
    ErrorInfo info = std::move(pending_[hit]);
    pending_.clear();
    lock.unlock();
    BURN_THROW_KIND(index, info.context, info.format(info, value));
}

}  // namespace burn::cuda
