#pragma once
/// Gradient clipping, applied to the gradients of one optimizer step before the optimizer's rule
/// (and so before any weight decay the rule adds), as torch.nn.utils.clip_grad_* does before
/// optimizer.step().
#include <vector>

#include "burn/tensor/tensor_any.hpp"

namespace burn::optim {

enum class ClipKind { none, value, norm, global_norm };

/// - Value(v): every element clamped into [-v, v] (torch.nn.utils.clip_grad_value_).
/// - Norm(n): burn's meaning, per parameter tensor: each gradient whose L2 norm exceeds n is scaled by
///   n / (norm + 1e-6) (clip_grad_norm_ called on that tensor alone).
/// - GlobalNorm(n): one L2 norm over the gradients of every parameter the step updates; all of them are
///   scaled by n / (total + 1e-6) when total exceeds n (torch.nn.utils.clip_grad_norm_(model.parameters())).
struct GradientClipping {
    ClipKind kind = ClipKind::none;
    double threshold = 0.0;

    static GradientClipping None() { return {}; }
    static GradientClipping Value(double v);
    static GradientClipping Norm(double n);
    static GradientClipping GlobalNorm(double n);

    /// Clips one gradient (value or per-tensor norm). GlobalNorm needs every gradient: use apply_all.
    TensorAny apply(TensorAny grad) const;
    /// Clips the gradients of one step together (any kind).
    void apply_all(std::vector<TensorAny>& grads) const;
};

/// The L2 norm of a tensor, accumulated in double.
double l2_norm(const TensorAny& t);

}  // namespace burn::optim
