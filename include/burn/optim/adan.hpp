#pragma once
/// Adan (Xie et al. 2022, "Adan: Adaptive Nesterov Momentum Algorithm for Faster Optimizing Deep
/// Models") with burn 0.22's update rule and defaults; torch 1.13 has none.
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// With d = g - g_prev (0 at the first step):
///   exp_avg = beta_1 * exp_avg + (1 - beta_1) * g
///   exp_avg_diff = beta_2 * exp_avg_diff + (1 - beta_2) * d
///   exp_avg_sq = beta_3 * exp_avg_sq + (1 - beta_3) * (g + beta_2 * d)^2
///   update = (exp_avg / (1 - beta_1^t) + beta_2 * exp_avg_diff / (1 - beta_2^t)) / denom,
///   denom = sqrt(exp_avg_sq) / sqrt(1 - beta_3^t) + epsilon
/// then the proximal weight decay p = (p - lr * update) / (1 + lr * weight_decay), or with no_prox the
/// decoupled p = p * (1 - lr * weight_decay) - lr * update. The betas are decay rates (burn's
/// convention; the paper's beta_k are 1 - these). State: exp_avg, exp_avg_sq, exp_avg_diff, pre_grad,
/// step.
struct AdanConfig {
    double beta_1 = 0.98;
    double beta_2 = 0.92;
    double beta_3 = 0.99;
    double epsilon = 1e-8;
    double weight_decay = 0.0;
    bool no_prox = false;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(AdanConfig, beta_1, beta_2, beta_3, epsilon, weight_decay, no_prox, grad_clipping_norm,
                grad_clipping_value, grad_clipping_global_norm)
};

}  // namespace burn::optim
