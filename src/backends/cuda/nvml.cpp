// GPU utilisation through NVML (nvml.hpp). The few NVML entry points are declared here with the C types
// of nvml.h (nvmlReturn_t is an int enum, 0 = success; nvmlDevice_t a pointer), so no NVML header or
// library is needed to build.
#include "backends/cuda/nvml.hpp"

#include <cuda_runtime.h>

#include <mutex>

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace burn::cuda {

namespace {

struct NvmlUtilization {
    unsigned int gpu;
    unsigned int memory;
};
using Handle = void*;
using InitFn = int (*)();
using ByBusIdFn = int (*)(const char*, Handle*);
using UtilFn = int (*)(Handle, NvmlUtilization*);

struct Nvml {
    ByBusIdFn by_bus_id = nullptr;
    UtilFn utilization = nullptr;
    bool ok = false;
};

const Nvml& nvml() {
    static Nvml n;
    static std::once_flag once;
    std::call_once(once, [] {
#ifdef _WIN32
        void* lib = reinterpret_cast<void*>(LoadLibraryA("nvml.dll"));
        auto sym = [&](const char* s) {
            return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(lib), s));
        };
#else
        void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        auto sym = [&](const char* s) { return dlsym(lib, s); };
#endif
        if (!lib) return;
        auto init = reinterpret_cast<InitFn>(sym("nvmlInit_v2"));
        n.by_bus_id = reinterpret_cast<ByBusIdFn>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
        n.utilization = reinterpret_cast<UtilFn>(sym("nvmlDeviceGetUtilizationRates"));
        n.ok = init && n.by_bus_id && n.utilization && init() == 0;  // the library stays open
    });
    return n;
}

}  // namespace

std::optional<double> gpu_utilization(int index) {
    const Nvml& n = nvml();
    if (!n.ok) return std::nullopt;
    char bus[64] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof(bus), index) != cudaSuccess) {
        cudaGetLastError();
        return std::nullopt;
    }
    Handle h = nullptr;
    NvmlUtilization u{};
    if (n.by_bus_id(bus, &h) != 0 || n.utilization(h, &u) != 0) return std::nullopt;
    return static_cast<double>(u.gpu);
}

}  // namespace burn::cuda
