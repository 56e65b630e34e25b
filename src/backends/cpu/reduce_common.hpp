#pragma once
// Shared by the reduce, scan and softmax kernels: the [outer, n, inner] view of a contiguous tensor
// reduced (or scanned) along one dim, and the two parallel drivers over it.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "backends/common/reduce_geometry.hpp"
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

/// softmax and log_softmax (softmax.cpp), registered by register_reduce.
TensorRefs softmax_kernel(const OpCall& call, TensorRefs& in);
/// softmax_backward (softmax_backward.cpp), registered by register_reduce.
TensorRefs softmax_backward_kernel(const OpCall& call, TensorRefs& in);
/// masked_softmax (softmax_backward.cpp), registered by register_reduce.
TensorRefs masked_softmax_kernel(const OpCall& call, TensorRefs& in);

/// A contiguous tensor seen as [outer, n, inner] around the reduced dim.
using reduction::geometry;
using reduction::Geometry;

/// Columns per block when reducing along a non-last dim (rows of `inner` values).
inline constexpr int64_t kColBlock = 256;
/// A row of at least this many values, when there are few rows, is split across threads in chunks of it.
inline constexpr int64_t kRowSplit = int64_t{1} << 16;

/// Parallel grain (in units) so that a unit costing `cost` elements gets about kGrain elements per chunk.
inline int64_t grain_for(int64_t cost) {
    return std::max<int64_t>(1, kGrain / std::max<int64_t>(cost, 1));
}

template <class T>
inline bool is_nan_value(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        return std::isnan(v);
    } else {
        (void)v;
        return false;
    }
}

/// Reduces each row of a [rows, n] contiguous view. fold(row, begin, end) -> Acc folds a range of a
/// row, combine(a, b) merges ranges in order, emit(row, acc) writes the result. Long rows, when there
/// are too few to keep the threads busy, are split into kRowSplit chunks whose partials are combined in
/// order, so results do not depend on the thread count.
template <class Acc, class Fold, class Combine, class Emit>
void reduce_rows(int64_t rows, int64_t n, Fold&& fold, Combine&& combine, Emit&& emit) {
    if (rows <= 0) return;
    const int64_t splits = (rows < 64 && n >= 2 * kRowSplit) ? (n + kRowSplit - 1) / kRowSplit : 1;
    if (splits == 1) {
        platform::parallel_for(rows, grain_for(n), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) emit(r, fold(r, int64_t{0}, n));
        });
        return;
    }
    std::vector<Acc> partial(static_cast<std::size_t>(rows * splits));
    platform::parallel_for(rows * splits, 1, [&](int64_t b, int64_t e) {
        for (int64_t u = b; u < e; ++u) {
            const int64_t r = u / splits, s = u % splits;
            partial[static_cast<std::size_t>(u)] = fold(r, s * kRowSplit, std::min(n, (s + 1) * kRowSplit));
        }
    });
    for (int64_t r = 0; r < rows; ++r) {
        Acc acc = partial[static_cast<std::size_t>(r * splits)];
        for (int64_t s = 1; s < splits; ++s)
            acc = combine(acc, partial[static_cast<std::size_t>(r * splits + s)]);
        emit(r, acc);
    }
}

/// Visits [outer, n, inner] (inner > 1) in column blocks of at most `width`, in parallel:
/// block(o, j0, count) handles columns [j0, j0 + count) of outer slice o.
template <class Block>
void for_col_blocks(const Geometry& g, Block&& block, int64_t width = kColBlock) {
    const int64_t nb = (g.inner + width - 1) / width;
    const int64_t units = g.outer * nb;
    if (units <= 0) return;
    platform::parallel_for(units, grain_for(g.n * std::min(g.inner, width)), [&](int64_t b, int64_t e) {
        for (int64_t u = b; u < e; ++u) {
            const int64_t o = u / nb, j0 = (u % nb) * width;
            block(o, j0, std::min(width, g.inner - j0));
        }
    });
}

}  // namespace burn::cpu
