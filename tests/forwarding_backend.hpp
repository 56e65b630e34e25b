#pragma once
// A backend registered at run time for tests: it runs every op it allows on the CPU backend, with its
// tensors wrapping the CPU's. A test backend that supports only part of the op table (a new backend
// starting from the primitives) is this with a narrower filter.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "burn/backend/backend.hpp"
#include "burn/backend/registry.hpp"

namespace burn::testing {

struct ForwardedTensor final : TensorImpl {
    ForwardedTensor(TensorRef inner_, const Device& device_)
        : TensorImpl(inner_->shape, inner_->dtype, device_), inner(std::move(inner_)) {}
    TensorRef inner;
};

class ForwardingBackend final : public Backend {
  public:
    explicit ForwardingBackend(std::string name) : name_(std::move(name)) {}
    std::string_view name() const override { return name_; }
    TensorRef from_host(const TensorData& data, const Device& device) override {
        return std::make_shared<ForwardedTensor>(cpu().from_host(data, Device::cpu()), device);
    }
    TensorData to_host(const TensorRef& t) override { return cpu().to_host(inner(t)); }
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        const bool yes = (!allow || allow(call.op)) && cpu().supports(call, unwrapped(inputs));
        if (!yes && declined) declined(call);
        return yes;
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        ++executed;
        Device device = inputs.empty() ? device_ : inputs[0]->device;
        TensorRefs in = unwrapped(inputs);
        std::vector<TensorMeta> in_metas;
        if (observe)
            for (const auto& t : in) in_metas.push_back({t->dtype, t->shape});
        TensorRefs outs = cpu().execute(call, std::move(in));
        if (observe) observe(call, in_metas, outs);
        for (auto& o : outs) o = std::make_shared<ForwardedTensor>(std::move(o), device);
        return outs;
    }
    void sync() override {}

    std::function<bool(OpId)> allow;  // null: everything the CPU runs
    Device device_ = Device::cpu();   // the device creation ops (no inputs) run on; set after registering
    int executed = 0;
    /// Called after each execute with the call, its inputs' metas and the CPU's outputs (when set).
    std::function<void(const OpCall&, const std::vector<TensorMeta>&, const TensorRefs&)> observe;
    /// Called when supports() says no (the op then decomposes or falls back), when set.
    std::function<void(const OpCall&)> declined;

  private:
    static Backend& cpu() { return Device::cpu().backend(); }
    static const TensorRef& inner(const TensorRef& t) {
        return static_cast<const ForwardedTensor&>(*t).inner;
    }
    static TensorRefs unwrapped(const TensorRefs& in) {
        TensorRefs out;
        for (const auto& t : in) out.push_back(inner(t));
        return out;
    }
    std::string name_;
};

/// Registers a ForwardingBackend once per process under `name` (string literal) and returns it; its one
/// device is Device::of(name, 0). Slot tells the call sites apart (one per backend in the binary).
template <int Slot>
ForwardingBackend& register_forwarding(std::string_view name, std::function<bool(OpId)> allow = {}) {
    static ForwardingBackend* backend = [&] {
        auto* b = new ForwardingBackend(std::string(name));  // lives for the whole process
        b->allow = std::move(allow);
        BackendEntry e;
        e.name = name;
        e.title = name;
        e.device_count = [] { return 1; };
        e.backend = [](int) -> Backend& { return *backend; };
        register_backend(e);
        b->device_ = Device::of(name, 0);
        return b;
    }();
    return *backend;
}

/// Device::available() without the forwarding backends above: the devices a sweep compares against the
/// CPU. A forwarding backend runs on the CPU, and which ones are registered depends on which tests ran
/// earlier in the process (they stay listed once registered), so counting them made the sweeps' work and
/// coverage depend on how the suite was sharded.
inline std::vector<Device> sweep_devices() {
    std::vector<Device> out;
    for (const Device& d : Device::available())
        if (!dynamic_cast<const ForwardingBackend*>(&d.backend())) out.push_back(d);
    return out;
}

}  // namespace burn::testing
