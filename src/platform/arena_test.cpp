// platform::Arena (the static arena of bare-metal builds) against a plain model of the same memory: a
// seeded sequence of allocations and releases of random sizes and alignments, checking after each
// step that every live block is aligned, inside the arena and disjoint from the others, that the
// arena's figures (in use, peak) match the sum of the live blocks' footprints, that a request larger
// than the largest free block fails without touching memory, and that releasing everything merges the
// arena back into one block.
#include "platform/arena.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <vector>

namespace burn::platform {
namespace {

struct Live {
    std::size_t bytes;
    uint8_t fill;
};

std::size_t footprint(std::size_t bytes) {  // the block a request takes: payload rounded to 16 + header
    return (std::max<std::size_t>(bytes, 1) + 15) / 16 * 16 + Arena::kHeader;
}

TEST(Arena, RandomAllocationsStayAlignedDisjointAndInside) {
    alignas(64) static uint8_t memory[64 * 1024];
    Arena arena(memory, sizeof memory);
    std::mt19937 rng(17);
    std::map<uint8_t*, Live> live;
    std::size_t peak = 0, failures = 0;
    for (int step = 0; step < 4000; ++step) {
        if (live.empty() || rng() % 5 < 3) {
            const std::size_t bytes = rng() % 4 == 0 ? rng() % 8000 : rng() % 200;
            const std::size_t alignment = std::size_t(1) << (rng() % 7);  // 1 .. 64
            auto* p = static_cast<uint8_t*>(arena.allocate(alignment, bytes));
            if (!p) {
                ++failures;
                EXPECT_LT(arena.stats().largest_free, bytes + alignment + 16) << "a fitting request failed";
                continue;
            }
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % std::max<std::size_t>(alignment, 16), 0u);
            ASSERT_GE(p, memory);
            ASSERT_LE(p + bytes, memory + sizeof memory);
            for (const auto& [q, l] : live)
                ASSERT_TRUE(p + bytes <= q || q + l.bytes <= p) << "blocks overlap";
            const auto fill = static_cast<uint8_t>(rng());
            std::memset(p, fill, bytes);
            live[p] = {bytes, fill};
        } else {
            auto it = live.begin();
            std::advance(it, static_cast<long>(rng() % live.size()));
            for (std::size_t i = 0; i < it->second.bytes; ++i)
                ASSERT_EQ(it->first[i], it->second.fill) << "a block was overwritten by another";
            arena.release(it->first);
            live.erase(it);
        }
        std::size_t in_use = 0;
        for (const auto& [q, l] : live) in_use += footprint(l.bytes);
        const ArenaStats s = arena.stats();
        // Alignment padding may join a block to its neighbour's slack, so in_use can exceed the sum.
        ASSERT_GE(s.in_use, in_use);
        ASSERT_LE(s.in_use, sizeof memory);
        peak = std::max(peak, s.in_use);
        ASSERT_EQ(s.peak, peak);
    }
    EXPECT_GT(failures, 0u) << "the sequence should fill the arena at times";
    for (const auto& [q, l] : live) arena.release(q);
    const ArenaStats s = arena.stats();
    EXPECT_EQ(s.in_use, 0u);
    EXPECT_EQ(s.largest_free, sizeof memory - Arena::kHeader) << "free neighbours were not merged";
    EXPECT_NE(arena.allocate(16, sizeof memory - Arena::kHeader), nullptr);
}

TEST(Arena, RefusesWhatDoesNotFitAndKeepsItsFigures) {
    alignas(64) static uint8_t memory[4096];
    Arena arena(memory, sizeof memory);
    EXPECT_EQ(arena.allocate(16, sizeof memory), nullptr);
    EXPECT_EQ(arena.allocate(16, SIZE_MAX), nullptr);
    void* a = arena.allocate(64, 1000);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(arena.stats().in_use, footprint(1000));
    EXPECT_GE(arena.usable_size(a), 1000u);
    EXPECT_EQ(arena.allocate(16, 4000), nullptr);
    arena.reset_peak();
    arena.release(a);
    EXPECT_EQ(arena.stats().peak, footprint(1000));
    EXPECT_EQ(arena.stats().in_use, 0u);
}

}  // namespace
}  // namespace burn::platform
