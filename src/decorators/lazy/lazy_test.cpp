// The lazy decorator: chains fuse into one pass that writes only what someone holds, and every value
// equals the eager CPU's (the same functors run in both).
#include "burn/backend/lazy.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "burn/burn.hpp"

namespace burn::lazy_test {
namespace {

using ops::from_data;
using ops::into_data;

TensorAny randn(const Dims& shape, const Device& d, uint64_t seed) {
    d.seed(seed);
    return ops::random(shape, Distribution::Normal(0.0, 1.0), DType::f32, d);
}

/// The same values on the CPU and on lazy(cpu).
struct Pair {
    TensorAny eager, lazy;
};
Pair randn_pair(const Dims& shape, uint64_t seed) {
    TensorAny e = randn(shape, Device::cpu(), seed);
    return {e, from_data(into_data(e), Device::cpu().lazy())};
}

void expect_same(const TensorAny& lazy, const TensorAny& eager) {
    TensorData a = into_data(lazy), b = into_data(eager);
    ASSERT_EQ(a.dtype(), b.dtype());
    ASSERT_EQ(a.shape(), b.shape());
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.value_as_double(i), y = b.value_as_double(i);
        if (std::isnan(x) && std::isnan(y)) continue;
        ASSERT_EQ(x, y) << "element " << i;
    }
}

struct Fresh {
    Fresh() { lazy::reset_stats(); }
};

TEST(LazyFusion, DeviceStacksAndPrints) {
    Device d = Device::cpu().lazy().autodiff();
    EXPECT_EQ(d.str(), "autodiff(lazy(cpu))");
    EXPECT_TRUE(d.is_lazy());
    EXPECT_TRUE(d.inner().is_lazy());
    EXPECT_EQ(Device::parse("lazy(cpu)"), Device::cpu().lazy());
    EXPECT_FALSE(Device::cpu().is_lazy());
}

TEST(LazyFusion, ChainIsOnePassWritingOneBuffer) {
    auto [x, lx] = randn_pair({3, 5000}, 1);
    auto [y, ly] = randn_pair({3, 5000}, 2);
    auto [z, lz] = randn_pair({3, 5000}, 3);
    Fresh f;
    TensorAny r = ops::relu(ops::add(ops::mul(lx, ly), lz));
    EXPECT_EQ(lazy::stats().fused_passes, 0) << "nothing runs before a read";
    expect_same(r, ops::relu(ops::add(ops::mul(x, y), z)));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().fused_ops, 3);
    EXPECT_EQ(lazy::stats().materialized, 1) << "the intermediates x*y and +z are never written";
}

TEST(LazyFusion, HeldIntermediateIsWrittenOnce) {
    auto [x, lx] = randn_pair({777}, 4);
    auto [y, ly] = randn_pair({777}, 5);
    Fresh f;
    TensorAny t = ops::mul(lx, ly);
    TensorAny r = ops::exp(ops::sub(t, ly));
    expect_same(r, ops::exp(ops::sub(ops::mul(x, y), y)));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().materialized, 2) << "t is held, so the pass writes it too";
    expect_same(t, ops::mul(x, y));
    EXPECT_EQ(lazy::stats().fused_passes, 1) << "t was written by the first pass";
}

TEST(LazyFusion, BroadcastRowsAndColumns) {
    auto [a, la] = randn_pair({37, 300}, 6);
    auto [row, lrow] = randn_pair({1, 300}, 7);
    auto [col, lcol] = randn_pair({37, 1}, 8);
    Fresh f;
    TensorAny r = ops::mul(ops::add(la, lrow), lcol);
    expect_same(r, ops::mul(ops::add(a, row), col));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().fused_ops, 2);
}

TEST(LazyFusion, ScalarsAreConstantsNotBuffers) {
    auto [x, lx] = randn_pair({10000}, 9);
    Fresh f;
    TensorAny r = ops::add_scalar(ops::mul_scalar(lx, 2.5), -1.0);
    r = ops::clamp(ops::rsub_scalar(r, 0.5), -1.0, 1.0);
    expect_same(r,
                ops::clamp(ops::rsub_scalar(ops::add_scalar(ops::mul_scalar(x, 2.5), -1.0), 0.5), -1.0, 1.0));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().materialized, 1);
    EXPECT_EQ(lazy::stats().passthrough, 0) << "fill and expand of a scalar stay in the pass";
}

TEST(LazyFusion, CastsComparisonsAndWhere) {
    auto [x, lx] = randn_pair({4, 999}, 10);
    auto [y, ly] = randn_pair({4, 999}, 11);
    Fresh f;
    auto chain = [](const TensorAny& a, const TensorAny& b) {
        TensorAny mask = ops::greater(a, b);        // bool
        TensorAny m = ops::cast(mask, DType::f32);  // bool -> f32
        TensorAny w = ops::where(mask, a, ops::mul_scalar(b, 0.5));
        TensorAny back = ops::cast(ops::cast(a, DType::i32), DType::f32);  // i32 is not fused: a load
        return ops::add(ops::add(ops::mul(m, w), back), ops::cast(ops::lower_elem(a, 0.0), DType::f32));
    };
    expect_same(chain(lx, ly), chain(x, y));
    TensorAny bools = ops::bool_and(ops::greater(lx, ly), ops::is_nan(lx));
    expect_same(bools, ops::bool_and(ops::greater(x, y), ops::is_nan(x)));
    EXPECT_EQ(into_data(bools).dtype(), DType::boolean);
}

TEST(LazyFusion, StridedAndScalarShapedInputs) {
    auto [a, la] = randn_pair({300, 200}, 12);
    auto [b, lb] = randn_pair({200, 300}, 13);
    TensorAny at = ops::permute(a, Dims{1, 0}), lat = ops::permute(la, Dims{1, 0});  // a strided view
    expect_same(ops::sub(ops::sqrt(ops::abs(lat)), lb), ops::sub(ops::sqrt(ops::abs(at)), b));
    auto [s, ls] = randn_pair({}, 14);  // rank 0
    expect_same(ops::tanh(ops::mul(ls, ls)), ops::tanh(ops::mul(s, s)));
}

TEST(LazyFusion, ChannelsLastRunsInMemoryOrder) {
    auto [a, la] = randn_pair({2, 6, 7, 3}, 23);  // NHWC storage viewed as NCHW: dense, not row-major
    auto [b, lb] = randn_pair({2, 3, 6, 7}, 24);  // row-major NCHW
    const Dims nchw{0, 3, 1, 2};
    TensorAny x = ops::permute(a, nchw), lx = ops::permute(la, nchw);
    lazy::set_dump(true);
    TensorAny r = ops::relu(ops::add(ops::mul_scalar(lx, 2.0), lx));
    expect_same(r, ops::relu(ops::add(ops::mul_scalar(x, 2.0), x)));
    lazy::set_dump(false);
    EXPECT_NE(lazy::last_program().find("in memory order"), std::string::npos) << lazy::last_program();
    EXPECT_NE(lazy::last_program().find("dense"), std::string::npos) << lazy::last_program();
    // its output keeps the layout: a chain over it runs in memory order again
    lazy::set_dump(true);
    expect_same(ops::exp(ops::neg(r)), ops::exp(ops::neg(ops::relu(ops::add(ops::mul_scalar(x, 2.0), x)))));
    lazy::set_dump(false);
    EXPECT_NE(lazy::last_program().find("in memory order"), std::string::npos) << lazy::last_program();
    // mixed with a row-major operand: row-major order, through the strides
    expect_same(ops::sub(lx, lb), ops::sub(x, b));
}

/// Within a relative 1e-6 (the fused sum adds in the eager kernel's order; the check leaves room).
void expect_close(const TensorAny& lazy, const TensorAny& eager) {
    TensorData a = into_data(lazy), b = into_data(eager);
    ASSERT_EQ(a.shape(), b.shape());
    for (int64_t i = 0; i < a.numel(); ++i)
        ASSERT_NEAR(a.value_as_double(i), b.value_as_double(i), 1e-6 * (1 + std::abs(b.value_as_double(i))))
            << "element " << i;
}

TEST(LazyFusion, ReductionTailSumsRowsInThePass) {
    auto [x, lx] = randn_pair({300, 700}, 25);
    auto [y, ly] = randn_pair({300, 700}, 26);
    Fresh f;
    TensorAny s = ops::sum_dim(ops::exp(ops::mul(lx, ly)), 1);
    expect_close(s, ops::sum_dim(ops::exp(ops::mul(x, y)), 1));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().fused_ops, 3);
    EXPECT_EQ(lazy::stats().materialized, 1) << "only the [300, 1] sums are written";
    EXPECT_EQ(lazy::stats().passthrough, 0);
}

TEST(LazyFusion, ReductionTailLongRowsHeldValuesAndConsumers) {
    auto [x, lx] = randn_pair({3, 4, 12000}, 27);  // rows longer than a block: a block per row
    Fresh f;
    TensorAny sq = ops::square(lx);  // held: written by the same pass
    TensorAny s = ops::sum_dim(ops::sub(sq, lx), 2);
    TensorAny after = ops::mul_scalar(s, 0.5);  // a consumer of the sums: they are materialised first
    expect_close(after, ops::mul_scalar(ops::sum_dim(ops::sub(ops::square(x), x), 2), 0.5));
    expect_same(sq, ops::square(x));
    EXPECT_EQ(lazy::stats().fused_passes, 2);
    auto [m, lm] = randn_pair({6, 5000}, 28);  // a row over the tail's limit, and another dim: below
    expect_close(ops::sum_dim(ops::abs(lm), 0), ops::sum_dim(ops::abs(m), 0));
}

TEST(LazyFusion, InputAliasingOutput) {
    auto [x, lx] = randn_pair({5000}, 15);
    expect_same(ops::add(lx, lx), ops::add(x, x));  // one input read twice
    TensorAny e = x, l = lx;
    for (int i = 0; i < 5; ++i) {  // each result replaces its input
        e = ops::add(ops::mul_scalar(e, 0.5), e);
        l = ops::add(ops::mul_scalar(l, 0.5), l);
    }
    expect_same(l, e);
    expect_same(lx, x);  // the input survives its chain
    // an input nobody holds after the pass takes its output, as eager's in-place reuse
    TensorAny t = ops::exp(lx);
    into_data(t);
    lazy::set_dump(true);
    TensorAny u = ops::sub(ops::mul(t, t), t);
    t = TensorAny();
    expect_same(u, ops::sub(ops::mul(ops::exp(x), ops::exp(x)), ops::exp(x)));
    lazy::set_dump(false);
    EXPECT_NE(lazy::last_program().find("into an input's buffer"), std::string::npos) << lazy::last_program();
}

TEST(LazyFusion, NonFusableOpsFlushAndRunBelow) {
    auto [a, la] = randn_pair({64, 32}, 16);
    auto [b, lb] = randn_pair({32, 16}, 17);
    Fresh f;
    TensorAny r = ops::matmul(ops::gelu(ops::mul_scalar(la, 0.1)), lb);
    EXPECT_EQ(lazy::stats().fused_passes, 1) << "matmul needs its input";
    EXPECT_EQ(lazy::stats().passthrough, 1);
    expect_same(ops::sum_dim(ops::exp(r), 1),
                ops::sum_dim(ops::exp(ops::matmul(ops::gelu(ops::mul_scalar(a, 0.1)), b)), 1));
    TensorAny h = ops::cast(ops::mul_scalar(la, 3.0), DType::f16);  // f16 is not fused: cast runs below
    expect_same(h, ops::cast(ops::mul_scalar(a, 3.0), DType::f16));
}

TEST(LazyFusion, LongChainsHitTheSizeLimit) {
    auto [x, lx] = randn_pair({3000}, 18);
    Fresh f;
    TensorAny e = x, l = lx;
    for (int i = 0; i < 200; ++i) {
        e = ops::add_scalar(ops::mul_scalar(e, 1.001), 0.001);
        l = ops::add_scalar(ops::mul_scalar(l, 1.001), 0.001);
    }
    EXPECT_GE(lazy::stats().fused_passes, 200 * 2 / 48) << "the chain is cut into bounded passes";
    expect_same(l, e);
}

TEST(LazyFusion, SyncComputesWhatIsHeld) {
    auto [x, lx] = randn_pair({1 << 16}, 19);
    Fresh f;
    TensorAny r = ops::sigmoid(ops::mul(lx, lx));
    TensorAny dropped = ops::exp(lx);  // dropped before the sync: never computed
    dropped = TensorAny();
    Device::cpu().lazy().sync();
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().fused_ops, 2);
    expect_same(r, ops::sigmoid(ops::mul(x, x)));
    EXPECT_EQ(lazy::stats().fused_passes, 1);
}

TEST(LazyFusion, LargeTensorAcrossBlocksAndThreads) {
    auto [x, lx] = randn_pair({(1 << 20) + 123}, 20);
    auto [y, ly] = randn_pair({(1 << 20) + 123}, 21);
    expect_same(ops::max_pair(ops::gelu(lx), ops::sin(ly)), ops::max_pair(ops::gelu(x), ops::sin(y)));
}

TEST(LazyFusion, DumpListsThePass) {
    auto [x, lx] = randn_pair({10}, 22);
    lazy::set_dump(true);
    TensorAny r = ops::relu(ops::add_scalar(ops::mul(lx, lx), 1.0));
    into_data(r);
    lazy::set_dump(false);
    const std::string text = lazy::last_program();
    EXPECT_NE(text.find("fused pass over [10]"), std::string::npos) << text;
    EXPECT_NE(text.find("= mul %0 %0"), std::string::npos) << text;
    EXPECT_NE(text.find("const 1"), std::string::npos) << text;
    EXPECT_NE(text.find("relu"), std::string::npos) << text;
    EXPECT_NE(text.find("-> out0 f32"), std::string::npos) << text;
}

TEST(LazyFusion, ErrorsNameTheOpBeforeAnythingRuns) {
    const Device d = Device::cpu().lazy();
    TensorAny a = ops::full(Dims{3}, 1.0, DType::f32, d), b = ops::full(Dims{4}, 1.0, DType::f32, d);
    try {
        ops::add(a, b);
        FAIL() << "add of [3] and [4] did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos) << e.what();
    }
    try {
        (void)Device::cpu().lazy().lazy();
        FAIL() << "lazy twice did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("lazy"), std::string::npos) << e.what();
    }
    TensorAny i = ops::full(Dims{3}, 1.0, DType::i64, d);
    EXPECT_THROW(ops::exp(i), Error);  // exp takes floats: the frontend says so on lazy devices too
}

TEST(LazyFusion, AutodiffOverLazyGivesEagerGradients) {
    auto grads = [](const Device& dev) {
        dev.seed(3);
        TensorAny w =
            ops::require_grad(ops::random(Dims{16, 8}, Distribution::Normal(0.0, 1.0), DType::f32, dev));
        TensorAny b = ops::require_grad(ops::full(Dims{1, 8}, 0.1, DType::f32, dev));
        TensorAny x = ops::random(Dims{32, 16}, Distribution::Normal(0.0, 1.0), DType::f32, dev);
        TensorAny h = ops::gelu(ops::add(ops::matmul(x, w), b));
        TensorAny loss = ops::sum(ops::mul(ops::sigmoid(h), ops::tanh(h)));
        Gradients g = ops::backward(loss);
        return std::make_pair(into_data(*ops::grad(w, g)), into_data(*ops::grad(b, g)));
    };
    auto [we, be] = grads(Device::cpu().autodiff());
    auto [wl, bl] = grads(Device::cpu().lazy().autodiff());
    EXPECT_TRUE(we == wl);
    EXPECT_TRUE(be == bl);
}

struct Mlp {
    nn::Linear l1;
    nn::Relu relu;
    nn::Linear l2;
    nn::Gelu gelu;
    nn::Linear l3;

    Tensor<2> forward(const Tensor<2>& x) const {
        return l3.forward(gelu.forward(l2.forward(relu.forward(l1.forward(x)))));
    }

    BURN_MODULE(Mlp, l1, relu, l2, gelu, l3)
};

/// Five Adam steps of an MLP on a mean squared error: the losses and the final parameters.
std::pair<std::vector<float>, std::vector<TensorData>> train(const Mlp& start, const Device& device) {
    Mlp model = start.to_device(device);
    device.seed(9);
    auto x = Tensor<2>::random({64, 12}, Distribution::Normal(0.0, 1.0), device);
    auto y = Tensor<2>::random({64, 3}, Distribution::Normal(0.0, 1.0), device);
    auto optimizer = optim::AdamConfig{}.init();
    std::vector<float> losses;
    for (int step = 0; step < 5; ++step) {
        auto loss = nn::loss::MseLoss{}.forward(model.forward(x), y, nn::loss::Reduction::Mean);
        losses.push_back(loss.into_scalar());
        auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
        model = optimizer.step(0.01, std::move(model), grads);
    }
    std::vector<TensorData> params;
    model.visit_params([&](const std::string&, const auto& p) { params.push_back(p.val().into_data()); });
    return {losses, params};
}

TEST(LazyFusion, TrainingMatchesEager) {
    Device::cpu().seed(4);
    const Mlp start{nn::LinearConfig{12, 32}.init(Device::cpu()), nn::Relu{},
                    nn::LinearConfig{32, 16}.init(Device::cpu()), nn::Gelu{},
                    nn::LinearConfig{16, 3}.init(Device::cpu())};
    auto [want_loss, want_params] = train(start, Device::cpu().autodiff());
    Fresh f;
    auto [got_loss, got_params] = train(start, Device::cpu().lazy().autodiff());
    EXPECT_GT(lazy::stats().fused_passes, 0);
    EXPECT_EQ(got_loss, want_loss);
    EXPECT_LT(want_loss.back(), want_loss.front()) << "the loss should go down";
    ASSERT_EQ(got_params.size(), want_params.size());
    for (std::size_t i = 0; i < got_params.size(); ++i)
        EXPECT_TRUE(got_params[i] == want_params[i]) << "parameter " << i;
}

TEST(LazyFusion, OverAnotherDecoratorItOnlyForwards) {
    const Device d = Device::cpu().autocast(DType::bf16).lazy();
    TensorAny x = ops::full(Dims{4}, 2.0, DType::f32, d);
    Fresh f;
    EXPECT_EQ(into_data(ops::mul(x, x)).to_vec<float>(), std::vector<float>(4, 4.0f));
    EXPECT_EQ(lazy::stats().fused_passes, 0);
}

}  // namespace
}  // namespace burn::lazy_test
