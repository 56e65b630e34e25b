#pragma once
/// User-defined differentiable ops (like torch.autograd.Function): give a forward and a backward
/// written with tensor ops. On an autodiff device the op records one node whose gradient is your
/// backward; elsewhere it just runs forward.
#include <functional>
#include <string>
#include <vector>

#include "burn/tensor/tensor_any.hpp"

namespace burn::autodiff {

struct CustomOp {
    /// Named in error messages and anomaly reports.
    std::string name;
    /// outputs = forward(inputs); runs on the inner device's tensors (no graph is recorded inside).
    std::function<std::vector<TensorAny>(const std::vector<TensorAny>& inputs)> forward;
    /// input gradients = backward(inputs, outputs, output_grads). Return one tensor per input (an
    /// undefined TensorAny for inputs without a gradient); an output's grad may be undefined when
    /// nothing downstream used it.
    std::function<std::vector<TensorAny>(const std::vector<TensorAny>& inputs,
                                         const std::vector<TensorAny>& outputs,
                                         const std::vector<TensorAny>& output_grads)>
        backward;
};

/// Runs op on inputs (all on one device) and returns its outputs on that device.
std::vector<TensorAny> apply(const CustomOp& op, const std::vector<TensorAny>& inputs);

/// Live graph nodes in this process (for leak tests and diagnostics).
int64_t live_nodes();

}  // namespace burn::autodiff

namespace burn::autodiff {

/// Gradient checkpointing (burn's Balanced strategy, by hand): runs fn without keeping its
/// intermediate activations; backward() re-runs fn to get them. Gradients are identical, peak memory
/// during the forward pass is lower. fn must be deterministic (no dropout) and use only its inputs.
std::vector<TensorAny> checkpoint(
    const std::string& name, const std::function<std::vector<TensorAny>(const std::vector<TensorAny>&)>& fn,
    const std::vector<TensorAny>& inputs);

}  // namespace burn::autodiff
