// The multi-tensor Adam(W) step (ops.def adam_step_multi, Rule::step_many): bit for bit equal to the
// per-tensor adam_step, for the op (kernel and decomposition), and for the optimizer over a model.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <chrono>
#include <cmath>
#include <iostream>

#include "cuda_test_util.hpp"
#include "forwarding_backend.hpp"
#include "ops/optim_ops.hpp"

using namespace burn;

namespace adam_multi_test {

namespace {

std::vector<uint8_t> bytes(const TensorAny& t) {
    return ops::into_data(ops::inner_of(t)).bytes();
}

TensorAny rnd(const Dims& s, DType dt, const Device& d, bool positive = false) {
    auto x = ops::random(s, Distribution::Normal(0, 1), DType::f32, d);
    if (positive) x = ops::abs(x);
    return ops::cast(x, dt);
}

/// The per-tensor updates, flattened and concatenated: what adam_step_multi must return.
std::array<TensorAny, 3> per_tensor(const std::vector<std::array<TensorAny, 4>>& ts,
                                    const ops::AdamStepHyper& h) {
    std::vector<TensorAny> parts[3];
    for (const auto& t : ts) {
        auto r = ops::adam_step(t[0], t[1], t[2], t[3], h);
        for (int k = 0; k < 3; ++k)
            parts[k].push_back(ops::reshape(r[static_cast<std::size_t>(k)], {r[0].shape().numel()}));
    }
    return {ops::cat(parts[0], 0), ops::cat(parts[1], 0), ops::cat(parts[2], 0)};
}

/// The op on device d against adam_step per tensor: bit for bit (exact), or within rounding (the row's
/// decomposition into elementwise ops, on a backend without its kernel).
void check_op(const Device& d, DType dt, bool exact = true) {
    d.seed(7);
    const std::vector<Dims> shapes = {{3, 5}, {0, 4}, {1}, {70, 33}, {4, 2, 3}, {1000}};
    std::vector<std::array<TensorAny, 4>> ts;
    for (const Dims& s : shapes)
        ts.push_back({rnd(s, dt, d), rnd(s, dt, d), rnd(s, dt, d), rnd(s, dt, d, true)});
    // a transposed gradient view, as a Linear weight's gradient arrives
    ts.push_back({rnd({6, 20}, dt, d), ops::swap_dims(rnd({20, 6}, dt, d), 0, 1), rnd({6, 20}, dt, d),
                  rnd({6, 20}, dt, d, true)});
    const ops::AdamStepHyper h{0.9,  0.999,           1e-3 * std::sqrt(1 - 0.999) / (1 - 0.9),
                               1e-8, 1 - 1e-3 * 0.01, 0.0};
    const auto want = per_tensor(ts, h);
    std::vector<TensorAny> lists[4];
    for (const auto& t : ts)
        for (int k = 0; k < 4; ++k) lists[k].push_back(t[static_cast<std::size_t>(k)]);
    const auto got = ops::adam_step_multi(lists[0], lists[1], lists[2], lists[3], h);
    for (int k = 0; k < 3; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        EXPECT_EQ(got[kk].shape(), want[kk].shape());
        EXPECT_EQ(got[kk].dtype(), dt);
        if (exact) {
            EXPECT_EQ(bytes(got[kk]), bytes(want[kk])) << "output " << k << " on " << d << " in " << dt;
            continue;
        }
        const auto a = ops::into_data(ops::cast(got[kk], DType::f64)).to_vec<double>();
        const auto b = ops::into_data(ops::cast(want[kk], DType::f64)).to_vec<double>();
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5 * (1 + std::abs(b[i]))) << i;
    }
}

}  // namespace

TEST(AdamMulti, OpEqualsPerTensorBitForBit) {
    for (DType dt : {DType::f32, DType::f64, DType::bf16, DType::f16}) check_op(Device::cpu(), dt);
}

TEST(AdamMulti, OpRejectsMismatchedLists) {
    const Device d = Device::cpu();
    auto a = ops::full({2, 3}, 1, DType::f32, d), b = ops::full({3}, 1, DType::f32, d);
    auto i = ops::full({2, 3}, 1, DType::i32, d);
    EXPECT_THROW(ops::adam_step_multi({a}, {a, a}, {a}, {a}, {}), Error);
    EXPECT_THROW(ops::adam_step_multi({}, {}, {}, {}, {}), Error);
    EXPECT_THROW(ops::adam_step_multi({a, b}, {a, a}, {a, b}, {a, b}, {}), ShapeError);
    EXPECT_THROW(ops::adam_step_multi({a}, {i}, {a}, {a}, {}), Error);
    ops::AdamStepHyper bad;
    bad.eps = -1;
    EXPECT_THROW(ops::adam_step_multi({a}, {a}, {a}, {a}, bad), Error);
}

namespace {
struct Mlp {
    nn::Linear a, b;
    nn::LayerNorm ln;
    BURN_MODULE(Mlp, a, b, ln)
    Tensor<2> forward(const Tensor<2>& x) const {
        return b.forward(activation::gelu(ln.forward(a.forward(x))));
    }
};
}  // namespace

/// Three Adam and AdamW steps of the multi-tensor optimizer on base's autodiff device against
/// with_multi_tensor(false): parameters and records byte for byte.
void check_optimizer(const Device& base) {
    for (bool adamw : {true, false}) {
        const Device d = base.autodiff();
        d.seed(3);
        Mlp init{nn::LinearConfig{8, 16}.init(d), nn::LinearConfig{16, 4}.init(d),
                 nn::LayerNormConfig{16}.init(d)};
        auto make = [&] {
            optim::AdamConfig adam;
            adam.weight_decay = 0.01;
            optim::Optimizer o = adamw ? optim::AdamWConfig{}.init() : adam.init();
            // a parameter group with its own lr: a second multi-tensor call
            return o.with_group([](const std::string& p) { return p.ends_with("bias"); },
                                {.lr_factor = 0.5, .weight_decay = std::nullopt});
        };
        auto multi = make().with_multi_tensor(true);  // automatic takes the per-tensor path on the CPU
        auto single = make().with_multi_tensor(false);
        EXPECT_EQ(make().multi_tensor(), optim::Optimizer::MultiTensor::automatic);
        EXPECT_EQ(multi.multi_tensor(), optim::Optimizer::MultiTensor::on);
        EXPECT_EQ(single.multi_tensor(), optim::Optimizer::MultiTensor::off);
        Mlp m1 = init, m2 = init;
        for (int step = 0; step < 3; ++step) {
            d.seed(100 + static_cast<uint64_t>(step));
            auto x = Tensor<2>::random({5, 8}, Distribution::Normal(0, 1), d);
            auto g1 =
                optim::GradientsParams::from_grads((m1.forward(x) * m1.forward(x)).mean().backward(), m1);
            auto g2 =
                optim::GradientsParams::from_grads((m2.forward(x) * m2.forward(x)).mean().backward(), m2);
            m1 = multi.step(1e-2, std::move(m1), g1);
            m2 = single.step(1e-2, std::move(m2), g2);
        }
        std::vector<std::vector<uint8_t>> p1, p2;
        m1.visit_params([&](const std::string&, const auto& p) { p1.push_back(bytes(p.val().handle())); });
        m2.visit_params([&](const std::string&, const auto& p) { p2.push_back(bytes(p.val().handle())); });
        EXPECT_EQ(p1, p2) << (adamw ? "AdamW" : "Adam");
        auto r1 = multi.to_record(), r2 = single.to_record();
        ASSERT_EQ(r1.tensors.size(), r2.tensors.size());
        for (const auto& [key, t] : r1.tensors) EXPECT_EQ(bytes(t), bytes(r2.tensors.at(key))) << key;
        EXPECT_EQ(r1.scalars, r2.scalars);
    }
}

TEST(AdamMulti, OptimizerStepEqualsPerTensorPath) {
    check_optimizer(Device::cpu());
}

TEST(AdamMulti, BackendWithoutTheKernel) {
    auto& b = burn::testing::register_forwarding<8>("no_adam_multi",
                                                    [](OpId op) { return op != OpId::adam_step_multi; });
    const Device d = Device::of("no_adam_multi", 0);
    const int before = b.executed;
    check_op(d, DType::f32, false);  // the row runs its decomposition: equal within rounding
    EXPECT_GT(b.executed, before);
    check_optimizer(d);  // the optimizer falls back to adam_step per tensor: bit for bit
}

// The CUDA kernel (optim_multi.cu): the op against adam_step per tensor bit for bit in every float dtype
// (f16/bf16 widened to f32 on both paths), and the optimizer forced multi-tensor against per-tensor.
TEST(AdamMulti, CudaEqualsPerTensorBitForBit) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    for (DType dt : {DType::f32, DType::f64, DType::bf16, DType::f16}) check_op(Device::cuda(0), dt);
    check_optimizer(Device::cuda(0));
}

// Timing (run with --gtest_also_run_disabled_tests): AdamW steps over the parameters of the benchmarks'
// CPU-shaped GPT (bench/gpt_model.hpp: vocab 8192, d 256, 4 layers, seq 128) with fixed gradients,
// per-tensor against multi-tensor; docs/mixed_precision.md quotes it.
TEST(AdamMulti, DISABLED_Timing) {
    const Device d = Device::cpu();
    d.seed(1);
    std::vector<Dims> shapes = {{8192, 256}, {128, 256}, {256}, {256}, {8192, 256}, {8192}};
    for (int l = 0; l < 4; ++l)
        for (Dims s : std::vector<Dims>{{256},
                                        {256},
                                        {256, 256},
                                        {256},
                                        {256, 256},
                                        {256},
                                        {256, 256},
                                        {256},
                                        {256, 256},
                                        {256},
                                        {256},
                                        {256},
                                        {1024, 256},
                                        {1024},
                                        {256, 1024},
                                        {256}})
            shapes.push_back(s);
    std::vector<TensorAny> ps, gs;
    int64_t numel = 0;
    for (const Dims& s : shapes) {
        ps.push_back(rnd(s, DType::f32, d));
        gs.push_back(rnd(s, DType::f32, d));
        numel += s.numel();
    }
    for (bool multi : {false, true, false, true}) {
        auto rule = optim::AdamWConfig{}.init();
        std::vector<optim::ParamState> states(ps.size());
        std::vector<TensorAny> cur = ps;
        double best = 1e30;
        for (int rep = 0; rep < 12; ++rep) {
            std::vector<optim::StepItem> items(cur.size());
            for (std::size_t i = 0; i < cur.size(); ++i)
                items[i] = {3e-4, 0.01, &cur[i], ops::mul_scalar(gs[i], 1.0), &states[i], {}};
            const auto t0 = std::chrono::steady_clock::now();
            if (multi)
                rule.rule().step_many(items);
            else
                for (auto& it : items)
                    it.updated =
                        rule.rule().step(it.lr, it.weight_decay, *it.param, std::move(it.grad), *it.state);
            d.sync();
            best = std::min(
                best,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            for (std::size_t i = 0; i < cur.size(); ++i) cur[i] = items[i].updated;
        }
        std::cout << (multi ? "multi-tensor" : "per-tensor  ") << ": " << shapes.size() << " tensors, "
                  << numel << " elements, best of 12: " << best << " ms\n";
    }
}

}  // namespace adam_multi_test
