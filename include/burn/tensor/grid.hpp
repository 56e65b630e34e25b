#pragma once
/// Coordinate grids (burn::grid): meshgrid of N vectors. Tensor<D, Int>::cartesian_grid is in tensor.hpp.
#include <array>
#include <cstddef>
#include <vector>

#include "burn/tensor/tensor.hpp"

namespace burn::grid {

/// Matrix ("ij", torch's default): output dim i follows input i. Cartesian ("xy", numpy's default):
/// the first two dims are swapped.
enum class GridIndexing { Matrix, Cartesian };

/// N vectors -> N tensors of rank N, each its vector broadcast along the other dims (expanded views,
/// no copy).
template <std::size_t N, class K = Float>
std::array<Tensor<N, K>, N> meshgrid(const std::array<Tensor<1, K>, N>& xs,
                                     GridIndexing indexing = GridIndexing::Matrix) {
    std::vector<TensorAny> in;
    in.reserve(N);
    for (const auto& x : xs) in.push_back(x.handle());
    std::vector<TensorAny> out = ops::meshgrid(in, indexing == GridIndexing::Cartesian);
    std::array<Tensor<N, K>, N> r;
    for (std::size_t i = 0; i < N; ++i) r[i] = Tensor<N, K>(std::move(out[i]));
    return r;
}

/// Where meshgrid_stack puts the coordinate index: a new first dim or a new last dim.
enum class IndexPos { First, Last };

/// The matrix-indexed meshgrid of N vectors stacked into one tensor of rank N + 1 (burn's
/// meshgrid_stack): [N, n0, n1, ...] with IndexPos::First, [n0, n1, ..., N] with IndexPos::Last.
template <std::size_t N, class K = Float>
Tensor<N + 1, K> meshgrid_stack(const std::array<Tensor<1, K>, N>& xs, IndexPos index_pos = IndexPos::First) {
    std::vector<TensorAny> in;
    in.reserve(N);
    for (const auto& x : xs) in.push_back(x.handle());
    return Tensor<N + 1, K>(ops::meshgrid_stack(in, index_pos == IndexPos::Last));
}

}  // namespace burn::grid
