// The device registry: fixed tables written under a lock and read without one (an entry is complete
// before the count that publishes it grows), so Device::backend() on every op costs two loads.
#include <array>
#include <atomic>

#include "burn/backend/backend.hpp"
#include "burn/backend/registry.hpp"
#include "burn/core/error.hpp"
#include "platform/sync.hpp"

namespace burn {

namespace {

constexpr int kMaxEntries = 32;  // ids are bytes in Device; 32 of each is plenty

template <class Entry>
struct Table {
    std::array<Entry, kMaxEntries> entries{};
    std::atomic<int> count{0};
};

struct Registry {
    platform::Mutex mutex;  // writers only
    Table<BackendEntry> backends;
    Table<DecoratorEntry> decorators;
};

template <class Entry>
int find(const Table<Entry>& t, std::string_view name) {
    const int n = t.count.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
        if (t.entries[static_cast<std::size_t>(i)].name == name) return i;
    return -1;
}

template <class Entry>
int append(Table<Entry>& t, const Entry& e, const char* what) {
    const int n = t.count.load(std::memory_order_relaxed);
    BURN_CHECK(n < kMaxEntries, "[", what, "] the registry is full (", kMaxEntries, " entries); cannot add '",
               e.name, "'");
    t.entries[static_cast<std::size_t>(n)] = e;
    t.count.store(n + 1, std::memory_order_release);
    return n;
}

void check_backend(const BackendEntry& e) {
    BURN_CHECK(!e.name.empty(), "[register_backend] the entry has no name");
    BURN_CHECK(!e.built || (e.device_count && e.backend), "[register_backend] '", e.name,
               "' is marked built but has no device_count or backend function");
}

int add_backend(Registry& r, const BackendEntry& e) {
    check_backend(e);
    const int at = find(r.backends, e.name);
    if (at < 0) return append(r.backends, e, "register_backend");
    BackendEntry& old = r.backends.entries[static_cast<std::size_t>(at)];
    BURN_CHECK(!old.built || !e.built, "[register_backend] a backend named '", e.name,
               "' is already registered");
    if (e.built) old = e;  // a real backend replaces its placeholder (the id stays)
    return at;
}

int add_decorator(Registry& r, const DecoratorEntry& e) {
    BURN_CHECK(!e.name.empty() && e.backend,
               "[register_decorator] the entry needs a name and a backend function");
    BURN_CHECK(find(r.decorators, e.name) < 0, "[register_decorator] a decorator named '", e.name,
               "' is already registered");
    return append(r.decorators, e, "register_decorator");
}

[[gnu::noinline]] Registry* make_registry() {
    auto* reg = new Registry();  // lives for the whole process
    std::vector<BackendEntry> backends;
    std::vector<DecoratorEntry> decorators;
    detail::builtin_components(backends, decorators);
    for (const auto& b : backends) add_backend(*reg, b);
    for (const auto& d : decorators) add_decorator(*reg, d);
    BURN_CHECK(find(reg->backends, "cpu") == 0, "[registry] the CPU backend must be registered first");
    return reg;
}

Registry& registry() {
    static Registry* r = make_registry();  // read on every op (Device::backend()): inline, one guard
    return *r;
}

}  // namespace

int register_backend(const BackendEntry& entry) {
    Registry& r = registry();
    platform::Lock lock(r.mutex);
    return add_backend(r, entry);
}

int register_decorator(const DecoratorEntry& entry) {
    Registry& r = registry();
    platform::Lock lock(r.mutex);
    return add_decorator(r, entry);
}

int num_backends() {
    return registry().backends.count.load(std::memory_order_acquire);
}
int num_decorators() {
    return registry().decorators.count.load(std::memory_order_acquire);
}

namespace {
// The lookups below run on every op (Device::backend()): their errors are built out of line.
[[noreturn, gnu::noinline, gnu::cold]] void throw_no_entry(const char* what, int id) {
    BURN_THROW("[registry] no ", what, " with id ", id);
}

template <class Entry>
const Entry& entry_at(const Table<Entry>& t, int id, const char* what) {
    if (id < 0 || id >= t.count.load(std::memory_order_acquire)) [[unlikely]]
        throw_no_entry(what, id);
    return t.entries[static_cast<std::size_t>(id)];
}
}  // namespace

const BackendEntry& backend_entry(int id) {
    return entry_at(registry().backends, id, "backend");
}

const DecoratorEntry& decorator_entry(int id) {
    return entry_at(registry().decorators, id, "decorator");
}

namespace {
/// The backends of devices 0..kCachedIndices-1 of each registered backend, resolved once: an entry is
/// fixed once built (a placeholder, which has no backend function, is the only entry ever replaced)
/// and its function returns one backend per index.
constexpr int kCachedIndices = 16;
std::atomic<Backend*> g_backends[kMaxEntries][kCachedIndices] = {};

// A decorated device's backend is asked on every op, once per level of its stack (autodiff(lazy(cuda))
// asks for the autodiff one, which asks for the lazy one): each thread remembers the last few it was
// given (a decorator's backend lives for the process, registry.hpp) so that the entries' own lookups
// (a lock and a map) run once per device and thread.
[[gnu::noinline]] Backend& decorated_backend(const Device& device, int decorator) {
    struct Slot {
        uint64_t key = 0;
        Backend* backend = nullptr;
    };
    constexpr unsigned kSlots = 4;
    static BURN_THREAD_LOCAL Slot cache[kSlots];
    static BURN_THREAD_LOCAL unsigned next = 0;
    const uint64_t key = device.key();
    for (const Slot& s : cache)
        if (s.backend && s.key == key) return *s.backend;
    Backend& b = decorator_entry(decorator).backend(device);
    cache[next++ % kSlots] = Slot{key, &b};
    return b;
}

[[gnu::noinline]] Backend& resolve_backend(int id, int index) {
    Backend& b = backend_entry(id).backend(index);
    if (id < kMaxEntries && index < kCachedIndices)
        g_backends[id][index].store(&b, std::memory_order_release);
    return b;
}
}  // namespace

// Defined beside the tables (not in device.cpp): it runs on every op.
Backend& Device::backend() const {
    if (depth_ == 0 && backend_ < kMaxEntries && index_ < kCachedIndices)
        if (Backend* b = g_backends[backend_][index_].load(std::memory_order_acquire)) return *b;
    if (depth_ > 0) return decorated_backend(*this, decorators_[depth_ - 1]);
    return resolve_backend(backend_, index_);
}

DeviceStats device_stats(const Device& device) {
    const Device base = device.base();
    return base.backend().stats(base);
}

int find_backend(std::string_view name) {
    return find(registry().backends, name);
}
int find_decorator(std::string_view name) {
    return find(registry().decorators, name);
}

}  // namespace burn
