// The caching device allocator: one per device. Freed blocks go back to a size-keyed cache at once
// and are handed to the next allocation of a fitting size. Every op of a device runs on the device's
// one stream, so a block freed by the host can be reused by a later op without waiting: the stream
// orders the old reader before the new writer. A request larger than the device's total memory is a
// burn::Error before cudaMalloc is tried; cudaMalloc failing frees the cache and retries once, then
// throws a burn::Error with the CUDA error cleared, so the process keeps working.
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

namespace {

constexpr std::size_t kSmall = 1 << 20;  // below: 512-byte granules; above: 2 MiB granules

std::size_t round_size(std::size_t n) {
    if (n == 0) n = 1;
    if (n < kSmall) return (n + 511) / 512 * 512;
    return (n + (2u << 20) - 1) / (2u << 20) * (2u << 20);
}

struct DeviceCache {
    std::mutex mutex;
    std::multimap<std::size_t, void*> free_blocks;
    std::size_t cached = 0;
    std::size_t total = 0;  // the device's memory, read on first use (0: not read yet or unknown)
    bool total_read = false;
    MemoryStats stats;
};

std::size_t device_total(DeviceCache& c, int device) {
    // Caller holds c.mutex.
    if (!c.total_read) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, device) == cudaSuccess)
            c.total = prop.totalGlobalMem;
        else
            cudaGetLastError();
        c.total_read = true;
    }
    return c.total;
}

std::string gib(std::size_t bytes) {
    std::ostringstream os;
    os.precision(2);
    os << std::fixed << static_cast<double>(bytes) / double(1 << 30) << " GiB";
    return os.str();
}

DeviceCache& cache(int device) {
    static auto* caches = new std::vector<std::unique_ptr<DeviceCache>>(64);  // never destroyed
    auto& c = (*caches)[static_cast<std::size_t>(device)];
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    if (!c) c = std::make_unique<DeviceCache>();
    return *c;
}

void release_cached(DeviceCache& c, int device) {
    // Caller holds c.mutex.
    int prev = 0;
    cudaGetDevice(&prev);
    cudaSetDevice(device);
    for (auto& [size, p] : c.free_blocks) cudaFree(p);
    cudaSetDevice(prev);
    c.stats.reserved -= c.cached;
    c.cached = 0;
    c.free_blocks.clear();
}

}  // namespace

Storage::Storage(int dev, std::size_t n, const char* op) : bytes(n), device(dev) {
    DeviceCache& c = cache(dev);
    std::lock_guard<std::mutex> lock(c.mutex);
    const std::size_t total = device_total(c, dev);
    if (total != 0 && n > total) {
        BURN_THROW_KIND(device, "[", op, "] CUDA out of memory on cuda:", dev, ": tried to allocate ", n,
                        " bytes (", gib(n), ") but the device has ", total, " bytes (", gib(total),
                        ") in all; use smaller shapes or batches");
    }
    block = round_size(n);
    // A cached block of the same size, or one at most twice as large (small) / 8 MiB larger (big).
    auto it = c.free_blocks.lower_bound(block);
    const std::size_t limit = block < kSmall ? 2 * block : block + (8u << 20);
    if (it != c.free_blocks.end() && it->first <= limit) {
        block = it->first;
        data = it->second;
        c.free_blocks.erase(it);
        c.cached -= block;
        c.stats.cache_hits++;
    } else {
        cudaError_t err = cudaMalloc(&data, block);
        if (err == cudaErrorMemoryAllocation) {
            cudaGetLastError();  // clear the sticky-free error state
            c.stats.oom_retries++;
            release_cached(c, dev);
            err = cudaMalloc(&data, block);
        }
        if (err != cudaSuccess) {
            cudaGetLastError();
            data = nullptr;
            BURN_THROW_KIND(device, "[", op, "] CUDA out of memory on cuda:", dev, " (",
                            cudaGetErrorName(err), "): tried to allocate ", block, " bytes with ",
                            c.stats.allocated,
                            " bytes allocated and the cache emptied; free tensors or use smaller batches");
        }
        c.stats.device_mallocs++;
        c.stats.reserved += block;
    }
    c.stats.allocated += block;
    if (c.stats.allocated > c.stats.peak) c.stats.peak = c.stats.allocated;
}

Storage::~Storage() {
    if (!data) return;
    DeviceCache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.mutex);
    c.free_blocks.emplace(block, data);
    c.cached += block;
    c.stats.allocated -= block;
}

MemoryStats memory_stats(int device) {
    DeviceCache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.mutex);
    return c.stats;
}

void reset_peak(int device) {
    DeviceCache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.mutex);
    c.stats.peak = c.stats.allocated;
}

void empty_cache(int device) {
    if (device < 0 || device >= device_count()) return;
    backend(device).sync();  // blocks about to be freed may still be read by queued work
    DeviceCache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.mutex);
    release_cached(c, device);
}

}  // namespace burn::cuda
