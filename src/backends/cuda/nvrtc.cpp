// NVRTC compiles, the loaded kernels and the disk cache (nvrtc.hpp). The NVRTC entry points are taken
// with dlopen/dlsym from libnvrtc.so.<the toolkit's major version> (then libnvrtc.so), with the types
// of nvrtc.h.
#include "backends/cuda/nvrtc.hpp"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include "backends/cuda/cuda_internal.hpp"
#include "burn/core/error.hpp"
#include "platform/env.hpp"
#include "platform/files.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace burn::cuda::rtc {

namespace {

namespace fs = std::filesystem;

struct Nvrtc {
    decltype(&::nvrtcCreateProgram) create = nullptr;
    decltype(&::nvrtcCompileProgram) compile = nullptr;
    decltype(&::nvrtcGetProgramLogSize) log_size = nullptr;
    decltype(&::nvrtcGetProgramLog) log = nullptr;
    decltype(&::nvrtcGetCUBINSize) cubin_size = nullptr;
    decltype(&::nvrtcGetCUBIN) cubin = nullptr;
    decltype(&::nvrtcDestroyProgram) destroy = nullptr;
    decltype(&::nvrtcGetErrorString) error = nullptr;
    decltype(&::nvrtcVersion) version = nullptr;
    std::string why;  // empty when loaded
    int major = 0, minor = 0;
};

const Nvrtc& nvrtc() {
    static const Nvrtc n = [] {
        Nvrtc r;
        const std::string versioned = "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000);
#ifdef _WIN32
        const std::string dll = "nvrtc64_" + std::to_string(CUDART_VERSION / 1000) + "0_0.dll";
        void* lib = reinterpret_cast<void*>(LoadLibraryA(dll.c_str()));
        auto sym = [&](const char* s) {
            return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(lib), s));
        };
#else
        void* lib = dlopen(versioned.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) lib = dlopen("libnvrtc.so", RTLD_NOW | RTLD_LOCAL);
        auto sym = [&](const char* s) { return dlsym(lib, s); };
#endif
        if (!lib) {
            r.why = versioned +
                    " (NVRTC, the CUDA toolkit's run-time compiler) was not found: install the toolkit's "
                    "nvrtc package or put its lib64 folder on LD_LIBRARY_PATH";
            return r;
        }
#define BURN_NVRTC_SYM(field, name) r.field = reinterpret_cast<decltype(r.field)>(sym(#name));
        BURN_NVRTC_SYM(create, nvrtcCreateProgram)
        BURN_NVRTC_SYM(compile, nvrtcCompileProgram)
        BURN_NVRTC_SYM(log_size, nvrtcGetProgramLogSize)
        BURN_NVRTC_SYM(log, nvrtcGetProgramLog)
        BURN_NVRTC_SYM(cubin_size, nvrtcGetCUBINSize)
        BURN_NVRTC_SYM(cubin, nvrtcGetCUBIN)
        BURN_NVRTC_SYM(destroy, nvrtcDestroyProgram)
        BURN_NVRTC_SYM(error, nvrtcGetErrorString)
        BURN_NVRTC_SYM(version, nvrtcVersion)
#undef BURN_NVRTC_SYM
        if (!r.create || !r.compile || !r.log_size || !r.log || !r.cubin_size || !r.cubin || !r.destroy ||
            !r.error || !r.version) {
            r.why = versioned + " lacks an NVRTC entry point (nvrtcGetCUBIN needs CUDA 11.1 or later)";
            return r;
        }
        r.version(&r.major, &r.minor);
        return r;
    }();
    return n;
}

std::atomic<int64_t> g_compiled{0}, g_disk_hits{0}, g_memory_hits{0}, g_generation{0};

struct Loaded {
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernel = nullptr;
};

std::mutex g_mutex;
std::map<std::pair<int, std::string>, Loaded>* g_loaded = new std::map<std::pair<int, std::string>, Loaded>();

/// FNV-1a, 64 bits: the disk cache's file names (the source is stored beside each cubin and compared,
/// so a collision costs a compile, never a wrong kernel).
uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

int arch_of(int device) {
    int major = 0, minor = 0;
    BURN_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    BURN_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    return major * 10 + minor;
}

std::string compile(const std::string& source, int arch, const std::vector<Header>& headers) {
    const Nvrtc& n = nvrtc();
    BURN_CHECK_KIND(n.why.empty(), device, "[lazy] cannot compile a fused CUDA kernel: ", n.why);
    std::vector<const char*> names, texts;
    for (const Header& h : headers) {
        names.push_back(h.name);
        texts.push_back(h.text);
    }
    nvrtcProgram prog = nullptr;
    nvrtcResult r = n.create(&prog, source.c_str(), "burn_fused.cu", static_cast<int>(headers.size()),
                             texts.data(), names.data());
    BURN_CHECK_KIND(r == NVRTC_SUCCESS, device, "[lazy] nvrtcCreateProgram failed: ", n.error(r));
    const std::string arch_opt = "--gpu-architecture=sm_" + std::to_string(arch);
    const char* opts[] = {arch_opt.c_str(), "--std=c++17"};
    r = n.compile(prog, 2, opts);
    std::string log;
    std::size_t log_size = 0;
    if (n.log_size(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
        log.resize(log_size);
        n.log(prog, log.data());
        log.resize(log_size - 1);
    }
    if (r != NVRTC_SUCCESS) {
        n.destroy(&prog);
        BURN_THROW_KIND(device, "[lazy] NVRTC ", n.major, ".", n.minor,
                        " could not compile a fused kernel for sm_", arch, " (", n.error(r), "):\n", log,
                        "\nsource:\n", source);
    }
    std::size_t size = 0;
    r = n.cubin_size(prog, &size);
    std::string cubin(size, '\0');
    if (r == NVRTC_SUCCESS) r = n.cubin(prog, cubin.data());
    n.destroy(&prog);
    BURN_CHECK_KIND(r == NVRTC_SUCCESS && size > 0, device, "[lazy] NVRTC gave no cubin for sm_", arch, ": ",
                    n.error(r));
    g_compiled.fetch_add(1);
    return cubin;
}

/// The disk cache's files for a source: <hash>.cubin and <hash>.cu.
fs::path cache_base(const std::string& dir, const std::string& source, int arch) {
    const Nvrtc& n = nvrtc();
    const std::string salt = "nvrtc " + std::to_string(n.major) + "." + std::to_string(n.minor) + " sm_" +
                             std::to_string(arch) + "\n";
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(source, fnv1a(salt))));
    return fs::path(dir) / (std::string("sm") + std::to_string(arch) + "-" + hex);
}

std::string cubin_for(const std::string& source, int arch, const std::vector<Header>& headers) {
    const std::string dir = cache_dir();
    if (dir.empty()) return compile(source, arch, headers);
    const fs::path base = cache_base(dir, source, arch);
    fs::path cu = base, bin = base;
    cu += ".cu";
    bin += ".cubin";
    std::error_code ec;
    if (fs::is_regular_file(bin, ec) && fs::is_regular_file(cu, ec)) {
        try {
            if (platform::read_file(cu, "lazy") == source) {
                std::string cubin = platform::read_file(bin, "lazy");
                if (!cubin.empty()) {
                    g_disk_hits.fetch_add(1);
                    return cubin;
                }
            }
        } catch (const Error&) {
            // unreadable: compile again and rewrite it
        }
    }
    std::string cubin = compile(source, arch, headers);
    try {  // best effort: a read-only home still runs, compiling each process
        fs::create_directories(dir, ec);
        platform::write_file_atomic(bin, cubin, "lazy");
        platform::write_file_atomic(cu, source, "lazy");
    } catch (const Error&) {
    }
    return cubin;
}

}  // namespace

bool available(std::string* why) {
    const Nvrtc& n = nvrtc();
    if (why) *why = n.why;
    return n.why.empty();
}

std::string cache_dir() {
    if (auto v = platform::env_var("BURN_KERNEL_CACHE")) {
        if (*v == "0") return "";
        if (!v->empty()) return *v;
    }
    if (auto x = platform::env_var("XDG_CACHE_HOME"); x && !x->empty())
        return (fs::path(*x) / "burn" / "kernels").string();
    if (auto h = platform::env_var("HOME"); h && !h->empty())
        return (fs::path(*h) / ".cache" / "burn" / "kernels").string();
    return "";
}

const void* kernel(const std::string& source, const char* name, int device,
                   const std::vector<Header>& headers) {
    const int arch = arch_of(device);
    std::lock_guard<std::mutex> lock(g_mutex);
    auto key = std::make_pair(arch, source);
    auto it = g_loaded->find(key);
    if (it != g_loaded->end()) {
        g_memory_hits.fetch_add(1);
        return reinterpret_cast<const void*>(it->second.kernel);
    }
    const std::string cubin = cubin_for(source, arch, headers);
    Loaded l;
    BURN_CUDA_CHECK(cudaLibraryLoadData(&l.library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    BURN_CUDA_CHECK(cudaLibraryGetKernel(&l.kernel, l.library, name));
    g_loaded->emplace(std::move(key), l);
    return reinterpret_cast<const void*>(l.kernel);
}

Stats stats() {
    return Stats{g_compiled.load(), g_disk_hits.load(), g_memory_hits.load()};
}

void count_memory_hit() {
    g_memory_hits.fetch_add(1);
}

void clear_memory_cache() {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_generation.fetch_add(1);
    cudaDeviceSynchronize();  // no launch of a kernel being unloaded is still queued
    for (auto& [k, l] : *g_loaded) cudaLibraryUnload(l.library);
    g_loaded->clear();
}

int64_t generation() {
    return g_generation.load();
}

}  // namespace burn::cuda::rtc
