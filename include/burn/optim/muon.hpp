#pragma once
/// Muon (Keller Jordan 2024, "Muon: An optimizer for hidden layers in neural networks") with burn
/// 0.22's update rule and defaults; torch 1.13 has none. For 2-D weight matrices only: optimize
/// biases, norms and embeddings with AdamW (freeze them for the Muon optimizer, or give them to a
/// second optimizer).
#include <array>
#include <cstddef>
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// How Muon scales the learning rate of an [A, B] matrix: original (Keller Jordan's,
/// sqrt(max(1, A / B))) or match_rms_adamw (Moonshot's, 0.2 * sqrt(max(A, B)), to reuse AdamW's
/// learning rate and weight decay).
enum class MuonAdjustLr { original, match_rms_adamw };
BURN_ENUM(MuonAdjustLr, original, match_rms_adamw)

/// momentum_buffer = g at the first step, then momentum * momentum_buffer + (1 - dampening) * g; the
/// direction (Nesterov: g + momentum * momentum_buffer) is orthogonalised by ns_steps quintic
/// Newton-Schulz iterations X = a X + (b A + c A^2) X, A = X X^T, starting from X = G / max(|G|_F,
/// epsilon) in the wide orientation; then p = p * (1 - lr * weight_decay) - lr * adjust(shape) * X.
/// State: momentum_buffer.
struct MuonConfig {
    double momentum = 0.95;
    double dampening = 0.0;
    bool nesterov = true;
    double weight_decay = 0.0;
    std::array<double, 3> ns_coefficients{3.4445, -4.775, 2.0315};
    double epsilon = 1e-7;
    std::size_t ns_steps = 5;
    MuonAdjustLr adjust_lr_fn = MuonAdjustLr::original;
    Optimizer init() const;
    BURN_CONFIG(MuonConfig, momentum, dampening, nesterov, weight_decay, ns_coefficients, epsilon, ns_steps,
                adjust_lr_fn)
};

/// The Newton-Schulz orthogonalisation Muon applies to a 2-D update (exposed for tests and reuse).
TensorAny muon_newton_schulz(TensorAny g, const std::array<double, 3>& coefficients, std::size_t steps,
                             double epsilon);

}  // namespace burn::optim
