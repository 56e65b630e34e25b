#pragma once
// Frontend of the attention rows beyond the public ops::attention (module_ops.hpp): the forward with
// its per-row logsumexp, and the fused adjoint. Private to the library and its tests.
#include <array>
#include <optional>

#include "burn/tensor/module_ops.hpp"

namespace burn::ops {

/// {out, lse} of the attention row: out as ops::attention, lse [..., Lq] = the logsumexp of each
/// scaled, masked score row, in the statistics dtype (f32 for f16/bf16 inputs; -inf for a row with no
/// key left).
std::array<TensorAny, 2> attention_lse(TensorAny q, TensorAny k, TensorAny v,
                                       std::optional<TensorAny> mask = std::nullopt, bool causal = false,
                                       std::optional<double> scale = std::nullopt);

/// {dq, dk, dv} of attention from the output gradient g, the forward's inputs and its {out, lse}. mask
/// is the row's (the scores' rank, as attention recorded it); scale the one attention used.
std::array<TensorAny, 3> attention_backward(TensorAny g, TensorAny q, TensorAny k, TensorAny v, TensorAny out,
                                            TensorAny lse, std::optional<TensorAny> mask, bool causal,
                                            double scale);

}  // namespace burn::ops
