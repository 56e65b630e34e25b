// The "trace" decorator: a pass-through backend over the device below that records every call made
// while a RecordingScope is active on the calling thread (see trace_backend.hpp).
#include "onnx/export/trace_backend.hpp"

#include <atomic>
#include <memory>
#include <mutex>

#include "burn/backend/registry.hpp"
#include "burn/core/error.hpp"
#include "ops/decompose.hpp"
#include "platform/sync.hpp"

namespace burn::onnx::exporter {

namespace {

std::atomic<int64_t> g_next_value{1};
BURN_THREAD_LOCAL Recording* t_recording = nullptr;

/// A tensor of a traced device: the tensor below and its value id.
struct TraceTensor final : TensorImpl {
    TraceTensor(TensorRef inner_, const Device& device_)
        : TensorImpl(inner_->shape, inner_->dtype, device_), inner(std::move(inner_)), id(g_next_value++) {}
    TensorRef inner;
    const int64_t id;
};

const TraceTensor& as_trace(const TensorRef& t, const char* what) {
    BURN_CHECK(t != nullptr, "[onnx export] ", what, ": undefined tensor");
    const auto* tt = dynamic_cast<const TraceTensor*>(t.get());
    BURN_CHECK(tt != nullptr, "[onnx export] ", what, ": a ", t->dtype, " tensor of shape ", t->shape, " on ",
               t->device,
               " reached the tracer; move every tensor the forward pass uses onto the traced device "
               "(onnx::save does this for the module's parameters and the example inputs)");
    return *tt;
}

TensorMeta meta_of(const TensorImpl& t) {
    return TensorMeta{t.dtype, t.shape};
}

class TraceBackend final : public Backend {
  public:
    explicit TraceBackend(const Device& device) : device_(device), below_(device.below()) {}
    std::string_view name() const override { return "trace"; }

    TensorRef from_host(const TensorData& data, const Device&) override {
        return wrap(below().from_host(data, below_), device_);
    }
    TensorData to_host(const TensorRef& t) override { return below().to_host(unwrap(t)); }
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        TensorRefs inner;
        std::vector<TensorMeta> metas;
        for (const auto& t : inputs) {
            inner.push_back(unwrap(t));
            metas.push_back(meta_of(*t));
        }
        // A row export cannot write: dispatch runs its decomposition above us, so its primitives are
        // recorded (a primitive without a mapping is recorded and reported when the graph is built).
        if (t_recording && ops::decomposition(call.op) && !can_export(call, metas)) return false;
        return below().supports(call, inner);
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        TensorRefs inner;
        inner.reserve(inputs.size());
        TracedNode node;
        for (const auto& t : inputs) {
            const auto& tt = as_trace(t, "input");
            inner.push_back(tt.inner);
            if (t_recording) {
                node.in.push_back(tt.id);
                auto [it, fresh] = t_recording->values.try_emplace(tt.id);
                if (fresh) it->second = TracedValue{meta_of(tt), tt.inner, -1, 0};
            }
        }
        inputs.clear();
        TensorRefs outs = below().execute(call, std::move(inner));
        TensorRefs wrapped;
        wrapped.reserve(outs.size());
        for (auto& o : outs) wrapped.push_back(wrap(std::move(o), device_));
        if (t_recording) {
            const int index = static_cast<int>(t_recording->nodes.size());
            for (std::size_t i = 0; i < wrapped.size(); ++i) {
                const auto& tt = static_cast<const TraceTensor&>(*wrapped[i]);
                node.out.push_back(tt.id);
                t_recording->values[tt.id] = TracedValue{meta_of(tt), nullptr, index, static_cast<int>(i)};
            }
            node.call = call;
            t_recording->nodes.push_back(std::move(node));
        }
        return wrapped;
    }
    void sync() override { below().sync(); }
    TensorRef unwrap(const TensorRef& t) const override { return as_trace(t, "unwrap").inner; }
    TensorRef wrap(TensorRef inner, const Device& device) override {
        return std::make_shared<TraceTensor>(std::move(inner), device);
    }

  private:
    Backend& below() const { return below_.backend(); }
    Device device_, below_;
};

Backend& trace_backend_for(const Device& device) {
    static platform::Mutex mutex;
    static auto* backends = new std::map<uint64_t, std::unique_ptr<TraceBackend>>();
    platform::Lock lock(mutex);
    auto& slot = (*backends)[device.key()];
    if (!slot) slot = std::make_unique<TraceBackend>(device);
    return *slot;
}

}  // namespace

RecordingScope::RecordingScope(Recording& rec) {
    BURN_CHECK(t_recording == nullptr,
               "[onnx export] a trace is already being recorded on this thread; "
               "onnx::trace and onnx::save do not nest");
    t_recording = &rec;
}

RecordingScope::~RecordingScope() {
    t_recording = nullptr;
}

bool recording_active() {
    return t_recording != nullptr;
}

Device traced_device(const Device& device) {
    static std::once_flag once;
    std::call_once(once, [] {
        if (find_decorator("trace") < 0)
            register_decorator(
                DecoratorEntry{"trace", [](const Device& d) -> Backend& { return trace_backend_for(d); }});
    });
    return device.base().decorate("trace");
}

int64_t value_id(const TensorRef& t, const char* what) {
    return as_trace(t, what).id;
}

TensorRef inner_of(const TensorRef& t) {
    return as_trace(t, "inner").inner;
}

}  // namespace burn::onnx::exporter
