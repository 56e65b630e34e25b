// A caching allocator for CPU tensors. Large blocks freed by one op are handed to the next op of the
// same size: without it every large temporary is a fresh mmap whose pages fault in on first touch,
// which costs more than the arithmetic of a memory-bound op.
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "backends/cpu/cpu_tensor.hpp"
#include "burn/core/error.hpp"

namespace burn::cpu {

namespace {
constexpr std::size_t kAlign = 64;
constexpr std::size_t kCacheMin = 64 * 1024;          // smaller blocks go straight to malloc
constexpr std::size_t kCacheLimit = std::size_t(2) << 30;  // bytes kept in the cache at most

struct Cache {
    std::mutex mutex;
    std::multimap<std::size_t, void*> free_blocks;
    std::size_t cached = 0;
    std::size_t live = 0;
};
Cache& cache() {
    static Cache* c = new Cache();  // never destroyed: tensors may outlive static destruction
    return *c;
}
std::size_t round_size(std::size_t bytes) {
    if (bytes < kCacheMin) return (bytes + kAlign - 1) / kAlign * kAlign;
    return (bytes + 4095) / 4096 * 4096;
}
void* system_alloc(std::size_t bytes) {
    void* p = std::aligned_alloc(kAlign, bytes ? bytes : kAlign);
    if (!p) {
        empty_cache();
        p = std::aligned_alloc(kAlign, bytes ? bytes : kAlign);
    }
    BURN_CHECK(p != nullptr, "[cpu] out of memory allocating ", bytes, " bytes");
    return p;
}
}  // namespace

Storage::Storage(std::size_t n) : bytes(round_size(n)) {
    Cache& c = cache();
    if (bytes >= kCacheMin) {
        std::lock_guard<std::mutex> lock(c.mutex);
        auto it = c.free_blocks.find(bytes);
        if (it != c.free_blocks.end()) {
            data = static_cast<uint8_t*>(it->second);
            c.free_blocks.erase(it);
            c.cached -= bytes;
            c.live += bytes;
            return;
        }
    }
    data = static_cast<uint8_t*>(system_alloc(bytes));
    std::lock_guard<std::mutex> lock(c.mutex);
    c.live += bytes;
}

Storage::~Storage() {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.live -= bytes;
    if (bytes >= kCacheMin && c.cached + bytes <= kCacheLimit) {
        c.free_blocks.emplace(bytes, data);
        c.cached += bytes;
    } else {
        std::free(data);
    }
}

AllocatorStats allocator_stats() {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    return {c.live, c.cached};
}

void empty_cache() {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (auto& [size, p] : c.free_blocks) std::free(p);
    c.free_blocks.clear();
    c.cached = 0;
}

}  // namespace burn::cpu
