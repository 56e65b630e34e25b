// Evaluating a lazy graph: which pending nodes a fused pass computes, which of them it writes, and the
// counters and dump of burn/backend/lazy.hpp.
#include "decorators/lazy/lazy_graph.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "burn/backend/lazy.hpp"
#include "burn/core/error.hpp"
#include "decorators/lazy/fused_build.hpp"
#include "platform/env.hpp"
#include "platform/sync.hpp"

namespace burn::lazy {

namespace {

platform::Mutex g_mutex;  // one evaluation at a time: it rewrites nodes other tensors may share
platform::Counter<int64_t> g_passes{0}, g_ops{0}, g_materialized{0}, g_passthrough{0};
platform::EnvSwitch g_dump("BURN_LAZY_DUMP", false);
std::string* g_last = new std::string();  // for the process; written under g_mutex

uint64_t g_epoch = 0;  // the current walk's mark (Node::epoch); under g_mutex

/// Post-order of the pending graph under `roots` (each node once; materialised nodes are leaves; a
/// reduction is only ever a root: an op that takes one materialises it first). Marks every node it
/// reaches with a new epoch and sets its `refs` to how many references pending nodes of that graph
/// hold to it.
void walk(const std::vector<Node*>& roots, std::vector<const Node*>& order) {
    const uint64_t epoch = ++g_epoch;
    auto visit = [epoch](Node* n) {
        if (n->epoch == epoch) return false;
        n->epoch = epoch;
        n->refs = 0;
        n->slot = -1;
        return true;
    };
    std::vector<std::pair<Node*, std::size_t>> stack;
    stack.reserve(16);
    for (Node* r : roots) {
        if (!visit(r)) continue;
        stack.emplace_back(r, 0);
        while (!stack.empty()) {
            auto& [n, i] = stack.back();
            if (n->pending() && i < n->inputs.size()) {
                Node* c = n->inputs[i++].get();
                const bool first = visit(c);
                ++c->refs;
                if (first) stack.emplace_back(c, 0);
                continue;
            }
            order.push_back(n);
            stack.pop_back();
        }
    }
}

/// A single op over computed inputs, on the device's own kernel (FusionTarget::eager_single_ops).
bool run_single(const std::vector<Node*>& roots, const Device& below, const FusionTarget& target) {
    if (roots.size() != 1 || !target.eager_single_ops()) return false;
    Node* n = roots[0];
    if (n->is_const || n->is_reduce) return false;
    for (const NodePtr& c : n->inputs)
        if (c->pending()) return false;
    TensorRefs in;
    for (const NodePtr& c : n->inputs) in.push_back(c->value);
    TensorRefs out = below.backend().execute(n->call, std::move(in));
    n->value = std::move(out.at(0));
    n->inputs.clear();
    n->call = OpCall{};
    note_passthrough();
    return true;
}

/// One fused pass over roots of one shape.
void run_group(const std::vector<Node*>& roots, const Device& below, FusionTarget& target) {
    if (run_single(roots, below, target)) return;
    std::vector<const Node*> order;
    order.reserve(64);
    walk(roots, order);
    std::vector<const Node*> outputs(roots.begin(), roots.end());
    std::vector<const Node*> dead;  // inputs that only this pass reads: their buffers may take an output
    for (const Node* n : order) {
        if (n->pending()) {
            if (n->is_const || std::find(roots.begin(), roots.end(), n) != roots.end()) continue;
            if (n->owners() > n->refs) outputs.push_back(n);  // held outside
        } else if (n->refs > 0 && n->owners() == n->refs) {
            dead.push_back(n);
        }
    }
    Program p = build(order, outputs, dead, below, target);
    if (g_dump.on()) {
        *g_last = listing(p);
        std::fprintf(stderr, "%s", g_last->c_str());
    }
    target.run(p);
    int64_t ops = 0;
    for (const Step& s : p.steps) ops += s.kind == Step::Kind::op || s.kind == Step::Kind::to_bool;
    for (const Output& o : p.outputs) ops += o.row > 0;
    g_passes.fetch_add(1);
    g_ops.fetch_add(ops);
    g_materialized.fetch_add(static_cast<int64_t>(p.outputs.size()));
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        Node* n = const_cast<Node*>(outputs[i]);
        n->value = p.outputs[i].tensor;
        n->inputs.clear();  // the intermediates nobody else holds go with them
        n->is_const = false;
        n->is_reduce = false;
        n->call = OpCall{};
    }
}

}  // namespace

NodePtr value_node(TensorRef inner) {
    auto n = std::make_shared<Node>();
    n->meta = TensorMeta{inner->dtype, inner->shape};
    n->value = std::move(inner);
    return n;
}

void evaluate(const std::vector<NodePtr>& roots, const Device& below, FusionTarget& target) {
    platform::Lock lock(g_mutex);
    std::vector<Node*> todo;
    for (const NodePtr& r : roots)
        if (r && r->pending() && std::find(todo.begin(), todo.end(), r.get()) == todo.end())
            todo.push_back(r.get());
    while (!todo.empty()) {  // one pass per shape: a pending graph has one shape (expand is a leaf)
        // a reduction tail runs in the pass over its input's shape
        auto pass_shape = [](const Node* n) {
            return n->is_reduce ? n->inputs[0]->meta.shape : n->meta.shape;
        };
        const Dims shape = pass_shape(todo.front());
        std::vector<Node*> group, rest;
        for (Node* n : todo) (pass_shape(n) == shape ? group : rest).push_back(n);
        run_group(group, below, target);
        todo.swap(rest);
    }
}

TensorRef materialize(const NodePtr& node, const Device& below, FusionTarget* target) {
    if (node->pending()) {
        BURN_CHECK(target != nullptr, "[lazy] a pending graph over ", below, ", which has no fusion target");
        evaluate({node}, below, *target);
    }
    return node->value;
}

void note_passthrough() {
    g_passthrough.fetch_add(1);
}

Stats stats() {
    Stats s;
    s.fused_passes = g_passes.load();
    s.fused_ops = g_ops.load();
    s.materialized = g_materialized.load();
    s.passthrough = g_passthrough.load();
    return s;
}

void reset_stats() {
    g_passes.store(0);
    g_ops.store(0);
    g_materialized.store(0);
    g_passthrough.store(0);
}

void set_dump(bool on) {
    g_dump.set(on);
}

std::string last_program() {
    platform::Lock lock(g_mutex);
    return *g_last;
}

}  // namespace burn::lazy
