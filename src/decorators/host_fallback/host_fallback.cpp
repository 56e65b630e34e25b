// The host-fallback decorator: forwards each op to the device below it, or, when that backend does
// not support the op, copies the inputs to the CPU, runs the op there and copies the outputs back.
#include "burn/backend/host_fallback.hpp"

#include <map>
#include <memory>

#include "burn/backend/backend.hpp"
#include "burn/backend/registry.hpp"
#include "burn/core/error.hpp"
#include "ops/decompose.hpp"
#include "platform/sync.hpp"

namespace burn {

namespace {

platform::Counter<int64_t> g_ops{0};

/// A tensor of a host_fallback device: the tensor of the device below.
struct FallbackTensor final : TensorImpl {
    FallbackTensor(TensorRef inner_, const Device& device_)
        : TensorImpl(inner_->shape, inner_->dtype, device_), inner(std::move(inner_)) {}
    TensorRef inner;
};

class HostFallback final : public Backend {
  public:
    explicit HostFallback(const Device& device) : device_(device), below_(device.below()) {}
    std::string_view name() const override { return "host_fallback"; }

    TensorRef from_host(const TensorData& data, const Device&) override {
        return wrap(below().from_host(data, below_), device_);
    }
    TensorData to_host(const TensorRef& t) override { return below().to_host(unwrap(t)); }
    /// Rows the device below lacks: a derived row is left to dispatch, which decomposes it into
    /// primitives (they stay on the device); only primitives run on the CPU.
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        if (below().supports(call, unwrap_all(inputs))) return true;
        return ops::decomposition(call.op) == nullptr && cpu().supports(call, {});
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        TensorRefs inner = unwrap_all(inputs);
        inputs.clear();  // the inner backend may reuse buffers it holds the only reference to
        TensorRefs outs;
        if (below().supports(call, inner)) {
            outs = below().execute(call, std::move(inner));
        } else {
            ++g_ops;
            TensorRefs host;
            for (const auto& t : inner) host.push_back(cpu().from_host(below().to_host(t), Device::cpu()));
            inner.clear();
            for (const auto& t : cpu().execute(call, std::move(host)))
                outs.push_back(below().from_host(cpu().to_host(t), below_));
        }
        for (auto& o : outs) o = wrap(std::move(o), device_);
        return outs;
    }
    void sync() override { below().sync(); }
    TensorRef unwrap(const TensorRef& t) const override {
        return static_cast<const FallbackTensor&>(*t).inner;
    }
    TensorRef wrap(TensorRef inner, const Device& device) override {
        return std::make_shared<FallbackTensor>(std::move(inner), device);
    }

  private:
    Backend& below() const { return below_.backend(); }
    static Backend& cpu() { return Device::cpu().backend(); }
    TensorRefs unwrap_all(const TensorRefs& in) const {
        TensorRefs out;
        out.reserve(in.size());
        for (const auto& t : in) out.push_back(unwrap(t));
        return out;
    }
    Device device_;
    Device below_;
};

HostFallback& backend_for(const Device& device) {
    static platform::Mutex mutex;
    static auto* backends = new std::map<uint64_t, std::unique_ptr<HostFallback>>();  // for the process
    platform::Lock lock(mutex);
    auto& slot = (*backends)[device.key()];
    if (!slot) slot = std::make_unique<HostFallback>(device);
    return *slot;
}

}  // namespace

int64_t host_fallback_ops() {
    return g_ops.load();
}

namespace detail {
/// The registry's entry, listed by the file cmake/registry.cmake generates.
DecoratorEntry decorator_entry_host_fallback() {
    return DecoratorEntry{"host_fallback",
                          [](const Device& device) -> Backend& { return backend_for(device); }};
}
}  // namespace detail

}  // namespace burn
