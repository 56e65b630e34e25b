#pragma once
// From a lazy graph to a fused pass (fused_program.cpp).
#include <vector>

#include "decorators/lazy/fused_program.hpp"
#include "decorators/lazy/lazy_graph.hpp"

namespace burn::lazy {

/// The pass computing `outputs` (pending nodes of one shape) from `order`, every node they reach in
/// post-order (inputs first; materialised nodes are the pass's inputs). Allocates the outputs on
/// `below` through its fusion target, or writes one into the buffer of an input in `dead` (inputs nobody
/// reads after the pass) that no view shares, as the eager kernels reuse a buffer handed over to them.
Program build(const std::vector<const Node*>& order, const std::vector<const Node*>& outputs,
              const std::vector<const Node*>& dead, const Device& below, FusionTarget& target);

}  // namespace burn::lazy
