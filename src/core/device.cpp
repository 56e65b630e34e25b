// Device values over the registry (burn/backend/registry.hpp), and each device's random stream.
#include "burn/core/device.hpp"

#include <map>
#include <ostream>

#include "burn/amp/autocast.hpp"
#include "burn/backend/backend.hpp"
#include "burn/backend/registry.hpp"
#include "burn/core/error.hpp"
#include "burn/core/generator.hpp"
#include "core/registry.hpp"
#include "platform/env.hpp"
#include "platform/parallel.hpp"
#include "platform/sync.hpp"

namespace burn {

namespace {

struct RngState {
    uint64_t seed = Generator::kDefaultSeed;  // a fixed default: runs are reproducible unless seeded
    uint64_t offset = 0;
};

struct RngRegistry {
    platform::Mutex mutex;
    std::map<uint64_t, RngState> rng;  // by the physical device's key
};
RngRegistry& rng_registry() {
    static RngRegistry* r = new RngRegistry();
    return *r;
}

std::string list_backends() {
    std::string out;
    for (int i = 0; i < num_backends(); ++i) {
        const BackendEntry& e = backend_entry(i);
        if (!e.built) continue;
        if (!out.empty()) out += ", ";
        out += e.name;
    }
    return out;
}

std::string describe_call(std::string_view name, int index) {
    std::string s = "Device::";
    s += name;
    if (name == "cuda" || name == "vulkan" || name == "cpu") return s + "(" + std::to_string(index) + ")";
    return "Device::of(\"" + std::string(name) + "\", " + std::to_string(index) + ")";
}

Device parse_default() {
    auto env = platform::env_var("BURN_DEFAULT_DEVICE");
    if (!env || env->empty()) return Device::cpu();
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
        return Device::parse(*env);
    } catch (const Error& e) {
        BURN_THROW_KIND(device, "BURN_DEFAULT_DEVICE='", *env, "': ", e.what());
    }
#else
    return Device::parse(*env);
#endif
}

}  // namespace

Device::Device() {
    static const Device d = parse_default();
    *this = d;
}

Device Device::cpu() {
    return Device(0, 0);
}  // the registry puts the always-built CPU first

Device Device::cuda(int index) {
    return of("cuda", index);
}
Device Device::vulkan(int index) {
    return of("vulkan", index);
}

Device Device::of(std::string_view name, int index) {
    const int id = find_backend(name);
    const BackendEntry* e = id >= 0 ? &backend_entry(id) : nullptr;
    const int n = e && e->built ? e->device_count() : 0;
    if (n > 0 && index >= 0 && index < n && index <= 0xffff) return Device(id, index);
    // The error: strings are built only here (Device::cuda(i) runs on every CUDA allocation).
    const std::string call = describe_call(name, index);
    BURN_CHECK_KIND(e, device, call, ": no backend named '", name, "' is registered; this build has ",
                    list_backends());
    BURN_CHECK_KIND(
        e->built || !e->option.empty(), device, call, ": the ", e->title,
        " backend is not part of this version of burn (no CMake option builds it yet); this build has ",
        list_backends());
    BURN_CHECK_KIND(e->built, device, call, ": ", e->title, " backend not built; reconfigure with -D",
                    e->option, "=ON");
    if (n <= 0) {
        const std::string why = e->unavailable_reason ? e->unavailable_reason() : std::string("none found");
        BURN_THROW_KIND(device, call, ": no ", e->title, " device is available (", why, ")");
    }
    BURN_CHECK_KIND(index <= 0xffff, device, call, ": device indices above 65535 are not supported");
    BURN_THROW_KIND(device, call, ": this machine has ", n, " ", e->title, " device(s), ", name, ":0 to ",
                    name, ":", n - 1);
}

Device Device::parse(std::string_view s) {
    // Decorators wrap the base: "autodiff(lazy(cuda:0))" is cuda:0 with lazy, then autodiff.
    std::vector<std::string_view> decorators;
    while (!s.empty() && s.back() == ')') {
        const auto open = s.find('(');
        BURN_CHECK_KIND(open != std::string_view::npos, device, "'", s, "' is not a device");
        decorators.push_back(s.substr(0, open));
        s = s.substr(open + 1, s.size() - open - 2);
    }
    std::string_view name = s;
    int index = 0;
    const auto colon = s.find(':');
    if (colon != std::string_view::npos) {
        name = s.substr(0, colon);
        const std::string digits(s.substr(colon + 1));
        BURN_CHECK_KIND(!digits.empty() && digits.size() <= 5 &&
                            digits.find_first_not_of("0123456789") == std::string::npos,
                        device, "'", s, "' is not a device; use cpu, cuda:N or another backend's name:N");
        index = std::stoi(digits);
    }
    BURN_CHECK_KIND(!name.empty(), device, "'", s,
                    "' is not a device; use cpu, cuda:N or another backend's name:N");
    Device d = of(name, index);
    for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) d = d.decorate(*it);
    return d;
}

std::vector<Device> Device::available() {
    std::vector<Device> out;
    for (int id = 0; id < num_backends(); ++id) {
        const BackendEntry& e = backend_entry(id);
        if (!e.built) continue;
        const int n = std::min(e.device_count(), 0x10000);
        for (int i = 0; i < n; ++i) out.push_back(Device(id, i));
    }
    return out;
}

Device Device::decorate(std::string_view name) const {
    const int id = find_decorator(name);
    BURN_CHECK_KIND(id >= 0, device, "[", name, "] no decorator named '", name, "' is registered");
    BURN_CHECK_KIND(!has_decorator(name), device, "[", name, "] ", *this, " already carries the ", name,
                    " decorator; stacking it twice is not supported (call .inner() or .below() first)");
    BURN_CHECK_KIND(depth_ < kMaxDecorators, device, "[", name, "] ", *this, " already has ", kMaxDecorators,
                    " decorators, the most a device can carry");
    Device d = *this;
    d.decorators_[d.depth_++] = static_cast<uint8_t>(id);
    return d;
}

bool Device::has_decorator(std::string_view name) const {
    for (int i = 0; i < depth_; ++i)
        if (decorator_entry(decorators_[i]).name == name) return true;
    return false;
}

std::vector<std::string_view> Device::decorators() const {
    std::vector<std::string_view> out;
    for (int i = 0; i < depth_; ++i) out.push_back(decorator_entry(decorators_[i]).name);
    return out;
}

Device Device::below() const {
    Device d = *this;
    if (d.depth_ > 0) d.decorators_[--d.depth_] = 0;
    return d;
}

Device Device::autodiff() const {
    return decorate("autodiff");
}

Device Device::autocast(DType low) const {
    return autocast::decorate(*this, low);
}

Device Device::lazy() const {
    return decorate("lazy");
}

bool Device::is_lazy() const {
    return depth_ > 0 && has_decorator("lazy");
}

bool Device::is_autodiff() const {
    return depth_ > 0 && has_decorator("autodiff");
}

Device Device::inner() const {
    Device d = base();
    for (int i = 0; i < depth_; ++i)
        if (decorator_entry(decorators_[i]).name != "autodiff") d.decorators_[d.depth_++] = decorators_[i];
    return d;
}

std::string_view Device::backend_name() const {
    return backend_entry(backend_).name;
}

uint64_t Device::key() const {
    uint64_t k = backend_;
    k = (k << 8) | depth_;
    for (int i = 0; i < kMaxDecorators; ++i) k = (k << 8) | decorators_[i];
    return (k << 16) | index_;
}

void Device::seed(uint64_t seed) const {
    RngRegistry& r = rng_registry();
    platform::Lock lock(r.mutex);
    r.rng[base().key()] = RngState{seed, 0};
}

void Device::sync() const {
    backend().sync();
}

void Device::flush() const {
    // Outermost first: a decorator's flush may queue work on the level below (lazy under autodiff).
    for (Device d = *this;; d = d.below()) {
        d.backend().flush();
        if (d.num_decorators() == 0) break;
    }
}

void Device::memory_cleanup() const {
    sync();
    const Device b = base();
    b.backend().memory_cleanup(b);
}

bool Device::supports_dtype(DType dtype) const {
    const Device b = base();
    return b.backend().supports_dtype(b, dtype);
}

std::string Device::str() const {
    return detail::to_text(*this);
}

std::ostream& operator<<(std::ostream& os, const Device& d) {
    return os << detail::to_text(d);
}

detail::Text& operator<<(detail::Text& os, const Device& d) {
    const auto decorators = d.decorators();
    for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) os << *it << '(';
    const BackendEntry& e = backend_entry(d.backend_id());
    os << e.name;
    if (e.indexed) os << ':' << d.index();
    for (std::size_t i = 0; i < decorators.size(); ++i) os << ')';
    return os;
}

void set_num_threads(int n) {
    platform::set_threads(n);
}
int num_threads() {
    return platform::threads();
}

namespace detail {

RandomStream next_random(const Device& device, int64_t count) {
    // A thread's GeneratorScope takes precedence over the device's shared stream.
    if (Generator* g = current_generator()) {
        auto draw = g->reserve(static_cast<uint64_t>(count));
        return RandomStream{draw.key, draw.offset};
    }
    RngRegistry& r = rng_registry();
    platform::Lock lock(r.mutex);
    RngState& s = r.rng[device.base().key()];
    RandomStream out{s.seed, s.offset};
    s.offset += static_cast<uint64_t>(count);
    return out;
}

}  // namespace detail

}  // namespace burn
