#pragma once
// From a lazy graph to a fused pass (fused_program.cpp).
#include <vector>

#include "decorators/lazy/fused_program.hpp"
#include "decorators/lazy/lazy_graph.hpp"

namespace burn::lazy {

/// The pass computing `outputs` (pending nodes of one shape) from `order`, every node they reach in
/// post-order (inputs first; materialised nodes are the pass's inputs). Allocates the outputs on `below`.
Program build(const std::vector<const Node*>& order, const std::vector<const Node*>& outputs,
              const Device& below);

}  // namespace burn::lazy
