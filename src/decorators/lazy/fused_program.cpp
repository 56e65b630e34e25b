// Building a fused pass from a lazy graph, and its listing for the debug dump.
#include "decorators/lazy/fused_program.hpp"

#include <sstream>

#include "burn/core/error.hpp"
#include "decorators/lazy/fused_build.hpp"

namespace burn::lazy {

namespace {

/// A node's register: Node::slot, which the walk of this evaluation reset (lazy_graph.cpp).
int slot_of(const Node* n) {
    BURN_CHECK(n->slot >= 0, "[lazy] internal: a node of the pass has no register");
    return n->slot;
}

struct Builder {
    Program p;
    std::vector<int> leaf_slot;  // per leaf, its load's slot: one load per input and reading

    int add(Step s) {
        p.steps.push_back(s);
        return static_cast<int>(p.steps.size()) - 1;
    }
    int load(const TensorRef& t, bool to_bool) {
        for (std::size_t i = 0; i < p.leaves.size(); ++i)  // a pass reads a few dozen inputs at most
            if (p.leaves[i].tensor.get() == t.get() && p.leaves[i].to_bool == to_bool) return leaf_slot[i];
        p.leaves.push_back(Leaf{t, to_bool});
        Step s;
        s.kind = Step::Kind::load;
        s.leaf = static_cast<int>(p.leaves.size()) - 1;
        leaf_slot.push_back(add(s));
        return leaf_slot.back();
    }
    /// The slot of a node whose inputs have slots already (post-order).
    int define(const Node& n) {
        if (!n.pending()) return load(n.value, false);
        if (n.is_const) {
            Step s;
            s.kind = Step::Kind::constant;
            s.value = n.meta.dtype == DType::boolean ? (n.constant != 0 ? 1.0f : 0.0f) : float(n.constant);
            return add(s);
        }
        if (n.call.op == OpId::cast) {
            const Node& x = *n.inputs[0];
            const bool to_bool = n.meta.dtype == DType::boolean;
            if (!x.pending() && x.meta.dtype != DType::f32 && x.meta.dtype != DType::boolean)
                return load(x.value, to_bool);  // the cast happens in the load
            const int xs = slot_of(&x);
            if (!to_bool || x.meta.dtype == DType::boolean) return xs;  // 0 / 1 are the same floats
            Step s;
            s.kind = Step::Kind::to_bool;
            s.args[0] = xs;
            s.nargs = 1;
            return add(s);
        }
        Step s;
        s.kind = Step::Kind::op;
        s.op = n.call.op;
        BURN_CHECK(p.target->fuses(n.call.op), "[lazy] no fused form of ", n.call.op, ": not a fusable row");
        s.p0 = n.call.scalars[0];
        s.p1 = n.call.scalars[1];
        s.nargs = static_cast<int>(n.inputs.size());
        for (int k = 0; k < s.nargs; ++k) s.args[k] = slot_of(n.inputs[static_cast<std::size_t>(k)].get());
        return add(s);
    }
};

bool broadcast_scalar(const Layout& t) {
    for (int64_t s : t.strides)
        if (s != 0) return false;
    return true;
}

/// The dense non-row-major layout every input of the pass's shape shares, if there is one (inputs
/// broadcast from one value go with any layout); empty otherwise.
Dims shared_layout(const Program& p) {
    std::vector<Layout> ls;
    const Layout* ref = nullptr;
    for (const Leaf& l : p.leaves) ls.push_back(p.target->layout(l.tensor));
    for (std::size_t i = 0; i < ls.size(); ++i) {
        const Layout& t = ls[i];
        if (p.leaves[i].tensor->shape == p.shape && !t.contiguous && t.dense && !broadcast_scalar(t)) {
            ref = &t;
            break;
        }
    }
    if (!ref) return {};
    for (std::size_t i = 0; i < ls.size(); ++i) {
        const Layout& t = ls[i];
        if (!broadcast_scalar(t) && (p.leaves[i].tensor->shape != p.shape || !t.same_layout(*ref, p.shape)))
            return {};
    }
    for (int64_t s : ref->strides)
        if (s < 0) return {};
    return ref->strides;
}

}  // namespace

/// An input buffer that `out` (of the pass's shape and layout) may overwrite: held by the dead node
/// and the pass alone, no view of its storage, the output's dtype and the pass's order.
TensorRef reusable(const Program& p, const std::vector<const Node*>& dead, std::vector<bool>& taken,
                   DType dtype) {
    for (std::size_t i = 0; i < dead.size(); ++i) {
        if (taken[i]) continue;
        const TensorRef& v = dead[i]->value;
        const Layout t = p.target->layout(v);
        // owners: the dead node, and the pass's leaf when the pass reads it
        if (v.use_count() > 2 || !t.sole_owner) continue;
        if (v->dtype != dtype || v->shape != p.shape || v->shape.rank() == 0) continue;
        const bool order_ok = p.layout.empty() ? t.contiguous : t.strides == p.layout;
        if (!order_ok) continue;
        taken[i] = true;
        return v;
    }
    return nullptr;
}

Program build(const std::vector<const Node*>& order, const std::vector<const Node*>& outputs,
              const std::vector<const Node*>& dead, const Device& below, FusionTarget& target) {
    Builder b;
    b.p.target = &target;
    b.p.steps.reserve(order.size());
    b.p.outputs.reserve(outputs.size());
    const Node* first = outputs.front();
    b.p.shape = first->is_reduce ? first->inputs[0]->meta.shape : first->meta.shape;
    for (const Node* n : order) {
        if (n->is_reduce) continue;  // a tail: an output, not a step
        // an input reached only through a cast from another dtype is loaded by the cast itself
        if (!n->pending() && n->meta.dtype != DType::f32 && n->meta.dtype != DType::boolean) continue;
        const_cast<Node*>(n)->slot = b.define(*n);
    }
    int64_t row = 0;
    for (const Node* n : outputs)
        if (n->is_reduce) row = n->inputs[0]->meta.shape[n->inputs[0]->meta.shape.rank() - 1];
    b.p.block = row == 0 ? kBlock : row >= kBlock ? row : kBlock / row * row;
    if (row == 0) b.p.layout = shared_layout(b.p);  // a reduction reads rows in row-major order
    for (Leaf& l : b.p.leaves) {
        const Layout t = target.layout(l.tensor);
        if (!b.p.layout.empty()) {
            l.flat = !broadcast_scalar(t);
        } else if (l.tensor->shape == b.p.shape && !t.contiguous && t.dense && !broadcast_scalar(t)) {
            // mixed layouts (relu_backward of a channels-last x and a row-major g): a row-major copy,
            // as the eager kernels make, is much faster than a gather that strides across channels
            l.tensor = target.contiguous(l.tensor);
        }
    }
    std::vector<bool> taken(dead.size(), false);
    for (const Node* n : outputs) {
        if (n->is_reduce) {
            b.p.outputs.push_back(
                Output{slot_of(n->inputs[0].get()), target.alloc(n->meta.shape, n->meta.dtype, below), row});
            continue;
        }
        if (TensorRef in = reusable(b.p, dead, taken, n->meta.dtype)) {
            b.p.outputs.push_back(Output{slot_of(n), in, 0, true});
            continue;
        }
        TensorRef out = target.alloc(b.p.shape, n->meta.dtype, below);
        if (!b.p.layout.empty()) out = target.view(out, b.p.shape, b.p.layout);
        b.p.outputs.push_back(Output{slot_of(n), out});
    }
    return std::move(b.p);
}

std::string listing(const Program& p) {
    std::ostringstream os;
    const int64_t numel = p.shape.numel();
    int ops = 0;
    for (const Step& s : p.steps) ops += s.kind == Step::Kind::op || s.kind == Step::Kind::to_bool;
    for (const Output& o : p.outputs) ops += o.row > 0;
    os << "[lazy] fused pass over " << p.shape << " (" << numel << " elements, " << p.target->describe(p)
       << (p.layout.empty() ? "" : ", in memory order") << "): " << ops << " op(s), " << p.leaves.size()
       << " input(s), " << p.outputs.size() << " output(s)\n";
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
        const Step& s = p.steps[i];
        os << "  %" << i << " = ";
        switch (s.kind) {
            case Step::Kind::load: {
                const Leaf& l = p.leaves[static_cast<std::size_t>(s.leaf)];
                os << "load in" << s.leaf << " " << l.tensor->dtype << (l.to_bool ? " as bool" : "")
                   << (l.flat                                  ? " dense"
                       : p.target->layout(l.tensor).contiguous ? ""
                                                               : " strided");
                break;
            }
            case Step::Kind::constant:
                os << "const " << s.value;
                break;
            case Step::Kind::to_bool:
                os << "cast_bool %" << s.args[0];
                break;
            case Step::Kind::op:
                os << s.op;
                for (int k = 0; k < s.nargs; ++k) os << " %" << s.args[k];
                if (s.p0 != 0 || s.p1 != 0) os << " (" << s.p0 << ", " << s.p1 << ")";
                break;
        }
        for (std::size_t o = 0; o < p.outputs.size(); ++o) {
            const Output& out = p.outputs[o];
            if (out.slot != static_cast<int>(i)) continue;
            if (out.row > 0) os << "  -> sum of rows of " << out.row;
            os << "  -> out" << o << " " << out.tensor->dtype
               << (out.reused ? " (into an input's buffer)" : "");
        }
        os << "\n";
    }
    return os.str();
}

}  // namespace burn::lazy
