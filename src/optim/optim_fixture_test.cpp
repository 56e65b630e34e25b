// Every optimizer against torch.optim: one step and ten steps of the fixtures made by
// scripts/gen_optim_fixtures.py (float64 parameters, given gradients and learning rates), with weight
// decay, momentum, dampening, Nesterov, AMSGrad, centered RMSProp, clipping, parameter groups (one with
// its own schedule), and burn's Adan and cautious AdamW (float64 references of burn's formulas); on a
// plain and an autodiff device, in f64 and f32; and through a record round trip mid-run.
#include "optim_test_util.hpp"

namespace burn::optim_test {
namespace {

optim::Optimizer make_optimizer(const config::Value& c) {
    const std::string& kind = c.at("optimizer").as_string();
    const config::Value& cfg = c.at("config");
    optim::Optimizer opt = [&] {
        if (kind == "sgd") return optim::SgdConfig::from_json(cfg).init();
        if (kind == "adam") return optim::AdamConfig::from_json(cfg).init();
        if (kind == "adamw") return optim::AdamWConfig::from_json(cfg).init();
        if (kind == "rmsprop") return optim::RmsPropConfig::from_json(cfg).init();
        if (kind == "adagrad") return optim::AdaGradConfig::from_json(cfg).init();
        if (kind == "lion") return optim::LionConfig::from_json(cfg).init();
        if (kind == "adan") return optim::AdanConfig::from_json(cfg).init();
        if (kind == "adamw_cautious") {
            auto config = optim::AdamWConfig::from_json(cfg);
            EXPECT_TRUE(config.cautious_weight_decay);
            return config.init();
        }
        ADD_FAILURE() << "unknown optimizer " << kind;
        return optim::SgdConfig{}.init();
    }();
    if (const config::Value* clip = c.find("clip")) {
        const std::string& k = clip->at("kind").as_string();
        double t = clip->at("threshold").as_double();
        opt = opt.with_grad_clipping(k == "value"  ? optim::GradientClipping::Value(t)
                                     : k == "norm" ? optim::GradientClipping::Norm(t)
                                                   : optim::GradientClipping::GlobalNorm(t));
    }
    if (const config::Value* g = c.find("group")) {
        optim::GroupSettings settings{g->at("lr_factor").as_double(), g->at("weight_decay").as_double()};
        if (const config::Value* schedule = g->find("schedule"))
            settings.lr_schedule = optim::LinearLrSchedulerConfig::from_json(*schedule).init();
        opt = opt.with_group([](const std::string& path) { return path.ends_with("bias"); }, settings);
    }
    return opt;
}

Model make_model(const config::Value& c, const Device& device, DType dtype) {
    const config::Value& ps = c.at("params");
    auto t = [&](std::size_t i) {
        Dims shape;
        for (double d : doubles(ps[i].at("shape"))) shape.push_back(static_cast<int64_t>(d));
        return tensor_of(doubles(ps[i].at("data")), shape, device, dtype);
    };
    return Model{Tensor<2>(t(0)), Tensor<1>(t(1)), Tensor<3>(t(2))};
}

optim::GradientsParams grads_at(const config::Value& c, const Model& m, std::size_t step, DType dtype) {
    optim::GradientsParams grads;
    std::size_t i = 0;
    m.visit_params([&](const std::string&, const auto& p) {
        grads.set(p.id(), tensor_of(doubles(c.at("grads")[step][i++]), p.val().shape(),
                                    p.val().device().inner(), dtype));
    });
    return grads;
}

struct Setting {
    DType dtype;
    Device device;
    double rel;
    double abs;
};

// Runs the case for steps [from, to) and checks every step against torch.
void run_steps(const config::Value& c, optim::Optimizer& opt, Model& model, std::size_t from, std::size_t to,
               const Setting& run, double& worst) {
    for (std::size_t k = from; k < to; ++k) {
        auto grads = grads_at(c, model, k, run.dtype);  // before the call that moves `model`
        model = opt.step(c.at("lrs")[k].as_double(), std::move(model), grads);
        auto got = values_of(model);
        for (std::size_t i = 0; i < got.size(); ++i) {
            std::string what = c.at("name").as_string() + " step " + std::to_string(k + 1) + " param " +
                               c.at("params")[i].at("path").as_string();
            worst = std::max(worst,
                             expect_close(got[i], doubles(c.at("expected")[k][i]), run.rel, run.abs, what));
        }
    }
}

void check_all_cases(const Setting& run) {
    auto fixture = load_fixture("optimizers.json");
    const auto& cases = fixture.at("cases");
    ASSERT_GE(cases.size(), 29u);
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        auto opt = make_optimizer(c);
        Model model = make_model(c, run.device, run.dtype);
        double worst = 0.0;
        run_steps(c, opt, model, 0, 1, run, worst);   // one step
        run_steps(c, opt, model, 1, 10, run, worst);  // ten steps
        EXPECT_EQ(model.weight.val().device(), run.device);
        EXPECT_EQ(model.weight.val().dtype(), run.dtype);
        std::ostringstream worst_text;
        worst_text << worst;  // the largest relative error, in the test's XML output
        ::testing::Test::RecordProperty(c.at("name").as_string(), worst_text.str());
    }
}

TEST(OptimTorch, EveryOptimizerMatchesTorchF64) {
    check_all_cases({DType::f64, Device(), 1e-10, 1e-13});
}

TEST(OptimTorch, EveryOptimizerMatchesTorchOnAutodiffDevice) {
    check_all_cases({DType::f64, Device().autodiff(), 1e-10, 1e-13});
}

TEST(OptimTorch, EveryOptimizerMatchesTorchF32) {
    // f32 parameters against the f64 reference: rounding only (Lion's sign never sits near 0 here).
    check_all_cases({DType::f32, Device(), 2e-5, 1e-6});
}

// Stopping after four steps, saving the state as a record (through host data, as a file would), and
// continuing with a fresh optimizer gives exactly the uninterrupted run.
TEST(OptimTorch, RecordRoundTripContinuesIdentically) {
    auto fixture = load_fixture("optimizers.json");
    const auto& cases = fixture.at("cases");
    Setting run{DType::f64, Device(), 1e-10, 1e-13};
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        auto straight = make_optimizer(c);
        Model a = make_model(c, run.device, run.dtype);
        double worst = 0.0;
        run_steps(c, straight, a, 0, 10, run, worst);

        auto first = make_optimizer(c);
        Model b = make_model(c, run.device, run.dtype);
        run_steps(c, first, b, 0, 4, run, worst);
        optim::OptimizerRecord saved = first.to_record();
        optim::OptimizerRecord loaded;
        for (const auto& [key, t] : saved.tensors)
            loaded.tensors[key] = ops::from_data(ops::into_data(t), Device());
        loaded.scalars = saved.scalars;
        // The model as reloaded from a file: same values and parameter ids, new tensors.
        Model restored = b.map_params([](const std::string&, const auto& t) {
            using T = std::decay_t<decltype(t)>;
            return T(ops::from_data(ops::into_data(t.handle()), t.device()));
        });
        auto second = make_optimizer(c);
        second.load_record(loaded);
        run_steps(c, second, restored, 4, 10, run, worst);
        EXPECT_EQ(values_of(restored), values_of(a)) << "the resumed run differs from the uninterrupted one";
        // Same state (the two runs' models have different parameter ids, so compare the values).
        auto values = [](const optim::OptimizerRecord& r) {
            std::vector<double> v;
            for (const auto& [key, x] : r.scalars) v.push_back(x);
            return v;
        };
        EXPECT_EQ(values(second.to_record()), values(straight.to_record()));
        EXPECT_EQ(second.to_record().tensors.size(), straight.to_record().tensors.size());
    }
}

}  // namespace
}  // namespace burn::optim_test
