#pragma once
// Per-channel parameters broadcast over [N, C, ...]: shared by the batch, group and instance norms.
#include "burn/tensor/ops.hpp"

namespace burn::nn::detail {

/// v [c] -> [1, c, 1, ...] matching rank, for broadcasting over dim 1.
inline TensorAny channel_view(const TensorAny& v, int rank) {
    Dims s = Dims::filled(rank, 1);
    s[1] = v.shape()[0];
    return ops::reshape(v, s);
}

}  // namespace burn::nn::detail
