// A caching allocator for CPU tensors. Large blocks freed by one op are handed to the next op of the
// same size: without it every large temporary is a fresh mmap whose pages fault in on first touch,
// which costs more than the arithmetic of a memory-bound op.
//
// Under AddressSanitizer the cache would hide large-buffer bugs (a cached block is still addressable
// memory to ASan), so every block is poisoned while it sits in the cache and, when handed out, only
// the requested bytes are unpoisoned: a read past a tensor's end or of a freed tensor's block is
// reported as it would be with malloc. BURN_CPU_CACHE=0 turns the cache off (every block is malloc'd
// and freed), as does set_cache_enabled(false).
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <vector>

#include "backends/cpu/cpu_tensor.hpp"
#include "burn/core/error.hpp"
#include "platform/arena.hpp"
#include "platform/env.hpp"
#include "platform/memory.hpp"
#include "platform/sync.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BURN_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BURN_ASAN 1
#endif
#ifdef BURN_ASAN
#include <sanitizer/asan_interface.h>
#define BURN_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define BURN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define BURN_POISON(p, n) ((void)(p), (void)(n))
#define BURN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace burn::cpu {

namespace {
constexpr std::size_t kAlign = 64;
constexpr std::size_t kCacheMin = 64 * 1024;               // smaller blocks go straight to malloc
constexpr std::size_t kCacheLimit = std::size_t(2) << 30;  // bytes kept in the cache at most

struct Cache {
    platform::Mutex mutex;
    std::multimap<std::size_t, void*> free_blocks;
    std::size_t cached = 0;
    std::size_t live = 0;
};
Cache& cache() {
    static Cache* c = new Cache();  // never destroyed: tensors may outlive static destruction
    return *c;
}
std::atomic<bool>& cache_flag() {
    static std::atomic<bool> on{[] {
        if (BURN_ARENA_BYTES > 0) return false;  // a static arena: a cache would only raise the peak
        auto v = platform::env_var("BURN_CPU_CACHE");
        return !(v && (*v == "0" || *v == "off" || *v == "false"));
    }()};
    return on;
}
std::size_t round_size(std::size_t bytes) {
    if (bytes < kCacheMin) return (bytes + kAlign - 1) / kAlign * kAlign;
    return (bytes + 4095) / 4096 * 4096;
}
void* system_alloc(std::size_t bytes) {
    void* p = platform::aligned_alloc(kAlign, bytes ? bytes : kAlign);
    if (!p) {
        empty_cache();
        p = platform::aligned_alloc(kAlign, bytes ? bytes : kAlign);
    }
    if (!p && platform::global_arena()) platform::arena_exhausted(current_op(), bytes);  // bare metal
    BURN_CHECK(p != nullptr, "[cpu] out of memory allocating ", bytes,
               " bytes; free tensors (and the cache: burn::cpu::empty_cache()) or use smaller batches");
    return p;
}
void system_free(void* p, std::size_t bytes) {
    BURN_UNPOISON(p, bytes);  // the heap allocator owns it again
    platform::aligned_free(p);
}
/// Makes exactly the first n of the block's bytes addressable (ASan builds).
void hand_out(void* p, std::size_t n, std::size_t bytes) {
    BURN_POISON(p, bytes);
    BURN_UNPOISON(p, n);
    (void)p, (void)n, (void)bytes;
}
}  // namespace

bool cache_enabled() {
    return cache_flag().load(std::memory_order_relaxed);
}

void set_cache_enabled(bool on) {
    cache_flag().store(on);
    if (!on) empty_cache();
}

Storage::Storage(std::size_t n) {
    BURN_CHECK(n <= SIZE_MAX - 4096, "[cpu] cannot allocate ", n, " bytes");
    bytes = round_size(n);
    Cache& c = cache();
    if (bytes >= kCacheMin && cache_enabled()) {
        platform::Lock lock(c.mutex);
        auto it = c.free_blocks.find(bytes);
        if (it != c.free_blocks.end()) {
            data = static_cast<uint8_t*>(it->second);
            c.free_blocks.erase(it);
            c.cached -= bytes;
            c.live += bytes;
            hand_out(data, n, bytes);
            return;
        }
    }
    data = static_cast<uint8_t*>(system_alloc(bytes));
    hand_out(data, n, bytes);
    platform::Lock lock(c.mutex);
    c.live += bytes;
}

Storage::~Storage() {
    if (borrowed) return;  // the caller's memory
    Cache& c = cache();
    platform::Lock lock(c.mutex);
    c.live -= bytes;
    if (bytes >= kCacheMin && c.cached + bytes <= kCacheLimit && cache_enabled()) {
        BURN_POISON(data, bytes);  // a use after free of a cached block is reported
        c.free_blocks.emplace(bytes, data);
        c.cached += bytes;
    } else {
        system_free(data, bytes);
    }
}

AllocatorStats allocator_stats() {
    Cache& c = cache();
    platform::Lock lock(c.mutex);
    return {c.live, c.cached};
}

void empty_cache() {
    Cache& c = cache();
    platform::Lock lock(c.mutex);
    for (auto& [size, p] : c.free_blocks) system_free(p, size);
    c.free_blocks.clear();
    c.cached = 0;
}

}  // namespace burn::cpu
