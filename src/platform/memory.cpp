#include "platform/memory.hpp"

#include <cstdlib>

#include "burn/build_config.hpp"
#include "platform/arena.hpp"
#if defined(__NEWLIB__)
#include <malloc.h>  // memalign
#endif

#if BURN_FILESYSTEM && (defined(__unix__) || defined(__APPLE__))
#define BURN_POSIX_MEMORY 1
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <initializer_list>
#endif

namespace burn::platform {

void* aligned_alloc(std::size_t alignment, std::size_t bytes) {
#if BURN_ARENA_BYTES > 0
    return global_arena()->allocate(alignment, bytes);  // bare metal: the static arena (arena.hpp)
#elif defined(__NEWLIB__)
    return ::memalign(alignment, bytes);
#else
    // C11 requires a multiple of the alignment
    return ::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
#endif
}

void aligned_free(void* p) {
#if BURN_ARENA_BYTES > 0
    global_arena()->release(p);
    return;
#endif
    std::free(p);
}

#ifdef BURN_POSIX_MEMORY
uint64_t resident_memory_bytes() {
#if defined(__linux__)
    // /proc/self/statm: size resident shared ... in pages.
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long size = 0, resident = 0;
    int n = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    if (n != 2) return 0;
    long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? resident * static_cast<uint64_t>(page) : 0;
#else
    struct rusage u {};
    if (::getrusage(RUSAGE_SELF, &u) != 0) return 0;
#if defined(__APPLE__)
    return static_cast<uint64_t>(u.ru_maxrss);  // bytes on macOS (peak, the best portable figure)
#else
    return static_cast<uint64_t>(u.ru_maxrss) * 1024;
#endif
#endif
}

uint64_t total_memory_bytes() {
#if defined(__linux__)
    long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
#else
    return 0;
#endif
}

#if defined(__linux__)
namespace {
/// The first number in a file (a cgroup limit); 0 when missing or "max".
uint64_t read_limit(const char* path) {
    std::FILE* f = std::fopen(path, "r");
    if (!f) return 0;
    unsigned long long v = 0;
    const int n = std::fscanf(f, "%llu", &v);
    std::fclose(f);
    return n == 1 ? static_cast<uint64_t>(v) : 0;
}
}  // namespace
#endif

uint64_t memory_limit_bytes() {
    uint64_t limit = total_memory_bytes();
#if defined(__linux__)
    for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        const uint64_t v = read_limit(path);
        if (v > 0 && (limit == 0 || v < limit)) limit = v;
    }
#endif
    return limit;
}

#else
// No operating system to ask (BURN_FILESYSTEM=OFF: bare metal, the portable core): unknown.
uint64_t resident_memory_bytes() {
    return 0;
}
uint64_t total_memory_bytes() {
    return 0;
}
uint64_t memory_limit_bytes() {
    return 0;
}
#endif

}  // namespace burn::platform
