// Per-group optimizers (Optimizer::with_group(pred or ParamGroup, optimizer, settings)): the group's
// parameters take its rule and its clipping, the others the main rule and clipping; checked against
// the update rules written out in float64.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <cmath>
#include <vector>

using namespace burn;

namespace optim_group_rule_test {

struct Two {
    nn::Linear body;
    nn::Linear head;
    BURN_MODULE(Two, body, head)
};

std::vector<double> f64(const TensorAny& t) {
    std::vector<double> out;
    for (float x : ops::into_data(ops::inner_of(t)).to_vec<float>()) out.push_back(x);
    return out;
}

void expect_near(const Tensor<2>& got, const std::vector<double>& want) {
    const auto g = got.to_data().to_vec<float>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-6) << i;
}

TEST(OptimGroupRule, GroupUsesItsOwnRuleAndClipping) {
    auto ad = Device().autodiff();
    for (int by_ids = 0; by_ids < 2; ++by_ids) {
        Two m{nn::LinearConfig{3, 3}.init(ad), nn::LinearConfig{3, 2}.init(ad)};
        const auto x = Tensor<2>::from_floats({{1.0, -2.0, 3.0}, {0.5, 0.25, -1.0}}, ad);
        auto grads =
            optim::GradientsParams::from_grads(m.head.forward(m.body.forward(x)).sum().backward(), m);
        const auto gb = f64(*grads.get(m.body.weight.id())), gh = f64(*grads.get(m.head.weight.id()));
        const auto wb = f64(m.body.weight.val().handle()), wh = f64(m.head.weight.val().handle());
        // Main: SGD, gradients clipped to [-0.5, 0.5]. Head group: Adam (first step: lr * g / (|g| + eps)),
        // unclipped, at twice the learning rate.
        auto head_opt = optim::AdamConfig{}.init();
        auto opt = optim::SgdConfig{}.init().with_grad_clipping(optim::GradientClipping::Value(0.5));
        opt = by_ids ? opt.with_group(module::ParamGroup::from_ids(module::param_ids(m.head)), head_opt,
                                      optim::GroupSettings{.lr_factor = 2.0})
                     : opt.with_group([](const std::string& p) { return p.rfind("head.", 0) == 0; }, head_opt,
                                      optim::GroupSettings{.lr_factor = 2.0});
        const double lr = 0.1;
        Two after = opt.step(lr, m, grads);
        std::vector<double> want_b, want_h;
        for (std::size_t i = 0; i < wb.size(); ++i)
            want_b.push_back(wb[i] - lr * std::clamp(gb[i], -0.5, 0.5));
        for (std::size_t i = 0; i < wh.size(); ++i) {
            const double mhat = gh[i], vhat = gh[i] * gh[i];  // bias-corrected first moments
            want_h.push_back(wh[i] - 2 * lr * mhat / (std::sqrt(vhat) + 1e-5));
        }
        expect_near(after.body.weight.val(), want_b);
        expect_near(after.head.weight.val(), want_h);
        // The group's Adam state is kept and saved under the parameter's id.
        EXPECT_EQ(opt.to_record().tensors.count(optim::OptimizerRecord::key(m.head.weight.id(), "exp_avg")),
                  1u);
    }
}

}  // namespace optim_group_rule_test
