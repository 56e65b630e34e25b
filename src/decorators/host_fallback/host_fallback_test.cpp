// The host-fallback decorator over a backend that lacks matmul: the op runs on the CPU through host
// copies, the rest stays on the backend, results and gradients equal the CPU's, and the undecorated
// backend still refuses the op with a message that names the decorator.
#include "burn/backend/host_fallback.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>

#include "forwarding_backend.hpp"

namespace burn {
namespace {

testing::ForwardingBackend& no_matmul() {
    return testing::register_forwarding<1>("no_matmul", [](OpId op) { return op != OpId::matmul; });
}

Tensor<2> mat_a(const Device& d) {
    return Tensor<2>::from_floats({{1.0, -2.0, 0.5}, {3.0, 0.25, -1.0}}, d);
}
Tensor<2> mat_b(const Device& d) {
    return Tensor<2>::from_floats({{2.0, 1.0}, {-1.0, 0.5}, {4.0, -3.0}}, d);
}

TEST(HostFallback, RunsUnsupportedOpsOnTheCpu) {
    no_matmul();
    const Device bare = Device::of("no_matmul", 0);
    auto a = mat_a(bare), b = mat_b(bare);
    try {
        (void)a.matmul(b);
        ADD_FAILURE() << "matmul on a backend without it did not throw";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("[matmul] not supported by the no_matmul backend"),
                  std::string::npos)
            << e.what();
    }

    const Device fb = bare.decorate("host_fallback");
    EXPECT_EQ(fb.str(), "host_fallback(no_matmul:0)");
    const int64_t before = host_fallback_ops();
    const int ran_below = no_matmul().executed;
    auto c = (a.to_device(fb).matmul(b.to_device(fb)) + 1.0).exp();
    EXPECT_EQ(c.device(), fb);
    EXPECT_EQ(host_fallback_ops(), before + 1);      // matmul only
    EXPECT_GE(no_matmul().executed, ran_below + 2);  // add and exp stayed on the backend
    auto want = (mat_a(Device::cpu()).matmul(mat_b(Device::cpu())) + 1.0).exp();
    EXPECT_EQ(c.into_data().to_vec<float>(), want.into_data().to_vec<float>());
}

TEST(HostFallback, GradientsThroughTheFallbackMatchTheCpu) {
    no_matmul();
    auto run = [](const Device& d) {
        auto a = mat_a(d).require_grad();
        auto b = mat_b(d).require_grad();
        auto grads = a.matmul(b).tanh().sum().backward();
        return std::make_pair(a.grad(grads)->into_data().to_vec<float>(),
                              b.grad(grads)->into_data().to_vec<float>());
    };
    const auto got = run(Device::of("no_matmul", 0).decorate("host_fallback").autodiff());
    const auto want = run(Device::cpu().autodiff());
    EXPECT_EQ(got.first, want.first);
    EXPECT_EQ(got.second, want.second);
}

}  // namespace
}  // namespace burn
