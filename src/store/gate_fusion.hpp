#pragma once
// Rust burn's recurrent layers keep one Linear per gate (`lstm.input_gate.input_transform.weight`,
// [d_input, H] in Rust burn's layout); this project's Lstm/Gru keep PyTorch's fused tensors
// (`lstm.weight_ih`, [4H, d_input], gates i, f, g, o; r, z, n for the GRU). A load fuses them
// (gate_fusion.cpp), and a save in Rust burn's layout splits them again.
#include <set>
#include <string>
#include <vector>

#include "burn/store/module_store.hpp"
#include "burn/store/tensor_entry.hpp"

namespace burn::store {

/// For every fused recurrent slot of the module (`P.weight_ih`, `P.weight_hh`, `P.bias_ih`, `P.bias_hh`)
/// that the file lacks, the file's per-gate tensors of the same layer (`P.<gate>.input_transform.weight`
/// ...; a bidirectional layer's `forward_lstm` / `reverse_lstm` are Rust burn's `forward` / `reverse`)
/// concatenated in the gate order of PyTorch, each weight transposed first when in_out (Rust burn's
/// [d_input, d_output] Linear layout). The per-gate entries are consumed; gates whose shapes do not
/// stack are reported in result.errors and left in place.
std::vector<TensorEntry> fuse_gate_linears(std::vector<TensorEntry> entries,
                                           const std::set<std::string>& paths, bool in_out,
                                           ApplyResult& result);

/// The save side, for a file in Rust burn's layout: a fused recurrent tensor of an Lstm or Gru
/// (module_type) split into its gates' Linear tensors under Rust burn's names, weights transposed to
/// [d_input, d_output]; any other entry as it is.
std::vector<TensorEntry> split_gate_linears(TensorEntry e, const std::string& module_type);

}  // namespace burn::store
