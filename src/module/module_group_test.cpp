// ParamGroup with freeze_group / unfreeze_group / unfreeze, fork(device), and the custom display hook
// of module::format (burn's freeze_group, fork, custom_display).
#include <gtest/gtest.h>

#include <burn/burn.hpp>

using namespace burn;

namespace module_group_test {

struct Pair {
    nn::Linear body;
    nn::Linear head;
    BURN_MODULE(Pair, body, head)
};

struct Scaled {
    nn::Linear inner;
    double factor = 0.5;
    std::string display_settings() const { return "(factor: " + std::to_string(factor).substr(0, 3) + ")"; }
    BURN_MODULE(Scaled, inner, factor)
};

Pair make(const Device& d) {
    return Pair{nn::LinearConfig{3, 3}.init(d), nn::LinearConfig{3, 2}.init(d)};
}

std::vector<std::string> trainable(const Pair& p) {
    std::vector<std::string> out;
    p.visit_params([&](const std::string& path, const auto& q) {
        if (q.is_require_grad()) out.push_back(path);
    });
    return out;
}

TEST(ModuleGroup, MatchersByIdPathPredicateFuseAndExclude) {
    Pair p = make(Device());
    const ParamId w = p.body.weight.id(), b = p.body.bias->id();
    EXPECT_TRUE(module::ParamGroup::all().matches(w, nullptr));
    EXPECT_TRUE(module::ParamGroup::from_ids({w}).matches(w, nullptr));
    EXPECT_FALSE(module::ParamGroup::from_ids({w}).matches(b, nullptr));
    EXPECT_TRUE(module::ParamGroup::from_path("body.bias").matches(b, std::string("body.bias")));
    EXPECT_FALSE(module::ParamGroup::from_path("body.bias").matches(b, nullptr));  // no path known
    EXPECT_TRUE(module::ParamGroup::from_predicates({"head", "bias"}).matches(b, std::string("head.bias")));
    EXPECT_FALSE(
        module::ParamGroup::from_predicates({"head", "bias"}).matches(b, std::string("head.weight")));
    EXPECT_TRUE(
        module::ParamGroup::from_any_predicates({"x", "head"}).matches(b, std::string("head.weight")));
    auto fused = module::ParamGroup::from_ids({w}).fuse(module::ParamGroup::from_path("head.bias"));
    EXPECT_TRUE(fused.matches(w, std::string("body.weight")));
    EXPECT_TRUE(fused.matches(ParamId::create(), std::string("head.bias")));
    EXPECT_FALSE(fused.matches(b, std::string("body.bias")));
    auto body = module::ParamGroup::from_predicate("body");
    body.exclude(module::ParamGroup::from_ids({b}));
    EXPECT_TRUE(body.matches(w, std::string("body.weight")));
    EXPECT_FALSE(body.matches(b, std::string("body.bias")));
    EXPECT_EQ(module::param_ids(p).size(), 4u);
}

TEST(ModuleGroup, FreezeAndUnfreezeGroupsChangeOnlyTheirParams) {
    auto ad = Device().autodiff();
    Pair p = make(ad).freeze_group(module::ParamGroup::all());
    EXPECT_TRUE(trainable(p).empty());
    auto head = module::ParamGroup::from_predicate("head");
    head.exclude(module::ParamGroup::from_path("head.bias"));
    p = p.unfreeze_group(head);
    EXPECT_EQ(trainable(p), (std::vector<std::string>{"head.weight"}));
    p = p.unfreeze([](const std::string& path) { return path == "body.bias"; });
    EXPECT_EQ(trainable(p), (std::vector<std::string>{"body.bias", "head.weight"}));
    p = p.freeze_group(module::ParamGroup::from_ids(module::param_ids(p.head)));
    EXPECT_EQ(trainable(p), (std::vector<std::string>{"body.bias"}));
    // Frozen parameters get no gradient; trainable ones do.
    auto x = Tensor<2>::ones({1, 3}, ad);
    auto grads = p.head.forward(p.body.forward(x)).sum().backward();
    EXPECT_TRUE(p.body.bias->val().grad(grads).has_value());
    EXPECT_FALSE(p.body.weight.val().grad(grads).has_value());
}

TEST(ModuleGroup, ForkGivesNewLeavesOnTheDevice) {
    auto ad = Device().autodiff();
    Pair p = make(ad);
    Pair f = p.fork(ad);
    EXPECT_EQ(f.body.weight.id(), p.body.weight.id());
    EXPECT_EQ(f.body.weight.val().to_data().to_vec<float>(), p.body.weight.val().to_data().to_vec<float>());
    auto x = Tensor<2>::ones({2, 3}, ad);
    auto grads = f.head.forward(f.body.forward(x)).sum().backward();
    EXPECT_TRUE(f.body.weight.val().grad(grads).has_value());
    EXPECT_FALSE(p.body.weight.val().grad(grads).has_value());  // the original is not in the graph
    Pair inner = p.fork(Device());
    EXPECT_EQ(inner.devices(), (std::vector<Device>{Device()}));
    EXPECT_FALSE(inner.head.weight.val().is_require_grad());
    EXPECT_TRUE(inner.fork(ad).head.weight.val().is_require_grad());
    EXPECT_EQ(p.freeze_group(module::ParamGroup::all()).fork(ad).head.weight.is_require_grad(), false);
}

TEST(ModuleGroup, DisplaySettingsHookIsPrinted) {
    Scaled s{nn::LinearConfig{2, 2}.init(Device()), 0.5};
    const std::string text = s.to_string();
    EXPECT_NE(text.find("Scaled (factor: 0.5) {  // params: 6"), std::string::npos) << text;
    EXPECT_NE(text.find("inner: Linear {  // params: 6"), std::string::npos) << text;
}

}  // namespace module_group_test
