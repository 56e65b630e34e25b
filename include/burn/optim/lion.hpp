#pragma once
/// Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms"); torch 1.13 has none, the
/// fixtures follow the paper's algorithm.
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// p *= 1 - lr * weight_decay (decoupled); p -= lr * sign(beta_1 * exp_avg + (1 - beta_1) * g);
/// exp_avg = beta_2 * exp_avg + (1 - beta_2) * g. Use a learning rate 3-10x smaller than AdamW's.
struct LionConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.99;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(LionConfig, beta_1, beta_2, weight_decay, grad_clipping_norm, grad_clipping_value,
                grad_clipping_global_norm)
};

}  // namespace burn::optim
