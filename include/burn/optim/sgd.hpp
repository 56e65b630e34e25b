#pragma once
/// Stochastic gradient descent with momentum, dampening, Nesterov momentum and weight decay
/// (torch.optim.SGD's update equations).
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

/// weight_decay is the L2 penalty added to the gradient. With momentum, the first step stores the
/// gradient itself in momentum_buffer (no dampening), as torch does. Nesterov needs momentum > 0 and
/// dampening 0.
struct SgdConfig {
    double momentum = 0.0;
    double dampening = 0.0;
    bool nesterov = false;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    std::optional<double> grad_clipping_global_norm;
    Optimizer init() const;
    BURN_CONFIG(SgdConfig, momentum, dampening, nesterov, weight_decay, grad_clipping_norm,
                grad_clipping_value, grad_clipping_global_norm)
};

}  // namespace burn::optim
