#pragma once
/// Adam and AdamW (burn's names and defaults; torch.optim.Adam / AdamW update equations).
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"
#include "burn/optim/sgd.hpp"  // SgdConfig lived here first

namespace burn::optim {

/// Adam. weight_decay is the L2 penalty added to the gradient (torch.optim.Adam's weight_decay).
/// State per parameter: exp_avg, exp_avg_sq, step. epsilon defaults to burn's 1e-5 (torch: 1e-8).
struct AdamConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.999;
    double epsilon = 1e-5;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(AdamConfig, beta_1, beta_2, epsilon, weight_decay, grad_clipping_norm, grad_clipping_value,
                grad_clipping_global_norm)
};

/// AdamW: decoupled weight decay (p *= 1 - lr * weight_decay before the Adam update), optionally
/// AMSGrad (the running maximum of exp_avg_sq, state max_exp_avg_sq, normalises the update).
/// cautious_weight_decay (burn's; Chen et al. 2025, arXiv 2510.12402) applies the decay only to the
/// elements whose parameter and new exp_avg have the same sign (>= 0 counts as positive).
struct AdamWConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.999;
    double epsilon = 1e-5;
    double weight_decay = 1e-4;
    bool amsgrad = false;
    bool cautious_weight_decay = false;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(AdamWConfig, beta_1, beta_2, epsilon, weight_decay, amsgrad, cautious_weight_decay,
                grad_clipping_norm, grad_clipping_value, grad_clipping_global_norm)
};

}  // namespace burn::optim
