#pragma once
// Fusion of a compiled plan's steps (plan.cpp calls it before it frees values): Conv -> (Add) ->
// (Relu | Clip) chains whose intermediate values have no other reader become one com.microsoft
// FusedConv step (ops_fused.cpp: burn's conv_fused row), which on the CPU saves the passes over
// memory that the add and the activation took (docs/onnx.md, "Fusion").
#include "onnx/plan.hpp"

namespace burn::onnx::detail {

/// Rewrites plan's steps in place; the new nodes are owned by the plan. Returns how many chains fused.
int fuse_conv_chains(Plan& plan);

}  // namespace burn::onnx::detail
