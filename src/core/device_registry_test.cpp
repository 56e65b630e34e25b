// The device registry: devices print and parse, placeholders name their CMake option, and a backend
// and a decorator registered at run time (as an out-of-tree one would) run the same model code,
// stack with autodiff and move tensors without copies.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <map>

#include "burn/backend/registry.hpp"
#include "forwarding_backend.hpp"

namespace burn {
namespace {

testing::ForwardingBackend& forwarding() {
    return testing::register_forwarding<0>("fwd");
}

/// A decorator that counts the ops it passes down and wraps the tensors of the device below.
class Tally final : public Backend {
  public:
    explicit Tally(Device device) : device_(device) {}
    std::string_view name() const override { return "tally"; }
    TensorRef from_host(const TensorData& data, const Device&) override {
        return wrap(below().from_host(data, device_.below()), device_);
    }
    TensorData to_host(const TensorRef& t) override { return below().to_host(unwrap(t)); }
    bool supports(const OpCall& call, const TensorRefs& inputs) const override {
        return below().supports(call, unwrap_all(inputs));
    }
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override {
        ++ops;
        TensorRefs outs = below().execute(call, unwrap_all(inputs));
        for (auto& o : outs) o = wrap(std::move(o), device_);
        return outs;
    }
    void sync() override { below().sync(); }
    TensorRef unwrap(const TensorRef& t) const override {
        return static_cast<const testing::ForwardedTensor&>(*t).inner;
    }
    TensorRef wrap(TensorRef inner, const Device& device) override {
        return std::make_shared<testing::ForwardedTensor>(std::move(inner), device);
    }
    int ops = 0;

  private:
    Backend& below() const { return device_.below().backend(); }
    TensorRefs unwrap_all(const TensorRefs& in) const {
        TensorRefs out;
        for (const auto& t : in) out.push_back(unwrap(t));
        return out;
    }
    Device device_;
};

Tally& tally_for(const Device& device) {
    static auto* backends = new std::map<uint64_t, std::unique_ptr<Tally>>();
    auto& slot = (*backends)[device.key()];
    if (!slot) slot = std::make_unique<Tally>(device);
    return *slot;
}

void register_tally() {
    static const bool done = [] {
        register_decorator(DecoratorEntry{"tally", [](const Device& d) -> Backend& { return tally_for(d); }});
        return true;
    }();
    (void)done;
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(DeviceRegistry, CpuIsFirstAndPrintsPlainly) {
    EXPECT_EQ(Device::cpu().backend_id(), 0);
    EXPECT_EQ(Device::cpu().backend_name(), "cpu");
    EXPECT_EQ(Device::cpu().str(), "cpu");
    EXPECT_EQ(Device::cpu().autodiff().str(), "autodiff(cpu)");
    EXPECT_EQ(find_backend("cpu"), 0);
    EXPECT_EQ(backend_entry(0).title, "CPU");
    EXPECT_GE(find_decorator("autodiff"), 0);
}

TEST(DeviceRegistry, ParseReadsWhatPrintWrites) {
    for (const Device& d : {Device::cpu(), Device::cpu().autodiff()}) EXPECT_EQ(Device::parse(d.str()), d);
    EXPECT_EQ(Device::parse("cpu:0"), Device::cpu());
    for (const char* bad : {"", "gpu", "cpu:x", "cpu:", "autodiff(cpu", "nope(cpu)", "cpu:99999999"})
        EXPECT_THROW(Device::parse(bad), DeviceError) << bad;
}

TEST(DeviceRegistry, PlaceholdersNameTheirOption) {
    // A backend in the API without an implementation names no CMake option (there is none to turn on).
    const std::string vulkan = message_of([] { Device::vulkan(0); });
    EXPECT_NE(vulkan.find("Device::vulkan(0): the Vulkan backend is not part of this version of burn"),
              std::string::npos)
        << vulkan;
    EXPECT_EQ(vulkan.find("BURN_VULKAN"), std::string::npos) << vulkan;
    const std::string unknown = message_of([] { Device::of("tpu", 0); });
    EXPECT_NE(unknown.find("no backend named 'tpu'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("cpu"), std::string::npos) << unknown;  // lists what there is
    EXPECT_NE(message_of([] { Device::of("cpu", 1); }).find("this machine has 1 CPU device(s)"),
              std::string::npos);
    const int before = num_backends();
    BackendEntry dup;
    dup.name = "cpu";
    dup.device_count = [] { return 1; };
    dup.backend = [](int) -> Backend& { return Device::cpu().backend(); };
    EXPECT_THROW(register_backend(dup), Error);  // a built name cannot be registered twice
    EXPECT_EQ(num_backends(), before);
}

TEST(DeviceRegistry, DecoratorsStackAndRefuseRepeats) {
    register_tally();
    const Device d = Device::cpu().decorate("tally").autodiff();
    EXPECT_EQ(d.str(), "autodiff(tally(cpu))");
    EXPECT_EQ(Device::parse("autodiff(tally(cpu))"), d);
    EXPECT_EQ(d.num_decorators(), 2);
    EXPECT_TRUE(d.is_autodiff());
    EXPECT_EQ(d.inner(), Device::cpu().decorate("tally"));
    EXPECT_EQ(d.below(), d.inner());
    EXPECT_EQ(d.base(), Device::cpu());
    EXPECT_NE(d, Device::cpu().autodiff().decorate("tally"));  // the order is part of the device
    EXPECT_THROW(d.autodiff(), DeviceError);
    EXPECT_THROW(d.decorate("tally"), DeviceError);
    EXPECT_THROW(Device::cpu().decorate("nope"), DeviceError);
}

TEST(DeviceRegistry, RuntimeBackendRunsTheModelCode) {
    forwarding();  // registers it
    const Device fwd = Device::of("fwd", 0);
    EXPECT_EQ(fwd.str(), "fwd:0");
    auto a = Tensor<2>::from_floats({{1.0, 2.0}, {3.0, 4.0}}, fwd);
    EXPECT_EQ(a.device(), fwd);
    const int before = forwarding().executed;
    auto b = (a.matmul(a) + 1.0).sum();
    EXPECT_GT(forwarding().executed, before);
    EXPECT_FLOAT_EQ(b.into_scalar(), 7 + 10 + 15 + 22 + 4);
    // Gradients through autodiff over the new backend match the CPU's.
    auto x = Tensor<2>::from_floats({{0.5, -1.0}, {2.0, 0.25}}, fwd.autodiff()).require_grad();
    auto grads = (x.exp() * 2.0).sum().backward();
    auto gx = x.grad(grads)->into_data().to_vec<float>();
    auto want = Tensor<2>::from_floats({{0.5, -1.0}, {2.0, 0.25}}, Device::cpu()).exp() * 2.0;
    EXPECT_EQ(gx, want.into_data().to_vec<float>());
    // Between backends a move copies; the values survive.
    EXPECT_EQ(a.to_device(Device::cpu()).into_data().to_vec<float>(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(DeviceRegistry, MovesBetweenDecorationsDoNotCopy) {
    register_tally();
    const Device tally = Device::cpu().decorate("tally");
    auto x = Tensor<1>::from_floats({1.0, 2.0, 3.0}, Device::cpu());
    auto on_tally = x.to_device(tally.autodiff());
    EXPECT_EQ(on_tally.device(), tally.autodiff());
    const TensorRef base = x.handle().ref();
    auto back = on_tally.to_device(Device::cpu());
    EXPECT_EQ(back.handle().ref(), base);  // unwrapped, not copied
    EXPECT_EQ(on_tally.inner().device(), tally);
    Tally& t = tally_for(tally);
    const int before = t.ops;
    auto y = (on_tally * 2.0).sum();
    EXPECT_GT(t.ops, before);  // the ops under autodiff passed through the decorator
    EXPECT_FLOAT_EQ(y.into_scalar(), 12.0f);
}

}  // namespace
}  // namespace burn
