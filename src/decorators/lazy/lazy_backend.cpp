// The lazy decorator: Device::cpu().lazy() is "lazy(cpu)". Elementwise rows, casts to f32/bool and
// constants (fill, and its expand) of f32/bool tensors are queued as pending nodes; everything else
// materialises its inputs and runs unchanged on the device below. A read (to_host, unwrap), a sync, a
// non-fusable consumer or the chain limit runs the pending graph as one fused pass (lazy_graph.cpp).
// Fusing needs a backend directly below that offers a fusion target (BackendEntry::fusion: the CPU,
// CUDA); over any other device (another decorator, a backend without one) the decorator only forwards.
#include <map>
#include <memory>

#include "burn/backend/backend.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/backend/registry.hpp"
#include "decorators/lazy/fused_program.hpp"
#include "decorators/lazy/lazy_graph.hpp"
#include "platform/sync.hpp"

namespace burn::lazy {

namespace {

/// Pending ops under one node before its inputs are materialised: bounds a pass's registers and the
/// graph a long loop of ops that nobody reads can build.
constexpr int kMaxChain = 48;

bool fusable_dtype(DType d) {
    return d == DType::f32 || d == DType::boolean;
}

const NodePtr& node_of(const TensorRef& t) {
    return static_cast<const LazyTensor&>(*t).node;
}

/// The fusion target of the backend directly below a lazy device (BackendEntry::fusion), or nullptr
/// (another decorator, or a backend without one: the decorator then only forwards).
FusionTarget* target_below(const Device& below) {
    if (below != below.base()) return nullptr;
    const int id = find_backend(below.backend_name());
    if (id < 0 || backend_entry(id).fusion == nullptr) return nullptr;
    return backend_entry(id).fusion(below);
}

class Lazy final : public Backend {
  public:
    explicit Lazy(const Device& device)
        : device_(device), below_(device.below()), target_(target_below(below_)) {}
    std::string_view name() const override { return "lazy"; }

    TensorRef from_host(const TensorData& data, const Device&) override {
        return wrap(below().from_host(data, below_), device_);
    }
    TensorData to_host(const TensorRef& t) override { return below().to_host(unwrap(t)); }
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        if (target_ && fusable(call, inputs)) return true;
        // A backend's answer may depend on its inputs' layouts (CUDA's checks read them): pending
        // inputs are computed first, as executing the op would do next anyway.
        flush(inputs);
        TensorRefs inner;
        inner.reserve(inputs.size());
        for (const auto& t : inputs) inner.push_back(node_of(t)->value);
        return below().supports(call, inner);
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        if (target_ && fusable(call, inputs)) return {queue(call, inputs)};
        note_passthrough();
        flush(inputs);
        TensorRefs inner;
        inner.reserve(inputs.size());
        for (const auto& t : inputs) inner.push_back(node_of(t)->value);
        inputs.clear();  // the inner backend may reuse buffers it holds the only reference to
        TensorRefs outs = below().execute(call, std::move(inner));
        for (auto& o : outs) o = wrap(std::move(o), device_);
        return outs;
    }
    void sync() override {
        flush_pending();
        below().sync();
    }
    void flush() override { flush_pending(); }  // Device::flush then flushes the levels below
    TensorRef unwrap(const TensorRef& t) const override { return materialize(node_of(t), below_, target_); }
    TensorRef wrap(TensorRef inner, const Device& device) override {
        return std::make_shared<LazyTensor>(value_node(std::move(inner)), device);
    }

  private:
    Backend& below() const { return below_.backend(); }

    /// Whether the call becomes a pending node (inputs of the call's shape, f32/bool values).
    bool fusable(const OpCall& call, const TensorRefs& inputs) const {
        if (call.shape.numel() == 0 || !fusable_dtype(call.dtype)) return false;
        switch (call.op) {
            case OpId::fill:
                return true;
            case OpId::expand: {  // a pending constant stays one; a tensor's expand is a view below
                const NodePtr& x = node_of(inputs[0]);
                return x->pending() && x->is_const;
            }
            case OpId::cast:
                return inputs[0]->shape == call.shape;
            case OpId::sum_dim: {  // a tail over the last axis of a pending chain of f32
                const NodePtr& x = node_of(inputs[0]);
                const int r = x->meta.shape.rank();
                return call.dtype == DType::f32 && x->pending() && !x->is_const && !x->is_reduce && r > 0 &&
                       call.attrs<attrs::Dim>().dim == r - 1 && x->meta.shape[r - 1] <= target_->max_row();
            }
            default:
                break;
        }
        if (op_info(call.op).cls == OpClass::structural || !target_->fuses(call.op)) return false;
        for (const auto& t : inputs)
            if (!fusable_dtype(t->dtype) || t->shape != call.shape) return false;
        return true;
    }

    TensorRef queue(const OpCall& call, const TensorRefs& inputs) {
        auto n = std::make_shared<Node>();
        n->meta = TensorMeta{call.dtype, call.shape};
        if (call.op == OpId::fill || call.op == OpId::expand) {
            n->is_const = true;
            n->constant =
                call.op == OpId::fill ? call.attrs<attrs::Fill>().value : node_of(inputs[0])->constant;
            return std::make_shared<LazyTensor>(std::move(n), device_);
        }
        n->call = call;
        n->is_reduce = call.op == OpId::sum_dim;
        std::vector<NodePtr> tails;  // a pending reduction feeds other ops materialised
        for (const auto& t : inputs)
            if (node_of(t)->pending() && node_of(t)->is_reduce) tails.push_back(node_of(t));
        if (!tails.empty()) evaluate(tails, below_, *target_);
        int cost = 1;
        for (const auto& t : inputs) cost += node_of(t)->pending() ? node_of(t)->cost : 0;
        if (cost > kMaxChain) {  // the size limit: run what is queued under this op first
            flush(inputs);
            cost = 1;
        }
        n->cost = cost;
        n->inputs.reserve(inputs.size());
        for (const auto& t : inputs) n->inputs.push_back(node_of(t));
        track(n);
        return std::make_shared<LazyTensor>(std::move(n), device_);
    }

    /// Materialises the pending inputs together (one pass where they share a shape).
    void flush(const TensorRefs& inputs) const {
        bool any = false;
        for (const auto& t : inputs) any = any || node_of(t)->pending();
        if (!any) return;  // the common case: no allocation
        std::vector<NodePtr> roots;
        for (const auto& t : inputs)
            if (node_of(t)->pending()) roots.push_back(node_of(t));
        evaluate(roots, below_, *target_);
    }

    /// Remembers a pending node for sync (weakly: a node nobody holds is never computed).
    void track(const NodePtr& n) {
        platform::Lock lock(mutex_);
        if (pending_.size() >= prune_at_) {
            std::erase_if(pending_, [](const std::weak_ptr<Node>& w) {
                auto p = w.lock();
                return !p || !p->pending();
            });
            prune_at_ = 2 * pending_.size() + 256;
        }
        pending_.push_back(n);
    }

    /// sync: every pending node someone holds, computed in as few passes as their shapes allow.
    void flush_pending() {
        std::vector<NodePtr> live;
        {
            platform::Lock lock(mutex_);
            for (auto& w : pending_)
                if (auto p = w.lock(); p && p->pending()) live.push_back(std::move(p));
            pending_.clear();
            prune_at_ = 256;
        }
        if (live.empty()) return;
        std::map<const Node*, long> internal;  // references from pending nodes of the live graph
        for (const NodePtr& n : live)
            for (const NodePtr& c : n->inputs) ++internal[c.get()];
        std::vector<NodePtr> roots;
        for (NodePtr& n : live)
            if (n->owners() - 1 > internal[n.get()]) roots.push_back(n);  // -1: live's own reference
        live.clear();  // before evaluating: an intermediate must not look held
        evaluate(roots, below_, *target_);
    }

    Device device_;
    Device below_;
    FusionTarget* target_;  // the backend below's; nullptr: forward only
    platform::Mutex mutex_;
    std::vector<std::weak_ptr<Node>> pending_;
    std::size_t prune_at_ = 256;
};

Lazy& backend_for(const Device& device) {
    static platform::Mutex mutex;
    static auto* backends = new std::map<uint64_t, std::unique_ptr<Lazy>>();  // for the process
    platform::Lock lock(mutex);
    auto& slot = (*backends)[device.key()];
    if (!slot) slot = std::make_unique<Lazy>(device);
    return *slot;
}

}  // namespace

}  // namespace burn::lazy

namespace burn::detail {
/// The registry's entry, listed by the file cmake/registry.cmake generates.
DecoratorEntry decorator_entry_lazy() {
    return DecoratorEntry{"lazy", [](const Device& device) -> Backend& { return lazy::backend_for(device); }};
}
}  // namespace burn::detail
