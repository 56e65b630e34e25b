#pragma once
// Frontend of the fused normalisation and loss ops (ops.def family nn): layer_norm and cross_entropy
// and their adjoints. Private to the library and its tests: users reach them through nn::LayerNorm,
// nn::loss::CrossEntropyLoss and the public ops::layer_norm / ops::cross_entropy (module_ops.hpp).
#include <array>
#include <optional>

#include "burn/tensor/module_ops.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::ops {

/// The dtype of the statistics (mean, rstd, lse): f32 for f16/bf16 inputs, the input's dtype otherwise.
DType fused_stat_dtype(DType d);

/// {y, mean [rows], rstd [rows]}: y = (x - mean) * rstd * gamma + beta over the last dim (D), with the
/// biased variance and rstd = 1 / sqrt(var + eps). gamma and beta are [D] of x's dtype.
/// rms: RMSNorm instead (no centring: mean is 0 and rstd = 1 / sqrt(mean(x^2) + eps)).
std::array<TensorAny, 3> layer_norm_stats(TensorAny x, std::optional<TensorAny> gamma,
                                          std::optional<TensorAny> beta, double eps, bool rms = false);
// layer_norm (y only) and cross_entropy (the per-row loss) are public: burn/tensor/module_ops.hpp.
/// {dx, dgamma, dbeta} of layer_norm (dgamma, dbeta: column sums over the rows, [0] unless want_params).
std::array<TensorAny, 3> layer_norm_backward(TensorAny g, TensorAny x, TensorAny mean, TensorAny rstd,
                                             std::optional<TensorAny> gamma, bool want_params,
                                             bool rms = false);

/// {loss [N], lse [N]} of logits [N, C] and class indices [N] (any Int dtype, each in [0, C): an
/// IndexError otherwise): loss = lse - (1 - s) * logits[t] - s * mean(logits), lse = logsumexp of the row,
/// s = label smoothing in [0, 1]. The loss has the logits' dtype.
std::array<TensorAny, 2> cross_entropy_rows(TensorAny logits, TensorAny targets, double smoothing = 0);
/// dlogits = (softmax(logits) - (1 - s) * onehot(targets) - s / C) * g[row].
TensorAny cross_entropy_backward(TensorAny g, TensorAny logits, TensorAny targets, TensorAny lse,
                                 double smoothing);

}  // namespace burn::ops
