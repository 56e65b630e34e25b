#pragma once
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn::loss {

/// How a loss reduces its per-element values: Mean and Auto average, Sum adds.
enum class Reduction { Mean, Sum, Auto };
BURN_ENUM(Reduction, Mean, Sum, Auto)

/// Applies reduction to per-element losses, giving shape [1].
TensorAny reduce(TensorAny losses, Reduction reduction);

}  // namespace burn::nn::loss
