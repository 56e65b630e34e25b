// The autocast decorators: Device::autocast(DType::bf16) is "autocast_bf16(cpu)", f16 "autocast_f16".
// Each op of the device runs on the device below under its row's autocast policy (burn/amp/policy.hpp,
// the same routine as autocast::Guard): compute-bound rows read float32 inputs cast to the low dtype,
// and every op returns the dtypes its call records, so an autodiff decorator above records and
// differentiates the float32 ops while the casts happen below its tape.
#include <map>
#include <memory>

#include "burn/amp/autocast.hpp"
#include "burn/amp/policy.hpp"
#include "burn/backend/backend.hpp"
#include "burn/backend/registry.hpp"
#include "platform/sync.hpp"

namespace burn {

namespace {

/// A tensor of an autocast device: the tensor of the device below.
struct AutocastTensor final : TensorImpl {
    AutocastTensor(TensorRef inner_, const Device& device_)
        : TensorImpl(inner_->shape, inner_->dtype, device_), inner(std::move(inner_)) {}
    TensorRef inner;
};

class Autocast final : public Backend {
  public:
    Autocast(const Device& device, DType low) : device_(device), below_(device.below()), low_(low) {}
    std::string_view name() const override { return low_ == DType::bf16 ? "autocast_bf16" : "autocast_f16"; }

    TensorRef from_host(const TensorData& data, const Device&) override {
        return wrap(below().from_host(data, below_), device_);
    }
    TensorData to_host(const TensorRef& t) override { return below().to_host(unwrap(t)); }
    /// A derived row the device below lacks is left to dispatch, which decomposes it here (its
    /// primitives then come through this decorator, each under its own policy).
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        return below().supports(call, unwrap_all(inputs));
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        TensorRefs inner = unwrap_all(inputs);
        inputs.clear();  // the inner backend may reuse buffers it holds the only reference to
        std::optional<TensorRefs> cast = autocast::run_autocast(call, inner, low_);
        TensorRefs outs = cast ? std::move(*cast) : below().execute(call, std::move(inner));
        for (auto& o : outs) o = wrap(std::move(o), device_);
        return outs;
    }
    void sync() override { below().sync(); }
    TensorRef unwrap(const TensorRef& t) const override {
        return static_cast<const AutocastTensor&>(*t).inner;
    }
    TensorRef wrap(TensorRef inner, const Device& device) override {
        return std::make_shared<AutocastTensor>(std::move(inner), device);
    }

  private:
    Backend& below() const { return below_.backend(); }
    TensorRefs unwrap_all(const TensorRefs& in) const {
        TensorRefs out;
        out.reserve(in.size());
        for (const auto& t : in) out.push_back(unwrap(t));
        return out;
    }
    Device device_;
    Device below_;
    DType low_;
};

Autocast& backend_for(const Device& device, DType low) {
    static platform::Mutex mutex;
    static auto* backends = new std::map<uint64_t, std::unique_ptr<Autocast>>();  // for the process
    platform::Lock lock(mutex);
    auto& slot = (*backends)[device.key()];
    if (!slot) slot = std::make_unique<Autocast>(device, low);
    return *slot;
}

}  // namespace

namespace detail {
/// The registry's entries, listed by the file cmake/registry.cmake generates.
DecoratorEntry decorator_entry_autocast_bf16() {
    return DecoratorEntry{"autocast_bf16",
                          [](const Device& device) -> Backend& { return backend_for(device, DType::bf16); }};
}
DecoratorEntry decorator_entry_autocast_f16() {
    return DecoratorEntry{"autocast_f16",
                          [](const Device& device) -> Backend& { return backend_for(device, DType::f16); }};
}
}  // namespace detail

}  // namespace burn
