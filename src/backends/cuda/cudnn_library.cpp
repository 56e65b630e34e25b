// The cuDNN path's switches (BURN_CUDA_CUDNN, BURN_CUDA_CONV_TF32, BURN_CUDA_CUDNN_MIN_MACS, ...) and
// its library: libcudnn.so.9 is opened with dlopen at the first convolution, never linked, so
// binaries start without cuDNN and without a GPU. It is $BURN_CUDNN_LIBRARY when set (that file only),
// else libcudnn.so.9 on the loader path, then the library found next to cudnn.h at configure time
// (BURN_CUDNN_LIBRARY_HINT); cuDNN 9 loads its own parts (libcudnn_cnn, libcudnn_ops).
#include "backends/cuda/cudnn_library.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#ifdef BURN_HAVE_CUDNN
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif
#endif

namespace burn::cuda {

namespace {

bool env_flag(const char* name, bool fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    return std::string(v) != "0";
}

bool g_use_cudnn = env_flag("BURN_CUDA_CUDNN", true);
bool g_tf32_conv = env_flag("BURN_CUDA_CONV_TF32", true);
// cudnnFind (timing each algorithm once per geometry) for: 0 no direction, 1 every direction, unset the
// forward only: inference picks its algorithms as onnxruntime's CUDA provider does by default
// (cuDNN's first heuristic choice ran ResNet-18 at batch 8 about 20 % slower on an H200), while the
// backward keeps the heuristics' run-to-run stable choice.
const int g_benchmark = [] {
    const char* v = std::getenv("BURN_CUDA_CUDNN_BENCHMARK");
    if (!v || !*v) return 2;
    return std::string(v) == "0" ? 0 : 1;
}();
// Below this many multiply-adds, f32/f64 1-D/2-D convolutions stay on im2col: cuDNN's per-call cost
// (host work and extra launches, about 30 us on an H200) loses to im2col + one gemm there (batch-1
// inference of the MNIST convnet: 0.10 ms on im2col, 0.16 to 0.18 ms on cuDNN).
int64_t g_min_macs = [] {
    const char* v = std::getenv("BURN_CUDA_CUDNN_MIN_MACS");
    return v && *v ? std::atoll(v) : int64_t{1} << 23;
}();
int64_t g_pointwise_max_macs = [] {
    const char* v = std::getenv("BURN_CUDA_CONV1X1_GEMM_MAX_MACS");
    return v && *v ? std::atoll(v) : int64_t{1} << 28;
}();
const bool g_verbose = env_flag("BURN_CUDA_VERBOSE", false);
std::mutex g_mutex;
int64_t g_convs = 0, g_declined = 0;

}  // namespace

void set_allow_tf32_conv(bool on) {
    g_tf32_conv = on;
}
bool allow_tf32_conv() {
    return g_tf32_conv;
}
void set_use_cudnn(bool on) {
    g_use_cudnn = on;
}
bool use_cudnn() {
    return g_use_cudnn;
}
void set_cudnn_min_macs(int64_t macs) {
    g_min_macs = macs;
}
int64_t cudnn_min_macs() {
    return g_min_macs;
}
void set_pointwise_gemm_max_macs(int64_t macs) {
    g_pointwise_max_macs = macs;
}
int64_t pointwise_gemm_max_macs() {
    return g_pointwise_max_macs;
}

namespace cudnn {

bool verbose() {
    return g_verbose;
}
bool benchmark(bool forward) {
    return g_benchmark == 1 || (g_benchmark == 2 && forward);
}
void count(bool ran) {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++(ran ? g_convs : g_declined);
}

}  // namespace cudnn

#ifndef BURN_HAVE_CUDNN

CudnnStatus cudnn_status() {
    CudnnStatus s;
    s.detail = "built without cuDNN (cudnn.h not found or -DBURN_CUDNN=OFF)";
    return s;
}

#else  // BURN_HAVE_CUDNN

namespace cudnn {

namespace {

#ifdef _WIN32
void* open_lib(const char* name) {
    return reinterpret_cast<void*>(LoadLibraryA(name));
}
void* find_sym(void* lib, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(lib), name));
}
std::string open_error() {
    return "LoadLibrary failed (error " + std::to_string(GetLastError()) + ")";
}
const char* const kDefaultNames[] = {"cudnn64_9.dll"};
#else
void* open_lib(const char* name) {
    return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}
void* find_sym(void* lib, const char* name) {
    return dlsym(lib, name);
}
std::string open_error() {
    const char* e = dlerror();
    return e ? e : "dlopen failed";
}
const char* const kDefaultNames[] = {"libcudnn.so.9"};
#endif

Library load() {
    Library lib;
    std::vector<std::string> names;
    if (const char* env = std::getenv("BURN_CUDNN_LIBRARY"); env && *env) {
        names.push_back(env);  // that file only
    } else {
        for (const char* n : kDefaultNames) names.push_back(n);
#ifdef BURN_CUDNN_LIBRARY_HINT
        names.push_back(BURN_CUDNN_LIBRARY_HINT);  // the library found next to cudnn.h at configure time
#endif
    }
    void* handle = nullptr;
    std::string errors, path;
    for (const auto& n : names) {
        handle = open_lib(n.c_str());
        if (handle) {
            path = n;
            break;
        }
        errors += (errors.empty() ? "" : "; ") + open_error();
    }
    if (!handle) {
        lib.detail = "libcudnn.so.9 not loaded (" + errors + ")";
        return lib;
    }
#define BURN_CUDNN_RESOLVE(name)                                                      \
    lib.api.name = reinterpret_cast<decltype(&::name)>(find_sym(handle, #name));      \
    if (!lib.api.name) {                                                              \
        lib.detail = std::string(path) + " lacks " #name " (not a cuDNN 9 library?)"; \
        return lib;                                                                   \
    }
    BURN_CUDNN_FUNCTIONS(BURN_CUDNN_RESOLVE)
#undef BURN_CUDNN_RESOLVE
    lib.version = static_cast<long>(lib.api.cudnnGetVersion());
    if (lib.version / 10000 != CUDNN_MAJOR) {
        lib.detail = path + " is cuDNN " + std::to_string(lib.version) + ", built against major " +
                     std::to_string(CUDNN_MAJOR);
        return lib;
    }
    lib.ok = true;
    lib.detail = "cuDNN " + std::to_string(lib.version) + " from " + path;
    return lib;
}

}  // namespace

const Library& library() {
    static const Library lib = [] {
        Library l = load();
        if (g_verbose)
            std::fprintf(stderr, "burn cuda: %s%s\n", l.detail.c_str(),
                         l.ok ? "" : "; convolutions use im2col + cuBLAS (2-D and 1-D only)");
        return l;
    }();
    return lib;
}

}  // namespace cudnn

CudnnStatus cudnn_status() {
    CudnnStatus s;
    s.compiled = true;
    s.enabled = g_use_cudnn;
    if (g_use_cudnn) {
        const cudnn::Library& l = cudnn::library();
        s.loaded = l.ok;
        s.version = l.version;
        s.detail = l.detail;
    } else {
        s.detail = "disabled (BURN_CUDA_CUDNN=0 or set_use_cudnn(false))";
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    s.convolutions = g_convs;
    s.declined = g_declined;
    return s;
}

#endif  // BURN_HAVE_CUDNN

}  // namespace burn::cuda
