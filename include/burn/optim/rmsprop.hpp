#pragma once
/// RMSProp (torch.optim.RMSprop's update equations; burn's defaults).
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// square_avg = alpha * square_avg + (1 - alpha) * g^2; centered subtracts grad_avg^2 (the running
/// mean of g) under the square root; momentum > 0 accumulates g / (sqrt(...) + epsilon) in
/// momentum_buffer. weight_decay is the L2 penalty added to the gradient. epsilon: burn's 1e-5
/// (torch: 1e-8).
struct RmsPropConfig {
    double alpha = 0.99;
    double epsilon = 1e-5;
    bool centered = false;
    double momentum = 0.0;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(RmsPropConfig, alpha, epsilon, centered, momentum, weight_decay, grad_clipping_norm,
                grad_clipping_value, grad_clipping_global_norm)
};

}  // namespace burn::optim
