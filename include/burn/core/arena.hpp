#pragma once
/// The static memory arena of a bare-metal build (docs/embedded.md). When burn_core is built with
/// BURN_ARENA_BYTES > 0 (a CMake cache variable), every allocation of the library and of the program
/// that links it (tensor storage, operator new, so std::vector and shared_ptr too) comes from one
/// array of that many bytes in .bss: nothing grows after start-up and nothing runs past the array. An
/// allocation that does not fit calls the error handler with a message naming the op and the sizes.
/// With BURN_ARENA_BYTES = 0 (the default) memory comes from the C library and the figures are 0.
#include <cstddef>

namespace burn {

struct ArenaStats {
    std::size_t capacity = 0;      ///< BURN_ARENA_BYTES
    std::size_t in_use = 0;        ///< bytes of live blocks, headers included
    std::size_t peak = 0;          ///< the most in_use has been since start-up (or reset_arena_peak)
    std::size_t largest_free = 0;  ///< the largest block an allocation could get now
    std::size_t allocations = 0;   ///< allocations served since start-up
};

ArenaStats arena_stats();
/// Restarts the peak from what is in use now (to measure one phase, such as one inference).
void reset_arena_peak();

}  // namespace burn
