// The autodiff decorator: unwraps inputs, runs the inner backend, and records a node whose gradient
// rule comes from the op table. No per-op code lives here.
#include <atomic>
#include <cstdlib>
#include <map>

#include "autodiff/graph.hpp"
#include "autodiff/rules.hpp"
#include "burn/autodiff/gradients.hpp"
#include "burn/backend/registry.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/decompose.hpp"
#include "platform/env.hpp"
#include "platform/sync.hpp"

namespace burn::autodiff {

namespace {
platform::Counter<int64_t> g_live_nodes{0};
platform::Counter<uint64_t> g_next_id{1};
BURN_THREAD_LOCAL bool t_grad_enabled = true;
platform::EnvSwitch g_anomaly("BURN_DETECT_ANOMALY", false);
}  // namespace

Node::Node() : id(g_next_id.fetch_add(1)) {
    g_live_nodes.fetch_add(1);
}

Node::~Node() {
    g_live_nodes.fetch_sub(1);
    // Release parents iteratively: a node whose last owner is this one would otherwise recurse.
    std::vector<NodeRef> stack = std::move(parents);
    while (!stack.empty()) {
        NodeRef n = std::move(stack.back());
        stack.pop_back();
        if (n && n.use_count() == 1) {
            for (auto& p : n->parents) stack.push_back(std::move(p));
            n->parents.clear();
        }
    }
}

std::string Node::op_name() const {
    if (leaf) return "leaf";
    if (custom) return custom->name;
    return std::string(burn::op_name(call.op));
}

int64_t live_nodes() {
    return g_live_nodes.load();
}

const AdTensor* as_ad(const TensorImpl& t) {
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
    return dynamic_cast<const AdTensor*>(&t);
#else
    // Without RTTI (-DBURN_EXCEPTIONS=OFF builds also drop it): only the autodiff backend makes tensors
    // whose device carries autodiff outermost.
    if (t.device.num_decorators() == 0 || t.device.decorators().back() != "autodiff") return nullptr;
    return static_cast<const AdTensor*>(&t);
#endif
}

AutodiffBackend::AutodiffBackend(const Device& inner) : inner_(inner), device_(inner.autodiff()) {}

TensorRef AutodiffBackend::from_host(const TensorData& data, const Device&) {
    return std::make_shared<AdTensor>(inner_.backend().from_host(data, inner_), device_, nullptr, 0, nullptr);
}

TensorData AutodiffBackend::to_host(const TensorRef& tensor) {
    return inner_.backend().to_host(static_cast<const AdTensor&>(*tensor).inner);
}

namespace {

/// A call's inputs seen through the decorator: the inner tensors, whether any input is tracked, and
/// the op that blocked gradients on an input (if any).
struct Unwrapped {
    TensorRefs inner;
    bool tracked = false;
    const char* blocked = nullptr;
};

Unwrapped unwrap_inputs(const TensorRefs& inputs) {
    Unwrapped u;
    u.inner.reserve(inputs.size());
    for (const auto& t : inputs) {
        const auto& a = static_cast<const AdTensor&>(*t);
        u.inner.push_back(a.inner);
        u.tracked |= a.node != nullptr;
        if (a.blocked_by) u.blocked = a.blocked_by;
    }
    return u;
}

}  // namespace

bool AutodiffBackend::supports(const OpCall& call, const TensorRefs& inputs) const {
    // Asked before every op: the inner tensors go into a per-thread scratch list, which keeps its
    // capacity (no allocation per op). A nested call (a decorator below asking again) uses its own.
    static BURN_THREAD_LOCAL TensorRefs scratch;
    static BURN_THREAD_LOCAL bool busy = false;
    struct Release {  // drops the references and the flag on every way out
        TensorRefs& refs;
        bool outer;
        ~Release() {
            refs.clear();
            if (outer) busy = false;
        }
    };
    TensorRefs local;
    Release release{busy ? local : scratch, !busy};
    busy = true;
    bool tracked = false;
    for (const auto& t : inputs) {
        const auto& a = static_cast<const AdTensor&>(*t);
        release.refs.push_back(a.inner);
        tracked |= a.node != nullptr;
    }
    // A derived row without a gradient rule of its own differentiates through its decomposition: when
    // the call must be recorded, dispatch runs the decomposition here, so its primitives are recorded.
    if (tracked && grad_enabled() && is_float(call.dtype) && !vjp_rule(call.op) &&
        !is_non_differentiable(call.op) && ops::decomposition(call.op))
        return false;
    return inner_.backend().supports(call, release.refs);
}

TensorRefs AutodiffBackend::execute(const OpCall& call, TensorRefs inputs) {
    Unwrapped u = unwrap_inputs(inputs);
    TensorRefs inner = std::move(u.inner);
    const bool tracked = u.tracked;
    const char* blocked = u.blocked;
    const bool differentiable = is_differentiable(call.op) && is_float(call.dtype);
    const bool record = tracked && grad_enabled() && differentiable;
    if (tracked && !differentiable) blocked = burn::op_name(call.op).data();

    std::vector<TensorAny> saved_in;
    if (record) {
        saved_in.reserve(inner.size());
        for (const auto& t : inner) saved_in.emplace_back(t);
    }
    TensorRefs outs = inner_.backend().execute(call, std::move(inner));

    if (detect_anomaly()) {
        ::burn::detail::Text what;
        what << "forward op '" << burn::op_name(call.op) << "' (inputs";
        for (const auto& t : inputs) what << ' ' << t->dtype << ' ' << t->shape;
        what << ")";
        for (const auto& o : outs) check_anomaly(TensorAny(o), what.str());
    }

    NodeRef node;
    if (record) {
        node = std::make_shared<Node>();
        node->call = call;
        node->inputs = std::move(saved_in);
        for (const auto& o : outs) node->outputs.emplace_back(o);
        for (const auto& t : inputs) {
            const auto& a = static_cast<const AdTensor&>(*t);
            node->parents.push_back(a.node);
            node->parent_output.push_back(a.output);
        }
    }
    TensorRefs wrapped;
    wrapped.reserve(outs.size());
    for (std::size_t i = 0; i < outs.size(); ++i)
        wrapped.push_back(std::make_shared<AdTensor>(std::move(outs[i]), device_, node, static_cast<int>(i),
                                                     record ? nullptr : blocked));
    return wrapped;
}

AutodiffBackend& backend_for(const Device& device) {
    // Asked on every op of an autodiff device: each thread remembers the last device it asked for (the
    // backends live for the whole process, so the pointer stays valid) and takes the lock only for others.
    static BURN_THREAD_LOCAL uint64_t last_key = 0;
    static BURN_THREAD_LOCAL AutodiffBackend* last = nullptr;
    const uint64_t key = device.key();
    if (last && last_key == key) return *last;
    static platform::Mutex mutex;
    static auto* backends = new std::map<uint64_t, std::unique_ptr<AutodiffBackend>>();
    platform::Lock lock(mutex);
    auto& slot = (*backends)[key];
    if (!slot) slot = std::make_unique<AutodiffBackend>(device.below());
    last_key = key;
    last = slot.get();
    return *slot;
}

TensorRef AutodiffBackend::unwrap(const TensorRef& t) const {
    return static_cast<const AdTensor&>(*t).inner;
}

TensorRef AutodiffBackend::wrap(TensorRef inner, const Device& device) {
    return std::make_shared<AdTensor>(std::move(inner), device, nullptr, 0, nullptr);
}

void check_anomaly(const TensorAny& t, const std::string& what) {
    if (!is_float(t.dtype()) || t.numel() == 0) return;
    auto bad = ops::any(ops::bool_or(ops::is_nan(t), ops::is_inf(t)));
    if (ops::into_data(bad).value_as_double(0) != 0) {
        BURN_THROW("[anomaly] ", what, " produced NaN or Inf in its ", t.dtype(), " output of shape ",
                   t.shape());
    }
}

}  // namespace burn::autodiff

namespace burn {

/// The registry's entry, listed by the file cmake/registry.cmake generates.
namespace detail {
DecoratorEntry decorator_entry_autodiff() {
    return DecoratorEntry{"autodiff",
                          [](const Device& device) -> Backend& { return autodiff::backend_for(device); }};
}
}  // namespace detail

NoGrad::NoGrad() : previous_(autodiff::t_grad_enabled) {
    autodiff::t_grad_enabled = false;
}
NoGrad::~NoGrad() {
    autodiff::t_grad_enabled = previous_;
}
bool grad_enabled() {
    return autodiff::t_grad_enabled;
}

void set_detect_anomaly(bool on) {
    autodiff::g_anomaly.set(on);
}
bool detect_anomaly() {
    return autodiff::g_anomaly.on();
}

}  // namespace burn
