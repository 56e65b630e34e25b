// backward(): walks the graph from the loss in reverse topological order, applies each node's rule on
// the inner device, accumulates gradients per (node, output), and frees the graph as it goes.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "autodiff/graph.hpp"
#include "burn/autodiff/gradients.hpp"
#include "burn/tensor/ops.hpp"
#include "platform/env.hpp"

namespace burn {

std::optional<TensorAny> Gradients::get(uint64_t id) const {
    auto it = grads_.find(id);
    if (it == grads_.end()) return std::nullopt;
    return it->second;
}

void Gradients::set(uint64_t id, TensorAny grad) {
    grads_[id] = std::move(grad);
}

std::optional<TensorAny> Gradients::remove(uint64_t id) {
    auto it = grads_.find(id);
    if (it == grads_.end()) return std::nullopt;
    TensorAny g = std::move(it->second);
    grads_.erase(it);
    return g;
}

}  // namespace burn

namespace burn::autodiff {

namespace {

// BURN_AUTODIFF_WIDEN=0 turns VjpContext::widen off (gradients in the operands' dtype, cast back by
// the cast nodes), for comparisons (docs/mixed_precision.md).
platform::EnvSwitch g_widen("BURN_AUTODIFF_WIDEN", true);

const AdTensor& checked_ad(const TensorAny& t, const char* op) {
    BURN_CHECK(t.defined(), "[", op, "] called on an undefined tensor");
    const AdTensor* a = as_ad(*t.ref());
    BURN_CHECK_KIND(a != nullptr, device, "[", op, "] needs a tensor on an autodiff device, got one on ",
                    t.device(), "; create the tensors (or the model) on Device().autodiff()");
    return *a;
}

/// Reverse topological order of the nodes reachable from root (iterative DFS).
std::vector<Node*> topo_order(Node* root) {
    std::vector<Node*> order;
    std::unordered_set<Node*> visited;
    std::vector<std::pair<Node*, std::size_t>> stack{{root, 0}};
    visited.insert(root);
    while (!stack.empty()) {
        auto& [n, i] = stack.back();
        if (i < n->parents.size()) {
            Node* p = n->parents[i++].get();
            if (p && visited.insert(p).second) stack.emplace_back(p, 0);
        } else {
            order.push_back(n);
            stack.pop_back();
        }
    }
    std::reverse(order.begin(), order.end());  // root first
    return order;
}

/// Fills widen with, per input of n, the dtype its gradient may take: float32 where the input is a bf16
/// or f16 tensor cast from float32 and used by nothing else (autocast's casts), else the input's own.
/// Returns whether any input is offered a wider one.
bool widened(const Node& n, const std::unordered_map<const Node*, int>& uses, std::vector<DType>& widen) {
    widen.assign(n.inputs.size(), DType::f32);
    bool any = false;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const DType own = n.inputs[i].defined() ? n.inputs[i].dtype() : DType::f32;
        widen[i] = own;
        const Node* p = i < n.parents.size() ? n.parents[i].get() : nullptr;
        if (!p || p->leaf || p->custom || p->call.op != OpId::cast || p->inputs.empty() ||
            !p->inputs[0].defined())
            continue;
        const auto u = uses.find(p);
        const DType from = p->inputs[0].dtype();
        if (u != uses.end() && u->second == 1 && from == DType::f32 &&
            (own == DType::bf16 || own == DType::f16)) {
            widen[i] = from;
            any = true;
        }
    }
    return any;
}

void accumulate(TensorAny& slot, TensorAny g) {
    slot = slot.defined() ? ops::add(std::move(slot), std::move(g)) : std::move(g);
}

}  // namespace

Gradients backward(const TensorAny& loss) {
    const AdTensor& root = checked_ad(loss, "backward");
    if (!root.node) {
        ::burn::detail::Text os;
        os << "[backward] the loss (" << loss.dtype() << ' ' << loss.shape()
           << ") does not depend on any tensor that requires grad";
        if (root.blocked_by)
            os << ": it went through the non-differentiable op '" << root.blocked_by
               << "' (comparisons, argmax/argmin, Int and Bool results carry no gradient)";
        else
            os << "; mark inputs with .require_grad() (module parameters are marked already)";
        BURN_THROW(os.str());
    }
    BURN_CHECK(!root.node->freed,
               "[backward] the graph of this loss was already freed by an earlier backward(); "
               "recompute the forward pass before calling backward() again");

    const std::vector<Node*> order = topo_order(root.node.get());
    std::unordered_map<Node*, std::vector<TensorAny>> grads;
    grads[root.node.get()].resize(std::max<std::size_t>(1, root.node->outputs.size()));
    grads[root.node.get()][root.output] =
        ops::full(root.inner->shape, 1.0, root.inner->dtype, root.inner->device);

    // How many recorded uses each node's outputs have in this graph: a cast used once can take its
    // consumer's gradient in its own source dtype (VjpContext::widen).
    std::unordered_map<const Node*, int> uses;
    for (Node* n : order)
        for (const NodeRef& p : n->parents)
            if (p) ++uses[p.get()];

    Gradients out;
    std::vector<DType> widen;
    for (Node* n : order) {
        auto it = grads.find(n);
        if (it == grads.end()) continue;
        std::vector<TensorAny> g = std::move(it->second);
        grads.erase(it);
        if (n->leaf) {
            if (!g.empty() && g[0].defined()) out.set(n->id, std::move(g[0]));
            continue;
        }
        BURN_CHECK(!n->freed,
                   "[backward] part of this graph was freed by an earlier backward(); recompute the "
                   "forward pass");
        g.resize(n->outputs.size());  // outputs nothing used have undefined gradients
        std::vector<bool> needs(n->parents.size());
        for (std::size_t i = 0; i < needs.size(); ++i) needs[i] = n->parents[i] != nullptr;

        std::vector<TensorAny> gin;
        if (n->custom) {
            gin = n->custom->backward(n->inputs, n->outputs, g);
        } else {
            VjpRule rule = vjp_rule(n->call.op);
            BURN_CHECK(rule != nullptr, "[backward] no gradient rule for op '", n->op_name(), "'");
            const bool any = g_widen.on() && widened(*n, uses, widen);
            gin = rule(VjpContext{n->call, n->inputs, n->outputs, g, needs, any ? &widen : nullptr});
        }
        BURN_CHECK(gin.size() >= n->parents.size(), "[backward] the rule of op '", n->op_name(),
                   "' returned ", gin.size(), " gradients for ", n->parents.size(), " inputs");
        for (std::size_t i = 0; i < n->parents.size(); ++i) {
            if (!n->parents[i] || !gin[i].defined()) continue;
            BURN_CHECK_KIND(gin[i].shape() == n->inputs[i].shape(), shape, "[backward] the rule of op '",
                            n->op_name(), "' gave a gradient of shape ", gin[i].shape(), " for input ", i,
                            " of shape ", n->inputs[i].shape());
            if (detect_anomaly())
                check_anomaly(gin[i],
                              "backward of op '" + n->op_name() + "' (input " + std::to_string(i) + ")");
            auto& slots = grads[n->parents[i].get()];
            slots.resize(
                std::max<std::size_t>(slots.size(), std::max<std::size_t>(1, n->parents[i]->outputs.size())));
            accumulate(slots[static_cast<std::size_t>(n->parent_output[i])], std::move(gin[i]));
        }
        // Free what the node saved; the graph cannot be walked again.
        n->freed = true;
        n->inputs.clear();
        n->outputs.clear();
    }
    // Break the graph so its memory goes. Clearing a node's parents can free a node that comes later
    // in `order` (it was held only by that edge), so every edge is moved out first and released only
    // after the walk; each node then dies with empty parents, so no destructor recurses down a chain.
    std::vector<NodeRef> released;
    for (Node* n : order) {
        if (n->leaf) continue;
        for (NodeRef& p : n->parents)
            if (p) released.push_back(std::move(p));
        n->parents.clear();
    }
    released.clear();
    return out;
}

std::vector<TensorAny> apply(const CustomOp& op, const std::vector<TensorAny>& inputs) {
    BURN_CHECK(op.forward, "[custom op '", op.name, "'] has no forward function");
    if (inputs.empty() || !inputs[0].device().is_autodiff()) return op.forward(inputs);
    BURN_CHECK(op.backward, "[custom op '", op.name, "'] has no backward function");
    std::vector<TensorAny> inner;
    bool tracked = false;
    for (const auto& t : inputs) {
        const AdTensor& a = checked_ad(t, op.name.c_str());
        BURN_CHECK_KIND(t.device() == inputs[0].device(), device, "[custom op '", op.name, "'] inputs on ",
                        inputs[0].device(), " and ", t.device());
        inner.emplace_back(a.inner);
        tracked |= a.node != nullptr;
    }
    std::vector<TensorAny> outs = op.forward(inner);
    NodeRef node;
    if (tracked && grad_enabled()) {
        node = std::make_shared<Node>();
        node->custom_owned = std::make_shared<CustomOp>(op);
        node->custom = node->custom_owned.get();
        node->inputs = inner;
        node->outputs = outs;
        for (const auto& t : inputs) {
            const AdTensor& a = *as_ad(*t.ref());
            node->parents.push_back(a.node);
            node->parent_output.push_back(a.output);
        }
    }
    std::vector<TensorAny> wrapped;
    for (std::size_t i = 0; i < outs.size(); ++i) {
        BURN_CHECK(outs[i].defined() && !outs[i].device().is_autodiff(), "[custom op '", op.name,
                   "'] forward must return tensors on the inner device");
        wrapped.emplace_back(std::make_shared<AdTensor>(outs[i].ref(), inputs[0].device(), node,
                                                        static_cast<int>(i), nullptr));
    }
    return wrapped;
}

}  // namespace burn::autodiff

namespace burn::ops {

TensorAny require_grad(TensorAny x, bool on) {
    BURN_CHECK(x.defined(), "[require_grad] called on an undefined tensor");
    const autodiff::AdTensor* a = autodiff::as_ad(*x.ref());
    if (!a) return x;  // not an autodiff device: there is no tape, nothing to mark (burn's rule)
    if (on) {
        if (a->node) return x;  // already a leaf, or tracked through ops
        auto node = std::make_shared<autodiff::Node>();
        node->leaf = true;
        return TensorAny(std::make_shared<autodiff::AdTensor>(a->inner, x.device(), node, 0, nullptr));
    }
    if (!a->node) return x;
    return TensorAny(std::make_shared<autodiff::AdTensor>(a->inner, x.device(), nullptr, 0, nullptr));
}

bool is_require_grad(const TensorAny& x) {
    if (!x.defined()) return false;
    const autodiff::AdTensor* a = autodiff::as_ad(*x.ref());
    return a && a->node != nullptr;
}

TensorAny detach(TensorAny x) {
    return require_grad(std::move(x), false);
}

Gradients backward(const TensorAny& loss) {
    return autodiff::backward(loss);
}

namespace {
const autodiff::AdTensor* leaf_of(const TensorAny& x, const char* op) {
    BURN_CHECK(x.defined(), "[", op, "] called on an undefined tensor");
    const autodiff::AdTensor* a = autodiff::as_ad(*x.ref());
    BURN_CHECK_KIND(a != nullptr, device, "[", op, "] the tensor is on ", x.device(),
                    ", which records no gradients; use a device made with .autodiff()");
    return a;
}
}  // namespace

std::optional<TensorAny> grad(const TensorAny& x, const Gradients& grads) {
    const auto* a = leaf_of(x, "grad");
    if (!a->node) return std::nullopt;
    return grads.get(a->node->id);
}

std::optional<TensorAny> grad_remove(const TensorAny& x, Gradients& grads) {
    const auto* a = leaf_of(x, "grad_remove");
    if (!a->node) return std::nullopt;
    return grads.remove(a->node->id);
}

void grad_replace(const TensorAny& x, Gradients& grads, TensorAny g) {
    const auto* a = leaf_of(x, "grad_replace");
    BURN_CHECK(a->node != nullptr, "[grad_replace] the tensor does not require grad");
    BURN_CHECK_KIND(g.shape() == x.shape(), shape, "[grad_replace] gradient of shape ", g.shape(),
                    " for a tensor of shape ", x.shape());
    if (g.device().is_autodiff()) g = TensorAny(static_cast<const autodiff::AdTensor&>(*g.ref()).inner);
    grads.set(a->node->id, std::move(g));
}

uint64_t grad_key(const TensorAny& x) {
    const autodiff::AdTensor* a = x.defined() ? autodiff::as_ad(*x.ref()) : nullptr;
    return a && a->node ? a->node->id : 0;
}

}  // namespace burn::ops
