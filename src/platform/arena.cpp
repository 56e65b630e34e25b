#include "platform/arena.hpp"

#include <cstdio>
#include <cstring>
#include <new>

#include "burn/build_config.hpp"
#include "burn/core/error.hpp"

namespace burn::platform {

namespace {
constexpr std::size_t round16(std::size_t n) {
    return (n + 15) / 16 * 16;
}
}  // namespace

Arena::Arena(void* memory, std::size_t bytes)
    : begin_(static_cast<uint8_t*>(memory)), end_(static_cast<uint8_t*>(memory) + bytes / 16 * 16) {
    if (end_ - begin_ >= static_cast<std::ptrdiff_t>(2 * kHeader)) {
        *at(0) = Header{static_cast<uint32_t>(end_ - begin_), 0, 0, 0};
    } else {
        end_ = begin_;
    }
}

Arena::Header* Arena::next(Header* h) const {
    uint8_t* n = reinterpret_cast<uint8_t*>(h) + h->size;
    return n < end_ ? reinterpret_cast<Header*>(n) : nullptr;
}

Arena::Header* Arena::prev(Header* h) const {
    return h->prev_size ? reinterpret_cast<Header*>(reinterpret_cast<uint8_t*>(h) - h->prev_size) : nullptr;
}

void Arena::set_size(Header* h, std::size_t size) {
    h->size = static_cast<uint32_t>(size);
    if (Header* n = next(h)) n->prev_size = h->size;
}

void* Arena::allocate(std::size_t alignment, std::size_t bytes) {
    if (alignment < 16) alignment = 16;
    const std::size_t span = static_cast<std::size_t>(end_ - begin_);
    if (bytes > span || alignment > span) return nullptr;
    const std::size_t need = round16(bytes ? bytes : 1) + kHeader;
    for (Header* h = begin_ < end_ ? at(0) : nullptr; h; h = next(h)) {
        if (h->used) continue;
        const auto payload = reinterpret_cast<std::uintptr_t>(h) + kHeader;
        const std::size_t pad = ((payload + alignment - 1) & ~(alignment - 1)) - payload;  // a multiple of 16
        if (pad + need > h->size) continue;
        if (pad) {  // the padding becomes a free block of its own (or joins the free block before it)
            const std::size_t rest = h->size - pad;
            Header* before = prev(h);
            auto* moved = reinterpret_cast<Header*>(reinterpret_cast<uint8_t*>(h) + pad);
            if (before && !before->used) {
                *moved = Header{static_cast<uint32_t>(rest), static_cast<uint32_t>(before->size + pad), 0, 0};
                set_size(before, before->size + pad);
            } else {
                *moved = Header{static_cast<uint32_t>(rest), static_cast<uint32_t>(pad), 0, 0};
                h->size = static_cast<uint32_t>(pad);
            }
            set_size(moved, rest);
            h = moved;
        }
        if (h->size - need >= 2 * kHeader) {  // split off the tail
            const std::size_t tail = h->size - need;
            auto* t = reinterpret_cast<Header*>(reinterpret_cast<uint8_t*>(h) + need);
            *t = Header{static_cast<uint32_t>(tail), static_cast<uint32_t>(need), 0, 0};
            set_size(t, tail);
            h->size = static_cast<uint32_t>(need);
        }
        h->used = 1;
        in_use_ += h->size;
        if (in_use_ > peak_) peak_ = in_use_;
        ++allocations_;
        return reinterpret_cast<uint8_t*>(h) + kHeader;
    }
    return nullptr;
}

void Arena::release(void* p) {
    if (!p) return;
    auto* h = reinterpret_cast<Header*>(static_cast<uint8_t*>(p) - kHeader);
    h->used = 0;
    in_use_ -= h->size;
    if (Header* n = next(h); n && !n->used) set_size(h, h->size + n->size);
    if (Header* b = prev(h); b && !b->used) set_size(b, b->size + h->size);
}

ArenaStats Arena::stats() const {
    ArenaStats s;
    s.capacity = static_cast<std::size_t>(end_ - begin_);
    s.in_use = in_use_;
    s.peak = peak_;
    s.allocations = allocations_;
    for (Header* h = begin_ < end_ ? at(0) : nullptr; h; h = next(h))
        if (!h->used && h->size - kHeader > s.largest_free) s.largest_free = h->size - kHeader;
    return s;
}

#if BURN_ARENA_BYTES > 0
namespace {
alignas(64) uint8_t g_memory[BURN_ARENA_BYTES];
// Built on first use (operator new may run before other static constructors), never destroyed.
alignas(Arena) uint8_t g_arena_storage[sizeof(Arena)];
Arena* g_arena = nullptr;
}  // namespace

Arena* global_arena() {
    if (!g_arena) g_arena = new (g_arena_storage) Arena(g_memory, sizeof g_memory);
    return g_arena;
}

void arena_exhausted(const char* op, std::size_t bytes) {
    // No allocation here: the arena is what ran out.
    static char message[320];
    const ArenaStats s = global_arena()->stats();
    std::snprintf(message, sizeof message,
                  "[%s] out of memory: %lu bytes do not fit the arena of %lu bytes (BURN_ARENA_BYTES): "
                  "%lu in use, largest free block %lu, peak %lu; raise BURN_ARENA_BYTES or use smaller "
                  "batches",
                  op, static_cast<unsigned long>(bytes), static_cast<unsigned long>(s.capacity),
                  static_cast<unsigned long>(s.in_use), static_cast<unsigned long>(s.largest_free),
                  static_cast<unsigned long>(s.peak));
    detail::throw_error_message(static_cast<int>(ErrorKind::generic), message);
}
#else
Arena* global_arena() {
    return nullptr;
}

void arena_exhausted(const char* op, std::size_t bytes) {
    BURN_THROW("[", op, "] out of memory allocating ", bytes, " bytes");
}
#endif

}  // namespace burn::platform

namespace burn {

ArenaStats arena_stats() {
    platform::Arena* a = platform::global_arena();
    return a ? a->stats() : ArenaStats{};
}

void reset_arena_peak() {
    if (platform::Arena* a = platform::global_arena()) a->reset_peak();
}

}  // namespace burn

#if BURN_ARENA_BYTES > 0
// Every C++ allocation of the program comes from the arena; one that does not fit calls the error
// handler (it never returns nullptr, as a throwing operator new must not).
namespace {
void* arena_new(std::size_t bytes, std::size_t alignment) {
    void* p = burn::platform::global_arena()->allocate(alignment, bytes);
    if (!p) burn::platform::arena_exhausted("operator new", bytes);
    return p;
}
}  // namespace
void* operator new(std::size_t n) {
    return arena_new(n, 16);
}
void* operator new[](std::size_t n) {
    return arena_new(n, 16);
}
void* operator new(std::size_t n, std::align_val_t a) {
    return arena_new(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return arena_new(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    return burn::platform::global_arena()->allocate(16, n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return burn::platform::global_arena()->allocate(16, n);
}
void operator delete(void* p) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete[](void* p) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete(void* p, std::size_t) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    burn::platform::global_arena()->release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    burn::platform::global_arena()->release(p);
}
#endif

#if BURN_ARENA_BYTES > 0 && defined(__NEWLIB__)
// newlib's allocations (stdio buffers, strdup, ...) come from the arena too, so that it is the only
// heap: malloc, free, calloc and realloc all end in these reentrant forms. They return nullptr when
// the arena is full, as C's malloc does.
#include <reent.h>
extern "C" {
void* _malloc_r(struct _reent*, std::size_t n) {
    return burn::platform::global_arena()->allocate(16, n);
}
void _free_r(struct _reent*, void* p) {
    burn::platform::global_arena()->release(p);
}
void* _calloc_r(struct _reent*, std::size_t count, std::size_t size) {
    std::size_t n = 0;
    if (__builtin_mul_overflow(count, size, &n)) return nullptr;
    void* p = burn::platform::global_arena()->allocate(16, n);
    if (p) std::memset(p, 0, n);
    return p;
}
void* _realloc_r(struct _reent*, void* p, std::size_t n) {
    burn::platform::Arena* a = burn::platform::global_arena();
    if (!p) return a->allocate(16, n);
    if (n == 0) {
        a->release(p);
        return nullptr;
    }
    const std::size_t old = a->usable_size(p);
    if (n <= old) return p;
    void* q = a->allocate(16, n);
    if (!q) return nullptr;
    std::memcpy(q, p, old);
    a->release(p);
    return q;
}
void* _memalign_r(struct _reent*, std::size_t alignment, std::size_t n) {
    return burn::platform::global_arena()->allocate(alignment, n);
}
}  // extern "C"
#endif
