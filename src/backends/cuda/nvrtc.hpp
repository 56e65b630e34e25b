#pragma once
// Kernels compiled at run time (docs/fusion.md): CUDA source compiled with NVRTC for the device's
// architecture, loaded with the runtime's cudaLibrary API. NVRTC (libnvrtc.so of the toolkit the
// library was built with) is opened with dlopen at the first compile, so binaries start without it.
// Compiled kernels are cached in memory (by architecture and source) and on disk as cubins:
// $BURN_KERNEL_CACHE, else $XDG_CACHE_HOME/burn/kernels, else ~/.cache/burn/kernels
// (BURN_KERNEL_CACHE=0: no disk cache). A cached file is used only when the source stored beside it
// is the same text.
#include <cstdint>
#include <string>
#include <vector>

namespace burn::cuda::rtc {

struct Header {
    const char* name;  // as the source includes it
    const char* text;
};

/// The headers of fused kernels (fused_headers.cpp).
const std::vector<Header>& fused_headers();

/// Whether NVRTC can be used; `why` says why not.
bool available(std::string* why = nullptr);

/// The kernel `name` (extern "C") of `source`, compiled for the architecture of CUDA device `device`
/// with `headers`: a handle for cudaLaunchKernel. Throws burn::Error with NVRTC's log when the
/// source does not compile, or naming the library when NVRTC is missing.
const void* kernel(const std::string& source, const char* name, int device,
                   const std::vector<Header>& headers);

/// What the caches did (for tests and the docs' figures).
struct Stats {
    int64_t compiled = 0;     // NVRTC compiles
    int64_t disk_hits = 0;    // cubins read from the disk cache
    int64_t memory_hits = 0;  // kernels found loaded
};
Stats stats();
/// Counts a kernel its caller found in a cache of its own (the fused target's, by signature).
void count_memory_hit();
/// Forgets the loaded kernels (the next request reads the disk cache or compiles); for tests. Callers
/// that keep handles compare generation() with the one they saw and drop theirs when it changed.
void clear_memory_cache();
int64_t generation();
/// The disk cache's folder ("" when off).
std::string cache_dir();

}  // namespace burn::cuda::rtc
