#pragma once
// The gradient rule table, indexed by OpId. Elementwise rules come from the vjp column of
// elementwise.def (rules_elementwise.cpp); structural rules from rules_structural.cpp.
#include <array>

#include "autodiff/graph.hpp"

namespace burn::autodiff {

using RuleTable = std::array<VjpRule, kNumOps>;
void register_elementwise_rules(RuleTable& t);
void register_structural_rules(RuleTable& t);
void register_conv_rules(RuleTable& t);       // rules_conv.cpp: conv, pools, interpolate
void register_norm_rules(RuleTable& t);       // rules_norm.cpp: layer_norm, cross_entropy
void register_attention_rules(RuleTable& t);  // rules_attention.cpp: attention

/// Ops that carry no gradient by design (comparisons, argmax, random, ...): reaching them cuts the graph.
bool is_non_differentiable(OpId op);

TensorAny zeros_as(const TensorAny& t);
/// Sums g down to shape (undoing a broadcast).
TensorAny sum_to(TensorAny g, const Dims& shape);

}  // namespace burn::autodiff
