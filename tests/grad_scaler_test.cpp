// GradScaler (burn/amp/grad_scaler.hpp): torch.amp.GradScaler's dynamic loss scaling. An inf or NaN
// gradient skips the step (parameters and optimizer state untouched) and backs the scale off; finite
// steps grow it after growth_interval; gradients arrive unscaled.
#include <gtest/gtest.h>

#include <burn/amp/autocast.hpp>
#include <burn/amp/grad_scaler.hpp>
#include <burn/burn.hpp>
#include <cmath>
#include <limits>

using namespace burn;

namespace grad_scaler_test {

namespace {

struct Net {
    nn::Linear a;
    BURN_MODULE(Net, a)
};

Net make_net(const Device& d) {
    d.seed(9);
    return Net{nn::LinearConfig{4, 3}.init(d)};
}

std::vector<float> weights(const Net& n) {
    return ops::into_data(ops::inner_of(n.a.weight.val().handle())).to_vec<float>();
}

/// The gradients of sum((x a) * scale_of_loss), with `poison` (inf, NaN or 0) added to one gradient.
optim::GradientsParams grads_of(const Net& n, amp::GradScaler& scaler, double poison) {
    const Device d = n.a.weight.val().device();
    auto x = Tensor<2>::from_floats({{1, 2, 3, 4}, {0.5, -1, 0, 2}}, d);
    auto loss = n.a.forward(x).sum();
    auto g = optim::GradientsParams::from_grads(scaler.scale(loss).backward(), n);
    if (poison != 0) {
        const ParamId id = n.a.weight.id();
        TensorAny w = *g.remove(id);
        g.set(id, ops::add_scalar(w, poison));
    }
    return g;
}

}  // namespace

TEST(GradScaler, UnscalesExactlyAndSteps) {
    const Device d = Device::cpu().autodiff();
    Net net = make_net(d);
    amp::GradScaler scaler({.init_scale = 1024.0});
    auto plain = optim::GradientsParams::from_grads(
        net.a.forward(Tensor<2>::from_floats({{1, 2, 3, 4}, {0.5, -1, 0, 2}}, d)).sum().backward(), net);
    auto scaled = grads_of(net, scaler, 0);
    EXPECT_FALSE(scaler.unscale(scaled));
    const ParamId id = net.a.weight.id();
    EXPECT_EQ(ops::into_data(*scaled.get(id)).to_vec<float>(),
              ops::into_data(*plain.get(id)).to_vec<float>());
    auto opt = optim::SgdConfig{}.init();
    const auto before = weights(net);
    net = scaler.step(opt, 0.1, std::move(net), scaled);
    EXPECT_NE(weights(net), before);
    scaler.update();
    EXPECT_EQ(scaler.get_scale(), 1024.0);
    EXPECT_EQ(scaler.growth_tracker(), 1);
    EXPECT_EQ(scaler.skipped_steps(), 0);
}

TEST(GradScaler, InfOrNanSkipsTheStepAndBacksOff) {
    for (double poison :
         {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
        const Device d = Device::cpu().autodiff();
        Net net = make_net(d);
        amp::GradScaler scaler({.init_scale = 256.0, .growth_interval = 3});
        auto opt = optim::AdamWConfig{}.init();
        // one finite step: the optimizer has state, the growth count is 1
        auto g = grads_of(net, scaler, 0);
        net = scaler.step(opt, 1e-2, std::move(net), g);
        scaler.update();
        ASSERT_EQ(scaler.growth_tracker(), 1);
        const auto w = weights(net);
        const auto record = opt.to_record();
        auto bad = grads_of(net, scaler, poison);
        net = scaler.step(opt, 1e-2, std::move(net), bad);
        EXPECT_TRUE(scaler.found_inf());
        EXPECT_EQ(weights(net), w);                          // skipped: parameters untouched
        EXPECT_TRUE(bad.empty());                            // and the gradients consumed
        EXPECT_EQ(opt.to_record().scalars, record.scalars);  // the step count did not advance
        scaler.update();
        EXPECT_EQ(scaler.get_scale(), 128.0);  // backoff 0.5
        EXPECT_EQ(scaler.growth_tracker(), 0);
        EXPECT_EQ(scaler.skipped_steps(), 1);
        EXPECT_FALSE(scaler.found_inf());
    }
}

TEST(GradScaler, GrowsAfterTheIntervalOfFiniteSteps) {
    const Device d = Device::cpu().autodiff();
    Net net = make_net(d);
    amp::GradScaler scaler({.init_scale = 8.0, .growth_factor = 2.0, .growth_interval = 3});
    auto opt = optim::SgdConfig{}.init();
    const double want[] = {8, 8, 16, 16, 16, 32};
    for (double w : want) {
        auto g = grads_of(net, scaler, 0);
        net = scaler.step(opt, 1e-3, std::move(net), g);
        scaler.update();
        EXPECT_EQ(scaler.get_scale(), w);
    }
    // defaults: torch's
    amp::GradScaler torch_like;
    EXPECT_EQ(torch_like.get_scale(), 65536.0);
    EXPECT_EQ(torch_like.config().growth_factor, 2.0);
    EXPECT_EQ(torch_like.config().backoff_factor, 0.5);
    EXPECT_EQ(torch_like.config().growth_interval, 2000);
}

TEST(GradScaler, DisabledPassesThrough) {
    const Device d = Device::cpu().autodiff();
    Net net = make_net(d);
    amp::GradScaler scaler({.enabled = false});
    auto loss = Tensor<1>::from_floats({2.0}, d);
    EXPECT_EQ(scaler.scale(loss).into_scalar(), 2.0f);
    auto opt = optim::SgdConfig{}.init();
    auto g = grads_of(net, scaler, std::numeric_limits<double>::infinity());
    net = scaler.step(opt, 1e-3, std::move(net), g);  // no check when disabled: the step runs
    scaler.update();
    EXPECT_EQ(scaler.skipped_steps(), 0);
}

TEST(GradScaler, Errors) {
    EXPECT_THROW(amp::GradScaler({.init_scale = 0}), Error);
    EXPECT_THROW(amp::GradScaler({.growth_factor = 1.0}), Error);
    EXPECT_THROW(amp::GradScaler({.backoff_factor = 1.0}), Error);
    EXPECT_THROW(amp::GradScaler({.growth_interval = 0}), Error);
    amp::GradScaler scaler;
    EXPECT_THROW(scaler.update(), Error);  // nothing to update from
    optim::GradientsParams none;
    scaler.unscale(none);
    EXPECT_THROW(scaler.unscale(none), Error);  // twice in one step
}

TEST(GradScaler, F16AutocastTrainingWithScalerLearns) {
    const Device d = Device::cpu().autodiff();
    Net net = make_net(d);
    amp::GradScaler scaler;
    auto opt = optim::AdamConfig{}.init();
    auto x = Tensor<2>::from_floats({{1, 2, 3, 4}, {0.5, -1, 0, 2}}, d);
    auto target = Tensor<2>::from_floats({{1, 0, -1}, {0.5, 0.5, 0}}, d);
    double first = 0, last = 0;
    for (int s = 0; s < 60; ++s) {
        Tensor<1> loss;
        {
            autocast::Guard amp(DType::f16);
            auto diff = net.a.forward(x) - target;
            loss = (diff * diff).mean();
        }
        (s == 0 ? first : last) = loss.into_scalar();
        auto g = optim::GradientsParams::from_grads(scaler.scale(loss).backward(), net);
        net = scaler.step(opt, 5e-2, std::move(net), g);
        scaler.update();
    }
    EXPECT_LT(last, 0.2 * first);
    EXPECT_EQ(net.a.weight.val().dtype(), DType::f32);
}

}  // namespace grad_scaler_test
