// Autocast (burn/amp/autocast.hpp, docs/mixed_precision.md): the policy table, the dtype each op
// actually runs in under the guard and the decorator (observed on a forwarding backend), values, and
// gradients under autodiff against float32 within bf16 tolerance, with float32 masters.
#include <gtest/gtest.h>

#include <burn/amp/autocast.hpp>
#include <burn/amp/policy.hpp>
#include <burn/burn.hpp>
#include <cmath>
#include <map>
#include <string>

#include "forwarding_backend.hpp"

using namespace burn;

namespace amp_autocast_test {

namespace {

/// The CPU behind a backend that records the input dtypes of every op it runs, by op name.
struct Probe {
    burn::testing::ForwardingBackend& backend = burn::testing::register_forwarding<7>("amp_probe");
    std::multimap<std::string, std::vector<DType>> seen;
    Probe() {
        backend.observe = [this](const OpCall& c, const std::vector<TensorMeta>& in, const TensorRefs&) {
            std::vector<DType> d;
            for (const auto& m : in) d.push_back(m.dtype);
            seen.emplace(std::string(op_name(c.op)), d);
        };
    }
    ~Probe() { backend.observe = nullptr; }
    Device device() const { return Device::of("amp_probe", 0); }
    /// The dtype of input `i` of every call of op seen; fails when op never ran.
    DType ran_in(const std::string& op, std::size_t i = 0) const {
        auto [b, e] = seen.equal_range(op);
        EXPECT_NE(b, e) << op << " never ran";
        if (b == e) return DType::boolean;
        const DType first = b->second.at(i);
        for (auto it = b; it != e; ++it) EXPECT_EQ(it->second.at(i), first) << op << " ran in several dtypes";
        return first;
    }
};

Tensor<2> rand2(std::size_t r, std::size_t c, const Device& d, uint64_t seed) {
    d.seed(seed);
    return Tensor<2>::random({r, c}, Distribution::Normal(0, 1), d);
}

std::vector<float> floats(const Tensor<2>& t) {
    return ops::into_data(ops::cast(ops::inner_of(t.handle()), DType::f32)).to_vec<float>();
}

}  // namespace

TEST(AutocastPolicy, TableByRow) {
    using autocast::Policy;
    using autocast::policy;
    for (OpId op : {OpId::matmul, OpId::conv, OpId::conv_fused, OpId::conv_backward_input,
                    OpId::conv_backward_weight, OpId::attention})
        EXPECT_EQ(policy(op), Policy::low) << op;
    for (OpId op : {OpId::softmax, OpId::log_softmax, OpId::layer_norm, OpId::layer_norm_backward,
                    OpId::cross_entropy, OpId::sum_dim, OpId::mean_dim, OpId::cumsum, OpId::exp, OpId::log,
                    OpId::powf, OpId::softmax_backward})
        EXPECT_EQ(policy(op), Policy::float32) << op;
    for (OpId op : {OpId::add, OpId::mul, OpId::gelu, OpId::cast, OpId::copy, OpId::reshape, OpId::gather,
                    OpId::max_dim, OpId::argmax, OpId::adam_step, OpId::adam_step_multi, OpId::fill})
        EXPECT_EQ(policy(op), Policy::passthrough) << op;
    // Every row has one of the three (a new row takes its family's default).
    for (int i = 0; i < kNumOps; ++i) {
        const auto p = policy(static_cast<OpId>(i));
        EXPECT_TRUE(p == Policy::low || p == Policy::float32 || p == Policy::passthrough);
    }
    EXPECT_FALSE(autocast::keeps_float32(OpId::matmul, 0));
    EXPECT_FALSE(autocast::keeps_float32(OpId::attention, 3));
    EXPECT_TRUE(autocast::keeps_float32(OpId::linear, 2));  // the bias adds to the float32 product
    EXPECT_FALSE(autocast::keeps_float32(OpId::linear, 0));
    EXPECT_EQ(policy(OpId::linear), Policy::low);
    EXPECT_EQ(autocast::compute_dtype(Policy::low, DType::f32, DType::bf16), DType::bf16);
    EXPECT_EQ(autocast::compute_dtype(Policy::low, DType::f64, DType::bf16), DType::f64);  // as torch
    EXPECT_EQ(autocast::compute_dtype(Policy::float32, DType::f16, DType::bf16), DType::f32);
    EXPECT_EQ(autocast::compute_dtype(Policy::passthrough, DType::f16, DType::bf16), DType::f16);
}

TEST(AutocastGuard, RoutesEachOpToItsDtype) {
    Probe probe;
    const Device d = probe.device();
    auto a = rand2(4, 8, d, 1), b = rand2(8, 3, d, 2);
    {
        autocast::Guard amp(DType::bf16);
        EXPECT_TRUE(autocast::active() == DType::bf16);
        auto y = a.matmul(b);
        EXPECT_EQ(y.dtype(), DType::f32);  // the dtype the call records
        auto s = Tensor<2>(ops::softmax(y.handle(), 1)).exp().sum();
        (void)s;
    }
    EXPECT_FALSE(autocast::active().has_value());
    // A float32 matmul runs as matmul_widen: bf16 operands, the product written in float32
    EXPECT_EQ(probe.ran_in("matmul_widen", 0), DType::bf16);
    EXPECT_EQ(probe.ran_in("matmul_widen", 1), DType::bf16);
    EXPECT_EQ(probe.ran_in("softmax"), DType::f32);
    EXPECT_EQ(probe.ran_in("exp"), DType::f32);
    probe.seen.clear();
    (void)a.matmul(b);  // the guard has ended
    EXPECT_EQ(probe.ran_in("matmul"), DType::f32);
}

TEST(AutocastGuard, F16NestingAndOff) {
    Probe probe;
    const Device d = probe.device();
    auto a = rand2(4, 8, d, 1), b = rand2(8, 3, d, 2);
    autocast::Guard outer(DType::f16);
    {
        autocast::Guard off(std::nullopt);  // torch's enabled=False inside a region
        (void)a.matmul(b);
        EXPECT_EQ(probe.ran_in("matmul"), DType::f32);
    }
    probe.seen.clear();
    (void)a.matmul(b);
    EXPECT_EQ(probe.ran_in("matmul_widen"), DType::f16);
    EXPECT_THROW({ autocast::Guard bad(DType::f64); }, Error);
}

TEST(AutocastGuard, Float32RowsLiftLowInputs) {
    Probe probe;
    const Device d = probe.device();
    auto x = rand2(3, 5, d, 3).cast(DType::bf16);
    autocast::Guard amp(DType::bf16);
    auto y = Tensor<2>(ops::softmax(x.handle(), 1));
    EXPECT_EQ(y.dtype(), DType::bf16);  // returned as called
    EXPECT_EQ(probe.ran_in("softmax"), DType::f32);
    auto z = ops::layer_norm(x.handle(), std::nullopt, std::nullopt);
    EXPECT_EQ(z.dtype(), DType::bf16);
    EXPECT_EQ(probe.ran_in("layer_norm"), DType::f32);
}

TEST(AutocastGuard, ConvLinearAttentionRunLow) {
    Probe probe;
    const Device d = probe.device();
    d.seed(5);
    auto x = ops::random({2, 3, 6, 6}, Distribution::Normal(0, 1), DType::f32, d);
    auto w = ops::random({4, 3, 3, 3}, Distribution::Normal(0, 1), DType::f32, d);
    auto bias = ops::random({4}, Distribution::Normal(0, 1), DType::f32, d);
    auto q = ops::random({2, 2, 5, 8}, Distribution::Normal(0, 1), DType::f32, d);
    auto lin = nn::LinearConfig{8, 6}.init(d);
    autocast::Guard amp(DType::bf16);
    auto y = ops::conv2d(x, w, bias, ConvOptions<2>{});
    EXPECT_EQ(y.dtype(), DType::f32);
    EXPECT_EQ(probe.ran_in("conv", 0), DType::bf16);
    EXPECT_EQ(probe.ran_in("conv", 1), DType::bf16);
    auto att = ops::attention(q, q, q, std::nullopt, true);
    EXPECT_EQ(att.dtype(), DType::f32);
    EXPECT_EQ(probe.ran_in("attention", 0), DType::bf16);
    probe.seen.clear();
    auto h = lin.forward(Tensor<2>(ops::reshape(q, {20, 8})));
    EXPECT_EQ(h.dtype(), DType::f32);
    EXPECT_EQ(probe.ran_in("linear", 0), DType::bf16);  // x
    EXPECT_EQ(probe.ran_in("linear", 1), DType::bf16);  // the weight
    EXPECT_EQ(probe.ran_in("linear", 2), DType::f32);   // the bias, kept float32
}

TEST(AutocastDecorator, RoutesLikeTheGuard) {
    Probe probe;
    const Device d = probe.device().autocast(DType::bf16);
    EXPECT_TRUE(autocast::device_dtype(d) == DType::bf16);
    EXPECT_EQ(d.str(), "autocast_bf16(amp_probe:0)");
    EXPECT_EQ(Device::parse(d.str()), d);
    auto a = rand2(4, 8, d, 1), b = rand2(8, 3, d, 2);
    auto y = a.matmul(b);
    EXPECT_EQ(y.dtype(), DType::f32);
    EXPECT_EQ(y.device(), d);
    (void)ops::softmax(y.handle(), 1);
    EXPECT_EQ(probe.ran_in("matmul_widen"), DType::bf16);
    EXPECT_EQ(probe.ran_in("softmax"), DType::f32);
    probe.seen.clear();
    const Device h = probe.device().autocast(DType::f16).autodiff();
    auto c = rand2(4, 8, h, 1).require_grad();
    (void)c.matmul(rand2(8, 3, h, 2)).sum().backward();
    EXPECT_EQ(probe.ran_in("matmul_widen"), DType::f16);  // forward and backward matmuls
    EXPECT_THROW(Device::cpu().autocast(DType::i32), Error);
}

// The value of a float32 matmul under autocast: the product of the bf16-rounded operands written in
// float32 (matmul_widen; rounded through bf16 on a backend without its kernel).
TEST(Autocast, MatmulValuesAreTheLowDtypes) {
    const Device d = Device::cpu();
    auto a = rand2(16, 32, d, 11), b = rand2(32, 8, d, 12);
    auto want =
        Tensor<2>(ops::matmul_widen(a.cast(DType::bf16).handle(), b.cast(DType::bf16).handle(), DType::f32));
    auto exact = a.matmul(b);
    Tensor<2> got;
    {
        autocast::Guard amp(DType::bf16);
        got = a.matmul(b);
    }
    EXPECT_EQ(floats(got), floats(want));
    EXPECT_NE(floats(got), floats(exact));  // it did run in bf16
    EXPECT_EQ(floats(a.to_device(d.autocast(DType::bf16)).matmul(b.to_device(d.autocast(DType::bf16)))),
              floats(want));
}

// Under the guard, the gradients of a linear layer's float32 input and weight come straight out of the
// adjoint GEMMs in float32 (matmul_widen), not rounded through bf16 and cast back: backward() offers the
// float32 of the autocast cast to the linear's rule (VjpContext::widen). Bit for bit against the
// GEMMs written out; and different from the bf16-rounded path, so the test sees which one ran.
TEST(AutocastBackward, LinearGradientsLeaveTheGemmInFloat32) {
    const Device d = Device::cpu().autodiff();
    const auto x = rand2(16, 24, d, 21).require_grad(), w = rand2(8, 24, d, 22).require_grad();
    const auto seed = rand2(16, 8, d, 23);
    Gradients grads;
    {
        autocast::Guard amp(DType::bf16);
        const Tensor<2> y(ops::linear(x.handle(), w.handle()));
        EXPECT_EQ(y.dtype(), DType::f32);
        grads = y.mul(seed.detach()).sum().backward();
    }
    const auto gx = x.grad(grads).value(), gw = w.grad(grads).value();
    EXPECT_EQ(gx.dtype(), DType::f32);
    EXPECT_EQ(gw.dtype(), DType::f32);
    auto low = [](const Tensor<2>& t) { return ops::cast(ops::inner_of(t.detach().handle()), DType::bf16); };
    const TensorAny g = low(seed);
    const Tensor<2> want_x(ops::matmul_widen(g, low(w), DType::f32));
    const Tensor<2> want_w(ops::matmul_widen(ops::swap_dims(g, 0, 1), low(x), DType::f32));
    EXPECT_EQ(floats(gx), floats(want_x));
    EXPECT_EQ(floats(gw), floats(want_w));
    const Tensor<2> rounded(ops::cast(ops::matmul(g, low(w)), DType::f32));
    EXPECT_NE(floats(gx), floats(rounded));
}

}  // namespace amp_autocast_test
