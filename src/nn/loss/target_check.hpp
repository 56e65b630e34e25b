#pragma once
// The check shared by the losses with a 1 / -1 target of the input's shape (HingeEmbeddingLoss,
// MarginRankingLoss, SoftMarginLoss): library-private.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss::detail {

/// Checks that x is a defined Float tensor and y a defined Float or Int tensor of x's shape; returns y
/// in x's dtype (name for errors).
inline TensorAny float_target(const TensorAny& x, const TensorAny& y, const char* name) {
    BURN_CHECK(x.defined() && y.defined(), "[", name, "] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[", name, "] input must be Float, got ", x.dtype());
    BURN_CHECK_KIND(is_float(y.dtype()) || is_int(y.dtype()), dtype, "[", name,
                    "] target must be Float or Int (1 / -1), got ", y.dtype());
    BURN_CHECK_KIND(x.shape() == y.shape(), shape, "[", name, "] input ", x.shape(), " and target ",
                    y.shape(), " differ in shape; give one target (1 / -1) per element");
    return ops::cast(y, x.dtype());
}

}  // namespace burn::nn::loss::detail
