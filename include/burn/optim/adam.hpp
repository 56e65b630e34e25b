#pragma once
/// Adam, AdamW and SGD configs (burn's names and defaults).
#include "burn/config/config.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::optim {

struct AdamConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.999;
    double epsilon = 1e-5;
    double weight_decay = 0.0;  // L2 penalty added to the gradient (torch.optim.Adam's weight_decay)
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    Optimizer init() const;
    BURN_CONFIG(AdamConfig, beta_1, beta_2, epsilon, weight_decay, grad_clipping_norm, grad_clipping_value)
};

struct AdamWConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.999;
    double epsilon = 1e-5;
    double weight_decay = 1e-4;  // decoupled: p -= lr * wd * p
    bool amsgrad = false;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    Optimizer init() const;
    BURN_CONFIG(AdamWConfig, beta_1, beta_2, epsilon, weight_decay, amsgrad, grad_clipping_norm,
                grad_clipping_value)
};

struct SgdConfig {
    double momentum = 0.0;
    double dampening = 0.0;
    bool nesterov = false;
    double weight_decay = 0.0;
    std::optional<double> grad_clipping_norm;
    std::optional<double> grad_clipping_value;
    Optimizer init() const;
    BURN_CONFIG(SgdConfig, momentum, dampening, nesterov, weight_decay, grad_clipping_norm, grad_clipping_value)
};

}  // namespace burn::optim
