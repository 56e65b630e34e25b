// A user-defined optimizer: a Rule written here (sign descent with momentum and decoupled weight decay,
// state "momentum" and "step") wrapped in optim::Optimizer. Two steps against the update worked out in
// float64 from the loss's analytic gradient; parameter groups, frozen parameters, the multi-tensor path,
// and the state's record (save, reload, continue, reject foreign names).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "optim_test_util.hpp"

namespace burn::custom_rule_test {

using optim_test::Model;
using optim_test::values_of;

/// m = beta * m + g; p = p * (1 - lr * wd) - lr * sign(m).
class SignMomentumRule final : public optim::Rule {
  public:
    SignMomentumRule(double beta, double wd) : beta_(beta), wd_(wd) {}
    const char* name() const override { return "SignMomentum"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override { return {"momentum", "step"}; }
    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   optim::ParamState& state) const override {
        TensorAny& m = state.tensors["momentum"];
        m = m.defined() ? ops::add(ops::mul_scalar(m, beta_), grad) : grad;
        state.scalars["step"] += 1;
        TensorAny decayed = wd != 0.0 ? ops::mul_scalar(param, 1.0 - lr * wd) : param;
        return ops::sub(decayed, ops::mul_scalar(ops::sign(m), lr));
    }

  private:
    double beta_, wd_;
};

constexpr double kLr = 0.1, kBeta = 0.5, kWd = 0.01;

optim::Optimizer make_optimizer() {
    return optim::Optimizer(std::make_shared<SignMomentumRule>(kBeta, kWd));
}

Model small_model(const Device& device) {
    auto t = [&](std::vector<double> v, Dims shape) {
        return optim_test::tensor_of(v, shape, device, DType::f32);
    };
    return Model{Tensor<2>(t({0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 0.1, 0.3, -2.0, 1.0, 0.0, 0.6}, {3, 4})),
                 Tensor<1>(t({0.1, 0.2, -0.3, 0.4, -0.5}, {5})),
                 Tensor<3>(t({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 3, 2}))};
}

// d/dweight = weight, d/dbias = 3, d/dextra = cos(extra).
Tensor<1> loss_of(const Model& m) {
    return m.weight.val().square().sum() * 0.5 + (m.bias.val() * 3.0).sum() + m.extra.val().sin().sum();
}

double sign(double x) {
    return static_cast<double>((0 < x) - (x < 0));
}

/// The rule by hand in float64 for one parameter: steps of sign descent with momentum. grad(p) is the
/// gradient; lr and wd are those in effect for the parameter.
std::vector<double> by_hand(std::vector<double> p, int steps, double lr, double wd, double (*grad)(double)) {
    std::vector<double> m(p.size(), 0.0);
    for (int s = 0; s < steps; ++s)
        for (std::size_t i = 0; i < p.size(); ++i) {
            m[i] = (s == 0 ? 0.0 : kBeta * m[i]) + grad(p[i]);
            p[i] = p[i] * (1 - lr * wd) - lr * sign(m[i]);
        }
    return p;
}

Model run(optim::Optimizer& opt, Model model, int steps) {
    for (int k = 0; k < steps; ++k) {
        auto grads = optim::GradientsParams::from_grads(loss_of(model).backward(), model);
        model = opt.step(kLr, std::move(model), grads);
    }
    return model;
}

TEST(OptimCustomRule, TwoStepsEqualTheRuleWorkedOutByHand) {
    const Device device = Device().autodiff();
    for (bool multi : {false, true}) {  // Rule::step_many's default (step per item) and the plain path
        SCOPED_TRACE(multi ? "multi-tensor" : "per tensor");
        optim::Optimizer opt = make_optimizer().with_multi_tensor(multi);
        Model model = small_model(device);
        const auto before = values_of(model);
        const auto after = values_of(run(opt, model, 2));
        optim_test::expect_close(after[0], by_hand(before[0], 2, kLr, kWd, [](double w) { return w; }), 1e-6,
                                 1e-6, "weight");
        optim_test::expect_close(after[1], by_hand(before[1], 2, kLr, kWd, [](double) { return 3.0; }), 1e-6,
                                 1e-6, "bias");
        optim_test::expect_close(after[2],
                                 by_hand(before[2], 2, kLr, kWd, [](double x) { return std::cos(x); }), 1e-6,
                                 1e-6, "extra");
        // The zero weight has a zero gradient, so sign(m) = 0 and it stays at 0.
        EXPECT_EQ(after[0][10], 0.0);
        // The rule's state: one momentum tensor and a step count per parameter.
        ASSERT_EQ(opt.states().size(), 3u);
        for (const auto& [id, st] : opt.states()) {
            EXPECT_EQ(st.scalars.at("step"), 2.0) << id;
            EXPECT_TRUE(st.tensors.at("momentum").defined()) << id;
        }
        EXPECT_STREQ(opt.rule().name(), "SignMomentum");
    }
}

TEST(OptimCustomRule, GroupsAndFrozenParametersReachTheRule) {
    // The bias group halves the learning rate and turns weight decay off; extra is frozen.
    const Device device = Device().autodiff();
    optim::Optimizer opt = make_optimizer().with_group([](const std::string& p) { return p == "bias"; },
                                                       optim::GroupSettings{0.5, 0.0});
    Model model = small_model(device).freeze([](const std::string& p) { return p == "extra"; });
    const auto before = values_of(model);
    const auto after = values_of(run(opt, model, 2));
    optim_test::expect_close(after[0], by_hand(before[0], 2, kLr, kWd, [](double w) { return w; }), 1e-6,
                             1e-6, "weight");
    optim_test::expect_close(after[1], by_hand(before[1], 2, kLr * 0.5, 0.0, [](double) { return 3.0; }),
                             1e-6, 1e-6, "bias");
    // 0.1 - 2 * 0.05: the sign of a positive gradient, twice, at half the rate.
    EXPECT_NEAR(after[1][0], 0.0, 1e-7);
    EXPECT_EQ(after[2], before[2]) << "a frozen parameter is not updated";
    EXPECT_EQ(opt.states().size(), 2u) << "and gets no state";
}

TEST(OptimCustomRule, StateRecordResumesExactlyAndRejectsForeignNames) {
    const Device device = Device().autodiff();
    optim::Optimizer a = make_optimizer();
    Model ma = run(a, small_model(device), 2);
    const optim::OptimizerRecord rec = a.to_record();
    // Three parameters, each "<id>.momentum" and "<id>.step".
    EXPECT_EQ(rec.tensors.size(), 3u);
    EXPECT_EQ(rec.scalars.size(), 3u);
    for (const auto& [key, v] : rec.scalars) {
        EXPECT_TRUE(key.ends_with(".step")) << key;
        EXPECT_EQ(v, 2.0) << key;
    }
    optim::Optimizer b = make_optimizer();
    b.load_record(rec);
    Model mb = ma;  // the same parameter ids, which the record is keyed by
    EXPECT_EQ(values_of(run(a, ma, 1)), values_of(run(b, mb, 1)));
    for (const auto& [id, st] : b.states()) EXPECT_EQ(st.scalars.at("step"), 3.0) << "the count went on";

    optim::OptimizerRecord foreign = rec;
    foreign.tensors[std::to_string(ma.weight.id().value()) + ".exp_avg"] = ma.weight.val().handle();
    try {
        make_optimizer().load_record(foreign);
        FAIL() << "a state name the rule does not keep was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("SignMomentum keeps no state named 'exp_avg'"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace burn::custom_rule_test
