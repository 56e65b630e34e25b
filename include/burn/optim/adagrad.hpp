#pragma once
/// AdaGrad (torch.optim.Adagrad's update equations; burn's defaults).
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// sum += g^2; p -= lr / (1 + (step - 1) * lr_decay) * g / (sqrt(sum) + epsilon). weight_decay is the
/// L2 penalty added to the gradient. epsilon: burn's 1e-5 (torch: 1e-10).
struct AdaGradConfig {
    double lr_decay = 0.0;
    double epsilon = 1e-5;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(AdaGradConfig, lr_decay, epsilon, weight_decay, grad_clipping_norm, grad_clipping_value,
                grad_clipping_global_norm)
};

}  // namespace burn::optim
