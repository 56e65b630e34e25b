#include "burn/core/device.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "burn/core/error.hpp"
#include "burn/core/generator.hpp"
#include "autodiff/graph.hpp"
#include "core/registry.hpp"
#include "platform/parallel.hpp"
#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn {

namespace {

struct RngState {
    uint64_t seed = Generator::kDefaultSeed;  // a fixed default: runs are reproducible unless seeded
    uint64_t offset = 0;
};

struct Registry {
    std::mutex mutex;
    std::map<std::pair<int, int>, RngState> rng;
};
Registry& registry() {
    static Registry* r = new Registry();
    return *r;
}

Device parse_default() {
    const char* env = std::getenv("BURN_DEFAULT_DEVICE");
    if (!env || std::string(env).empty() || std::string(env) == "cpu") return Device::cpu();
    std::string s(env);
    int index = 0;
    auto colon = s.find(':');
    if (colon != std::string::npos) index = std::atoi(s.c_str() + colon + 1);
    std::string kind = s.substr(0, colon);
    if (kind == "cuda") return Device::cuda(index);
    if (kind == "vulkan") return Device::vulkan(index);
    BURN_THROW_KIND(device, "BURN_DEFAULT_DEVICE='", s, "' is not a device; use cpu, cuda:N or vulkan:N");
}

}  // namespace

Device::Device() {
    static const Device d = parse_default();
    *this = d;
}

Device Device::cpu() { return Device(DeviceKind::cpu, 0, false); }

Device Device::cuda(int index) {
#ifdef BURN_HAVE_CUDA
    const int n = burn::cuda::device_count();
    BURN_CHECK_KIND(n > 0, device, "Device::cuda(", index, "): no CUDA device is available (",
                    burn::cuda::unavailable_reason(), ")");
    BURN_CHECK_KIND(index >= 0 && index < n, device, "Device::cuda(", index, "): this machine has ", n,
                    " CUDA device(s), cuda:0 to cuda:", n - 1);
    return Device(DeviceKind::cuda, index, false);
#else
    BURN_THROW_KIND(device, "Device::cuda(", index, "): CUDA backend not built; reconfigure with -DBURN_CUDA=ON");
#endif
}

Device Device::vulkan(int index) {
    (void)index;
    BURN_THROW_KIND(device, "Device::vulkan(", index,
                    "): Vulkan backend not built; reconfigure with -DBURN_VULKAN=ON");
}

std::vector<Device> Device::available() {
    std::vector<Device> out{Device::cpu()};
#ifdef BURN_HAVE_CUDA
    for (int i = 0; i < burn::cuda::device_count(); ++i) out.push_back(Device(DeviceKind::cuda, i, false));
#endif
    return out;
}

Device Device::autodiff() const {
    BURN_CHECK_KIND(!autodiff_, device, "[autodiff] ", *this,
                    " is already an autodiff device; autodiff of an autodiff device is not supported "
                    "(call .inner() first)");
    return Device(kind_, index_, true);
}

Device Device::inner() const { return Device(kind_, index_, false); }

void Device::seed(uint64_t seed) const {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.rng[{static_cast<int>(kind_), index_}] = RngState{seed, 0};
}

void Device::sync() const { backend().sync(); }

std::string Device::str() const {
    std::ostringstream os;
    os << *this;
    return os.str();
}

Backend& Device::backend() const {
    if (autodiff_) return autodiff::backend_for(inner());
    switch (kind_) {
        case DeviceKind::cpu: return cpu::CpuBackend::instance();
        case DeviceKind::cuda:
#ifdef BURN_HAVE_CUDA
            return burn::cuda::backend(index_);
#else
            break;
#endif
        case DeviceKind::vulkan: break;
    }
    BURN_THROW_KIND(device, "no backend for device ", *this);
}

std::ostream& operator<<(std::ostream& os, const Device& d) {
    if (d.is_autodiff()) os << "autodiff(";
    switch (d.kind()) {
        case DeviceKind::cpu: os << "cpu"; break;
        case DeviceKind::cuda: os << "cuda:" << d.index(); break;
        case DeviceKind::vulkan: os << "vulkan:" << d.index(); break;
    }
    if (d.is_autodiff()) os << ")";
    return os;
}

void set_num_threads(int n) { platform::set_threads(n); }
int num_threads() { return platform::threads(); }

namespace detail {

RandomStream next_random(const Device& device, int64_t count) {
    // A thread's GeneratorScope takes precedence over the device's shared stream.
    if (Generator* g = current_generator()) {
        auto draw = g->reserve(static_cast<uint64_t>(count));
        return RandomStream{draw.key, draw.offset};
    }
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    RngState& s = r.rng[{static_cast<int>(device.kind()), device.index()}];
    RandomStream out{s.seed, s.offset};
    s.offset += static_cast<uint64_t>(count);
    return out;
}

}  // namespace detail

}  // namespace burn
