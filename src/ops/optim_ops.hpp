#pragma once
// Frontend of the fused optimizer ops (ops.def family optim). Private to the library and its tests:
// users reach them through optim::AdamConfig / AdamWConfig.
#include <array>
#include <optional>
#include <vector>

#include "burn/tensor/ops.hpp"

namespace burn::ops {

/// The scalars of one Adam(W) update of one parameter (torch's single-tensor Adam, folded):
///   g' = grad + l2 * param
///   exp_avg' = beta_1 * exp_avg + (1 - beta_1) * g'
///   exp_avg_sq' = beta_2 * exp_avg_sq + (1 - beta_2) * g'^2
///   param' = decay * param - step_size * exp_avg' / (sqrt(exp_avg_sq') + eps)
struct AdamStepHyper {
    double beta_1 = 0.9, beta_2 = 0.999;
    double step_size = 1e-3;  // lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)
    double eps = 1e-8;        // epsilon * sqrt(1 - beta_2^t)
    double decay = 1.0;       // 1 - lr * weight_decay (AdamW), 1 otherwise
    double l2 = 0.0;          // weight_decay (Adam's L2 penalty), 0 otherwise
};

/// {param', exp_avg', exp_avg_sq'} in one pass. All four tensors have one float dtype, one shape and
/// one device; uniquely owned inputs are updated in place (param into param', and so on).
std::array<TensorAny, 3> adam_step(TensorAny param, TensorAny grad, TensorAny exp_avg, TensorAny exp_avg_sq,
                                   const AdamStepHyper& hyper);

/// The flat {params', exp_avgs', exp_avg_sqs'} of one Adam(W) update of n tensors in one call (ops.def
/// adam_step_multi): each output is [sum of the numels], tensor i's update at its running offset, equal
/// to adam_step on tensor i. The four lists have one length n >= 1, one float dtype and one device;
/// params[i], grads[i], exp_avgs[i] and exp_avg_sqs[i] one shape. Inputs are read, never overwritten.
std::array<TensorAny, 3> adam_step_multi(const std::vector<TensorAny>& params,
                                         const std::vector<TensorAny>& grads,
                                         const std::vector<TensorAny>& exp_avgs,
                                         const std::vector<TensorAny>& exp_avg_sqs,
                                         const AdamStepHyper& hyper);

/// adam_step_multi when the device's backend has its kernel; nullopt otherwise (the caller then updates
/// tensor by tensor with adam_step, whose kernel the backend more likely has, rather than through the
/// row's decomposition into elementwise ops).
std::optional<std::array<TensorAny, 3>> try_adam_step_multi(const std::vector<TensorAny>& params,
                                                            const std::vector<TensorAny>& grads,
                                                            const std::vector<TensorAny>& exp_avgs,
                                                            const std::vector<TensorAny>& exp_avg_sqs,
                                                            const AdamStepHyper& hyper);

}  // namespace burn::ops
