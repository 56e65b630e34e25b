#pragma once
/// Slice arguments: a.slice({all, {0, 2}, {1, std::nullopt, 2}, 3}).
/// A range is [start, end) with negative values counting from the end; a negative step walks the
/// same range backwards (burn's rule); a single index i means {i, i + 1}.
#include <cstdint>
#include <optional>

namespace burn {

struct AllT {
    explicit constexpr AllT(int) {}
};
/// The whole dimension.
inline constexpr AllT all{0};

struct SliceArg {
    int64_t start = 0;
    std::optional<int64_t> end;  // nullopt: to the end
    int64_t step = 1;
    bool single = false;  // a single index (kept as a dimension of size 1)

    constexpr SliceArg(AllT) {}  // NOLINT: implicit by design
    // end is index + 1 where that does not overflow; slice() recomputes it from the normalised index.
    constexpr SliceArg(int64_t index)  // NOLINT
        : start(index),
          end(index == -1 || index == INT64_MAX ? std::nullopt : std::optional<int64_t>(index + 1)),
          single(true) {}
    constexpr SliceArg(int64_t start_, std::optional<int64_t> end_, int64_t step_ = 1)
        : start(start_), end(end_), step(step_) {}
};

/// A normalised range on one dimension: in-bounds start and end, non-zero step.
struct SliceRange {
    int64_t start = 0, end = 0, step = 1;
    /// The number of elements selected.
    /// Overflow-free for any step (INT64_MIN and INT64_MAX included): unsigned span and magnitude.
    int64_t length() const {
        if (end <= start) return 0;
        const uint64_t span = static_cast<uint64_t>(end) - static_cast<uint64_t>(start);
        const uint64_t s = step < 0 ? 0 - static_cast<uint64_t>(step) : static_cast<uint64_t>(step);
        return static_cast<int64_t>((span - 1) / s + 1);
    }
};

}  // namespace burn
