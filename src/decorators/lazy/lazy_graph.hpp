#pragma once
// The lazy decorator's graph: a lazy tensor holds a node, which is either materialised (the tensor of
// the device below) or pending (an elementwise op, a cast, a constant or a row-sum tail over other
// nodes). Evaluating
// a set of nodes runs their pending graph as one fused pass (fused_program.hpp) and writes only the
// nodes someone outside the graph still holds.
#include <cstdint>
#include <memory>
#include <vector>

#include "burn/backend/backend.hpp"
#include "decorators/lazy/fusion_target.hpp"

namespace burn::lazy {

struct Node : std::enable_shared_from_this<Node> {
    TensorMeta meta;
    TensorRef value;         // the tensor of the device below, once materialised
    OpCall call;             // pending: an elementwise row or cast (call.op), or a constant
    bool is_const = false;   // pending constant (a fill, or the expand of one): written only when asked
    bool is_reduce = false;  // pending sum_dim over the last axis of its pending input: a pass's tail
    double constant = 0;     // is_const: the value
    std::vector<std::shared_ptr<Node>> inputs;
    int cost = 0;  // pending ops under this node (a shared one once per path): the chain's size limit
    // Scratch of the evaluation that walks this node (lazy_graph.cpp, under its lock): `epoch` says which
    // one; `refs` counts the references pending nodes of that graph hold, `slot` is its register in the
    // pass being built. Fields rather than maps: a pass of a few ops then allocates nothing per node.
    uint64_t epoch = 0;
    long refs = 0;
    int slot = -1;

    bool pending() const { return value == nullptr; }
    /// How many owners hold this node (lazy tensors and pending consumers).
    long owners() const { return weak_from_this().use_count(); }
};
using NodePtr = std::shared_ptr<Node>;

/// A tensor of a lazy device.
struct LazyTensor final : TensorImpl {
    LazyTensor(NodePtr node_, const Device& device_)
        : TensorImpl(node_->meta.shape, node_->meta.dtype, device_), node(std::move(node_)) {}
    NodePtr node;
};

/// A materialised node over `inner`, a tensor of the device below.
NodePtr value_node(TensorRef inner);

/// Materialises every node of `roots` (pending ones through fused passes, one per shape) and every
/// pending node they reach that an owner outside the graph also holds; `below` is the device the
/// outputs live on, `target` its fusion target (the lazy backend looks it up once).
void evaluate(const std::vector<NodePtr>& roots, const Device& below, FusionTarget& target);

/// The tensor of the device below that `node` stands for (evaluating it first if pending).
/// A pending node exists only over a fusion target, so `target` may be null when the node is not pending.
TensorRef materialize(const NodePtr& node, const Device& below, FusionTarget* target);

/// Counts an op that ran unchanged on the device below (lazy::stats().passthrough).
void note_passthrough();

}  // namespace burn::lazy
