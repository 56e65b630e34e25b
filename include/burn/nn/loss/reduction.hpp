#pragma once
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn::loss {

/// How a loss reduces its per-element values: Mean and Auto average, Sum adds, BatchMean adds and
/// divides by the size of dim 0 (KLDivLoss's Auto, the mathematical KL divergence per sample).
enum class Reduction { Mean, Sum, Auto, BatchMean };
BURN_ENUM(Reduction, Mean, Sum, Auto, BatchMean)

/// Applies reduction to per-element losses, giving shape [1].
TensorAny reduce(TensorAny losses, Reduction reduction);

namespace detail {
/// Checks that predictions a and targets b are defined Float tensors of one shape (name for errors).
void check_pair(const TensorAny& a, const TensorAny& b, const char* name);
}  // namespace detail

}  // namespace burn::nn::loss
