#pragma once
// A first-fit allocator over one caller-given block of memory (core/arena.hpp is the public face):
// address-ordered blocks with 16-byte headers, split on allocation, merged with free neighbours on
// release. Any alignment up to the block's own; peak use is tracked. Not thread-safe (it serves bare
// metal, where there is one thread). With BURN_ARENA_BYTES > 0, platform::aligned_alloc, operator new
// and (with newlib) the C library's malloc use the one global instance over a static array (arena.cpp).
#include <cstddef>
#include <cstdint>

#include "burn/core/arena.hpp"

namespace burn::platform {

class Arena {
  public:
    /// Manages [memory, memory + bytes); memory must be 16-byte aligned.
    Arena(void* memory, std::size_t bytes);
    /// `bytes` aligned to `alignment` (a power of two), or nullptr when no free block fits.
    void* allocate(std::size_t alignment, std::size_t bytes);
    /// Releases a block of this arena (nullptr is ignored).
    void release(void* p);
    bool owns(const void* p) const { return p >= begin_ && p < end_; }
    /// The bytes a live block of this arena can hold (at least what was asked for).
    std::size_t usable_size(const void* p) const {
        return reinterpret_cast<const Header*>(static_cast<const uint8_t*>(p) - kHeader)->size - kHeader;
    }
    ArenaStats stats() const;
    void reset_peak() { peak_ = in_use_; }

    static constexpr std::size_t kHeader = 16;

  private:
    struct Header {
        uint32_t size;       // of the whole block, header included; a multiple of 16
        uint32_t prev_size;  // of the block before it (0 for the first)
        uint32_t used;
        uint32_t pad;
    };
    Header* at(std::size_t offset) const { return reinterpret_cast<Header*>(begin_ + offset); }
    Header* next(Header* h) const;
    Header* prev(Header* h) const;
    void set_size(Header* h, std::size_t size);

    uint8_t* begin_;
    uint8_t* end_;
    std::size_t in_use_ = 0, peak_ = 0, allocations_ = 0;
};

/// The global arena (BURN_ARENA_BYTES > 0), nullptr otherwise.
Arena* global_arena();
/// Calls the error handler: `op` could not get `bytes` from the global arena (with its figures).
[[noreturn]] void arena_exhausted(const char* op, std::size_t bytes);

}  // namespace burn::platform
