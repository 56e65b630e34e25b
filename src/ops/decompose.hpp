#pragma once
// Composite fallbacks (ARCHITECTURE.md principle 11). Every row of the op tables is either a
// primitive, which a backend must implement, or derived: it has a decomposition written only with
// frontend calls of primitive rows. Dispatch (dispatch.cpp) runs the decomposition on the same device
// when a backend does not support a derived row, so a new backend starts from the primitives and adds
// fast kernels one at a time; through autodiff the primitives are recorded, so gradients still work.
// Decompositions match the CPU kernels' numerics (f16/bf16 compute in f32, statistics in
// fused_stat_dtype, the same tie and NaN rules); tests/decompose_test.cpp checks every fused kernel
// against its decomposition. docs/backends.md lists the primitive set.
#include <vector>

#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::ops {

/// A row's decomposition: every output of the row (dtypes and shapes as the kernel's) from the call
/// and its inputs, which the frontend has validated.
using Decomposition = std::vector<TensorAny> (*)(const OpCall& call, const std::vector<TensorAny>& inputs);

/// The decomposition of a derived row; null for a primitive.
Decomposition decomposition(OpId op);
/// Whether a backend must implement op (it has no decomposition).
bool is_primitive(OpId op);
/// The primitive rows, in table order.
std::vector<OpId> primitive_ops();

namespace detail {
/// One table of decompositions, indexed by OpId; each family file fills its rows.
struct DecompositionTable {
    Decomposition fn[kNumOps] = {};
    void set(OpId op, Decomposition d) { fn[static_cast<int>(op)] = d; }
};
void add_elementwise_decompositions(DecompositionTable& t);  // decompose_elementwise.cpp
void add_activation_decompositions(DecompositionTable& t);   // decompose_activation.cpp
void add_reduce_decompositions(DecompositionTable& t);       // decompose_reduce.cpp (and index rows)
void add_norm_decompositions(DecompositionTable& t);         // decompose_nn.cpp (norm, loss, optim)
void add_pool_decompositions(DecompositionTable& t);         // decompose_pool.cpp (pools, interpolate)
void add_conv_decompositions(DecompositionTable& t);         // decompose_conv.cpp
// Frontend files that keep a derived row's decomposition beside its frontend and infer:
void add_scan_decompositions(DecompositionTable& t);    // scan.cpp
void add_linear_decompositions(DecompositionTable& t);  // linear.cpp
void add_fft_decompositions(DecompositionTable& t);     // fft_row.cpp
}  // namespace detail

}  // namespace burn::ops
