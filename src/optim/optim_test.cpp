// Optimizer plumbing: gradients from a backward pass, frozen parameters, groups, clipping details,
// accumulation, records and devices, configs, and bad input.
#include <functional>

#include "optim_test_util.hpp"

namespace burn::optim_test {
namespace {

Model small_model(const Device& device, DType dtype = DType::f32) {
    auto t = [&](std::vector<double> v, Dims shape) { return tensor_of(v, shape, device, dtype); };
    return Model{Tensor<2>(t({0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 0.1, 0.3, -2.0, 1.0, 0.0, 0.6}, {3, 4})),
                 Tensor<1>(t({0.1, 0.2, -0.3, 0.4, -0.5}, {5})),
                 Tensor<3>(t({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 3, 2}))};
}

// A loss that touches every parameter with elementwise ops only.
Tensor<1> loss_of(const Model& m) {
    return m.weight.val().square().sum() * 0.5 + (m.bias.val() * 3.0).sum() + m.extra.val().sin().sum();
}

TEST(Optim, BackwardThroughFromGradsMatchesHandWrittenSgd) {
    auto device = Device().autodiff();
    Model model = small_model(device);
    auto before = values_of(model);
    auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
    EXPECT_EQ(grads.size(), 3u);
    model = optim::SgdConfig{}.init().step(0.1, std::move(model), grads);
    EXPECT_TRUE(grads.empty()) << "step consumes the gradients it applies";
    auto after = values_of(model);
    for (std::size_t i = 0; i < before[0].size(); ++i) EXPECT_NEAR(after[0][i], before[0][i] * 0.9, 1e-6);
    for (std::size_t i = 0; i < before[1].size(); ++i) EXPECT_NEAR(after[1][i], before[1][i] - 0.3, 1e-6);
    for (std::size_t i = 0; i < before[2].size(); ++i)
        EXPECT_NEAR(after[2][i], before[2][i] - 0.1 * std::cos(before[2][i]), 1e-6);
    EXPECT_TRUE(model.weight.val().device().is_autodiff());
    EXPECT_TRUE(model.weight.is_require_grad()) << "updated parameters stay trainable";
}

// set_momentum (what a cycle_momentum schedule calls each step) is the rule configured with that momentum
// from then on, over the state built so far: two steps at 0.9, then two at 0.5, equal two steps at 0.9
// and the state handed to an optimizer configured with 0.5.
TEST(Optim, SetMomentumIsTheRuleWithThatMomentumOverTheSameState) {
    using Make = std::function<optim::Optimizer(double)>;
    const std::vector<std::pair<std::string, Make>> rules = {
        {"Sgd", [](double m) { return optim::SgdConfig{}.with_momentum(m).init(); }},
        {"RmsProp", [](double m) { return optim::RmsPropConfig{}.with_momentum(m).init(); }},
        {"Adam", [](double m) { return optim::AdamConfig{}.with_beta_1(m).init(); }},
        {"AdamW", [](double m) { return optim::AdamWConfig{}.with_beta_1(m).init(); }},
    };
    for (const auto& [name, make] : rules) {
        SCOPED_TRACE(name);
        auto device = Device().autodiff();
        auto run = [&](optim::Optimizer& opt, Model model, int steps) {
            for (int k = 0; k < steps; ++k) {
                auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
                model = opt.step(0.05, std::move(model), grads);
            }
            return model;
        };
        optim::Optimizer a = make(0.9);
        Model ma = run(a, small_model(device), 2);
        optim::Optimizer b = make(0.5);
        b.load_record(a.to_record());
        Model mb = run(b, ma, 2);
        a.set_momentum(0.5);
        ma = run(a, ma, 2);
        EXPECT_EQ(values_of(ma), values_of(mb));
        Model mc = run(a, ma, 1), md = run(b, mb, 1);
        EXPECT_EQ(values_of(mc), values_of(md));
    }
    auto adagrad = optim::AdaGradConfig{}.init();
    EXPECT_THROW(adagrad.set_momentum(0.9), Error);
    auto sgd = optim::SgdConfig{}.init();
    EXPECT_THROW(sgd.set_momentum(1.0), Error);
    EXPECT_THROW(sgd.set_momentum(-0.1), Error);
}

TEST(Optim, FrozenParametersAreUntouchedAndGetNoState) {
    auto device = Device().autodiff();
    Model model = small_model(device).freeze([](const std::string& path) { return path == "bias"; });
    auto before = values_of(model);
    auto opt = optim::AdamConfig{}.init();
    for (int k = 0; k < 3; ++k) {
        auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
        EXPECT_FALSE(grads.contains(model.bias.id()));
        // Even a gradient handed in by hand is not applied to a frozen parameter.
        grads.set(model.bias.id(), ops::full({5}, 1.0, DType::f32, Device()));
        model = opt.step(0.1, std::move(model), grads);
        EXPECT_TRUE(grads.contains(model.bias.id())) << "a frozen parameter's gradient is left unused";
    }
    auto after = values_of(model);
    EXPECT_EQ(after[1], before[1]);
    EXPECT_NE(after[0], before[0]);
    EXPECT_NE(after[2], before[2]);
    EXPECT_EQ(opt.states().count(model.bias.id().value()), 0u);
    EXPECT_EQ(opt.states().at(model.weight.id().value()).scalars.at("step"), 3.0);
    EXPECT_FALSE(model.bias.is_require_grad());
}

TEST(Optim, ParametersWithoutGradientsAreUntouched) {
    Model model = small_model(Device());
    auto before = values_of(model);
    optim::GradientsParams grads;
    grads.set(model.weight.id(), ops::full({3, 4}, 1.0, DType::f32, Device()));
    model = optim::SgdConfig{}.with_momentum(0.9).init().step(1.0, std::move(model), grads);
    auto after = values_of(model);
    EXPECT_NE(after[0], before[0]);
    EXPECT_EQ(after[1], before[1]);
    EXPECT_EQ(after[2], before[2]);
}

TEST(Optim, GroupFirstMatchWinsAndZeroFactorFreezesTheGroup) {
    Model model = small_model(Device(), DType::f64);
    auto before = values_of(model);
    auto opt = optim::SgdConfig{}
                   .init()
                   .with_group([](const std::string& p) { return p == "bias"; }, {0.0, std::nullopt})
                   .with_group([](const std::string&) { return true; }, {0.5, std::nullopt});
    optim::GradientsParams grads;
    model.visit_params([&](const std::string&, const auto& p) {
        grads.set(p.id(), ops::full(p.val().shape(), 1.0, DType::f64, Device()));
    });
    model = opt.step(0.2, std::move(model), grads);
    auto after = values_of(model);
    EXPECT_EQ(after[1], before[1]);
    for (std::size_t i = 0; i < after[0].size(); ++i) EXPECT_DOUBLE_EQ(after[0][i], before[0][i] - 0.1);
    for (std::size_t i = 0; i < after[2].size(); ++i) EXPECT_DOUBLE_EQ(after[2][i], before[2][i] - 0.1);
}

TEST(Optim, ClippingByValueNormAndGlobalNorm) {
    auto g1 = ops::from_data(TensorData(std::vector<double>{3.0, -4.0}, Dims{2}), Device());  // norm 5
    auto g2 = ops::from_data(TensorData(std::vector<double>{0.0, 12.0}, Dims{2}), Device());  // norm 12
    auto read = [](const TensorAny& t) { return ops::into_data(t).to_vec<double>(); };
    EXPECT_EQ(read(optim::GradientClipping::Value(3.5).apply(g1)), (std::vector<double>{3.0, -3.5}));
    auto n = read(optim::GradientClipping::Norm(1.0).apply(g1));
    EXPECT_NEAR(n[0], 3.0 / (5.0 + 1e-6), 1e-15);
    EXPECT_NEAR(n[1], -4.0 / (5.0 + 1e-6), 1e-15);
    EXPECT_EQ(read(optim::GradientClipping::Norm(10.0).apply(g1)), (std::vector<double>{3.0, -4.0}));
    std::vector<TensorAny> both{g1, g2};
    optim::GradientClipping::GlobalNorm(2.6).apply_all(both);  // total norm 13
    double coef = 2.6 / (13.0 + 1e-6);
    EXPECT_NEAR(read(both[0])[1], -4.0 * coef, 1e-15);
    EXPECT_NEAR(read(both[1])[1], 12.0 * coef, 1e-15);
    std::vector<TensorAny> small{g1, g2};
    optim::GradientClipping::GlobalNorm(20.0).apply_all(small);
    EXPECT_TRUE(small[0].same(g1)) << "below the threshold the gradients are not touched";
    EXPECT_THROW(optim::GradientClipping::GlobalNorm(1.0).apply(g1), Error);
    for (double bad : {0.0, -1.0, std::nan("")}) {
        EXPECT_THROW(optim::GradientClipping::Value(bad), Error);
        EXPECT_THROW(optim::GradientClipping::GlobalNorm(bad), Error);
    }
    EXPECT_THROW(optim::AdamConfig{}.with_grad_clipping_norm(1.0).with_grad_clipping_value(1.0).init(),
                 Error);
    EXPECT_EQ(optim::SgdConfig{}.with_grad_clipping_global_norm(1.0).init().clipping().kind,
              optim::ClipKind::global_norm);
}

TEST(Optim, AccumulatorSumsGradientsOfSeveralBatches) {
    auto device = Device().autodiff();
    Model model = small_model(device, DType::f64);
    optim::GradientsAccumulator acc;
    auto g1 = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
    auto g1_weight = ops::into_data(*g1.get(model.weight.id())).to_vec<double>();
    acc.accumulate(model, std::move(g1));
    acc.accumulate(model, optim::GradientsParams::from_grads((loss_of(model) * 2.0).backward(), model));
    EXPECT_EQ(acc.count(), 2u);
    auto sum = acc.grads();
    EXPECT_EQ(acc.count(), 0u);
    EXPECT_TRUE(acc.grads().empty());
    auto w = ops::into_data(*sum.get(model.weight.id())).to_vec<double>();
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_DOUBLE_EQ(w[i], 3.0 * g1_weight[i]);
    EXPECT_EQ(sum.size(), 3u);

    Model other = small_model(device, DType::f64);
    EXPECT_THROW(acc.accumulate(other, optim::GradientsParams::from_grads(loss_of(model).backward(), model)),
                 Error);
}

TEST(Optim, GradientsFromAnotherModelAreRejected) {
    auto device = Device().autodiff();
    Model model = small_model(device);
    Model other = small_model(device);
    try {
        (void)optim::GradientsParams::from_grads(loss_of(other).backward(), model);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[GradientsParams::from_grads]"), std::string::npos) << e.what();
    }
    auto foreign = optim::GradientsParams::from_grads(loss_of(other).backward(), other);
    auto opt = optim::AdamConfig{}.init();
    try {
        model = opt.step(0.1, std::move(model), foreign);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[Optimizer::step]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("does not have"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(opt.states().empty()) << "nothing changes when a step is rejected";
    EXPECT_EQ(foreign.size(), 3u);
}

TEST(Optim, BadLearningRatesShapesAndConfigsThrow) {
    auto device = Device().autodiff();
    auto opt = optim::AdamConfig{}.init();
    for (double lr : {std::nan(""), std::numeric_limits<double>::infinity(), -0.1}) {
        Model model = small_model(device);
        auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
        try {
            model = opt.step(lr, std::move(model), grads);
            ADD_FAILURE() << "lr " << lr << " accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("learning rate"), std::string::npos) << e.what();
        }
    }
    Model model = small_model(Device());
    optim::GradientsParams wrong;
    wrong.set(model.bias.id(), ops::full({4}, 1.0, DType::f32, Device()));
    EXPECT_THROW(model = opt.step(0.1, std::move(model), wrong), ShapeError);

    EXPECT_THROW(optim::AdamConfig{}.with_epsilon(-1e-8).init(), Error);
    EXPECT_THROW(optim::AdamWConfig{}.with_epsilon(-1.0).init(), Error);
    EXPECT_THROW(optim::RmsPropConfig{}.with_epsilon(-1e-8).init(), Error);
    EXPECT_THROW(optim::AdaGradConfig{}.with_epsilon(-1e-8).init(), Error);
    EXPECT_THROW(optim::AdamConfig{}.with_beta_1(1.0).init(), Error);
    EXPECT_THROW(optim::AdamWConfig{}.with_beta_2(-0.1).init(), Error);
    EXPECT_THROW(optim::SgdConfig{}.with_nesterov(true).init(), Error);
    EXPECT_THROW(optim::SgdConfig{}.with_momentum(-0.9).init(), Error);
    EXPECT_THROW(optim::SgdConfig{}.with_weight_decay(std::nan("")).init(), Error);
    EXPECT_THROW(optim::RmsPropConfig{}.with_alpha(1.5).init(), Error);
    EXPECT_THROW(optim::LionConfig{}.with_beta_2(2.0).init(), Error);
    EXPECT_THROW(optim::AdaGradConfig{}.with_lr_decay(-1.0).init(), Error);
    EXPECT_THROW(optim::SgdConfig{}.init().with_group(nullptr, {}), Error);
    EXPECT_THROW(optim::SgdConfig{}.init().with_group([](const std::string&) { return true; }, {-1.0, {}}),
                 Error);
}

TEST(Optim, DefaultsFollowBurnAndConfigsRoundTripThroughJson) {
    EXPECT_EQ(optim::AdamConfig{}.epsilon, 1e-5);
    EXPECT_EQ(optim::AdamWConfig{}.weight_decay, 1e-4);
    EXPECT_EQ(optim::RmsPropConfig{}.alpha, 0.99);
    EXPECT_EQ(optim::LionConfig{}.beta_2, 0.99);
    auto c =
        optim::RmsPropConfig{}.with_centered(true).with_momentum(0.9).with_grad_clipping_global_norm(1.0);
    auto back = optim::RmsPropConfig::from_json(c.to_json());
    EXPECT_TRUE(back.centered);
    EXPECT_EQ(back.momentum, 0.9);
    EXPECT_EQ(back.grad_clipping_global_norm, 1.0);
    EXPECT_STREQ(optim::AdamWConfig{}.init().rule().name(), "AdamW");
    EXPECT_STREQ(optim::LionConfig{}.init().rule().name(), "Lion");
    EXPECT_STREQ(optim::AdaGradConfig{}.init().rule().name(), "AdaGrad");
}

TEST(Optim, RecordsAreNamedAndValidated) {
    Model model = small_model(Device(), DType::f64);
    auto opt = optim::AdamWConfig{}.with_amsgrad(true).init();
    optim::GradientsParams grads;
    grads.set(model.weight.id(), ops::full({3, 4}, 0.5, DType::f64, Device()));
    model = opt.step(0.01, std::move(model), grads);
    auto record = opt.to_record();
    std::string id = std::to_string(model.weight.id().value());
    EXPECT_EQ(record.tensors.size(), 3u);
    EXPECT_TRUE(record.tensors.count(id + ".exp_avg"));
    EXPECT_TRUE(record.tensors.count(id + ".exp_avg_sq"));
    EXPECT_TRUE(record.tensors.count(id + ".max_exp_avg_sq"));
    EXPECT_EQ(record.scalars, (std::map<std::string, double>{{id + ".step", 1.0}}));

    auto sgd = optim::SgdConfig{}.with_momentum(0.9).init();
    EXPECT_THROW(sgd.load_record(record), Error) << "an Adam record is not SGD state";
    optim::OptimizerRecord bad;
    bad.scalars["step"] = 1.0;
    EXPECT_THROW(opt.load_record(bad), Error);
    bad.scalars.clear();
    bad.tensors["x1.exp_avg"] = ops::full({3, 4}, 0.0, DType::f64, Device());
    EXPECT_THROW(opt.load_record(bad), Error);
    EXPECT_EQ(opt.to_record().tensors.size(), 3u) << "a rejected record leaves the state as it was";

    // A record whose shapes do not fit the parameters (saved for another model) is caught at the step,
    // before any state changes (the weight, first in order, fits; the bias does not).
    optim::OptimizerRecord other = record;
    other.tensors[std::to_string(model.bias.id().value()) + ".exp_avg"] =
        ops::full({2}, 0.0, DType::f64, Device());
    opt.load_record(other);
    optim::GradientsParams g2;
    g2.set(model.weight.id(), ops::full({3, 4}, 0.5, DType::f64, Device()));
    g2.set(model.bias.id(), ops::full({5}, 0.5, DType::f64, Device()));
    EXPECT_THROW(model = opt.step(0.01, std::move(model), g2), ShapeError);
    EXPECT_EQ(opt.to_record().scalars, record.scalars) << "the weight's state did not advance";
    EXPECT_EQ(g2.size(), 2u) << "no gradient was consumed";
}

TEST(Optim, RecordsAreSnapshotsThatLaterStepsLeaveAlone) {
    // The fused Adam kernel and the moving averages update state in place when they own it alone; a
    // record (or anyone else) holding the state must keep the values it saw.
    for (auto opt : {optim::AdamConfig{}.init(), optim::AdamWConfig{}.with_amsgrad(true).init(),
                     optim::SgdConfig{}.with_momentum(0.9).init(),
                     optim::RmsPropConfig{}.with_centered(true).init(), optim::LionConfig{}.init()}) {
        SCOPED_TRACE(opt.rule().name());
        Model model = small_model(Device());
        auto grads_for = [&] {
            optim::GradientsParams g;
            g.set(model.weight.id(), ops::full({3, 4}, 0.5, DType::f32, Device()));
            return g;
        };
        model = opt.step(0.1, std::move(model), grads_for());
        auto record = opt.to_record();
        std::map<std::string, std::vector<float>> before;
        for (const auto& [key, t] : record.tensors) before[key] = ops::into_data(t).to_vec<float>();
        Tensor<2> weight = model.weight.val();
        auto weight_before = weight.to_vec<float>();
        model = opt.step(0.1, std::move(model), grads_for());
        for (const auto& [key, t] : record.tensors)
            EXPECT_EQ(ops::into_data(t).to_vec<float>(), before[key]) << key;
        EXPECT_EQ(weight.to_vec<float>(), weight_before)
            << "a parameter handle held outside is not overwritten";
        EXPECT_NE(model.weight.val().to_vec<float>(), weight_before);
    }
}

TEST(Optim, StateFollowsTheParametersDeviceAndDtype) {
    auto device = Device().autodiff();
    Model model = small_model(device, DType::f32);
    auto opt = optim::AdamConfig{}.init();
    auto step = [&] {
        auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
        model = opt.step(0.01, std::move(model), grads);
    };
    step();
    for (const auto& [id, s] : opt.states())
        for (const auto& [name, t] : s.tensors) EXPECT_EQ(t.device(), Device().inner()) << name;
    // A record restored on the autodiff device, in f64: the next step brings it to the parameters.
    auto record = opt.to_record();
    for (auto& [key, t] : record.tensors) t = ops::to_device(ops::cast(t, DType::f64), device);
    opt.load_record(record);
    step();
    for (const auto& [id, s] : opt.states())
        for (const auto& [name, t] : s.tensors) {
            EXPECT_EQ(t.device(), Device().inner()) << name;
            EXPECT_EQ(t.dtype(), DType::f32) << name;
        }
    opt.to_device(device);
    for (const auto& [id, s] : opt.states())
        for (const auto& [name, t] : s.tensors) EXPECT_FALSE(t.device().is_autodiff()) << "state has no tape";
}

// ---------------------------------------------------------------- end to end with nn::Linear

struct Regressor {
    nn::Linear layer;
    BURN_MODULE(Regressor, layer)
};

float mse(const Regressor& m, const Tensor<2>& x, const Tensor<2>& y) {
    return nn::loss::MseLoss().forward(m.layer.forward(x), y, nn::loss::Reduction::Mean).into_scalar();
}

TEST(OptimTraining, EveryOptimizerFitsALinearModel) {
    auto device = Device().autodiff();
    auto x = Tensor<2>::from_floats({{1.0, 2.0}, {3.0, 4.0}, {-1.0, 0.5}, {0.0, -2.0}}, device);
    auto y = Tensor<2>::from_floats({{0.5}, {2.5}, {-2.0}, {2.5}}, device);  // 2 x0 - x1 + 0.5
    struct Case {
        const char* name;
        optim::Optimizer opt;
        optim::LrSchedulerAny lr;
    };
    std::vector<Case> cases = {
        {"sgd", optim::SgdConfig{}.with_momentum(0.9).init(), 0.02},
        {"adam", optim::AdamConfig{}.init(), 0.05},
        {"adamw", optim::AdamWConfig{}.with_amsgrad(true).init(),
         optim::ExponentialLrSchedulerConfig{0.1, 0.99}.init()},
        {"rmsprop", optim::RmsPropConfig{}.with_centered(true).init(), 0.01},
        {"adagrad", optim::AdaGradConfig{}.init(), 0.5},
        {"lion", optim::LionConfig{}.init(),
         optim::SequentialLrScheduler(
             {optim::LinearLrSchedulerConfig{0.005, 0.05, 20}.init(),
              optim::CosineAnnealingLrSchedulerConfig{0.05, 180}.with_restarts(false).init()},
             {20})},
    };
    for (auto& c : cases) {
        SCOPED_TRACE(c.name);
        device.seed(7);
        Regressor model{nn::LinearConfig{2, 1}.init(device)};
        c.opt = c.opt.with_grad_clipping(optim::GradientClipping::GlobalNorm(10.0));
        float first = mse(model, x, y);
        for (int step = 0; step < 200; ++step) {
            auto loss = nn::loss::MseLoss().forward(model.layer.forward(x), y, nn::loss::Reduction::Mean);
            // The gradients first: `model` must not be read in the call that moves it (clang evaluates
            // arguments left to right, GCC right to left).
            auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
            model = c.opt.step(c.lr.step(), std::move(model), grads);
        }
        float last = mse(model, x, y);
        EXPECT_LT(last, 0.01f * first + 1e-4f) << "from " << first << " to " << last;
    }
}

}  // namespace
}  // namespace burn::optim_test
