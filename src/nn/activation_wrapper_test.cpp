// ActivationConfig / Activation: each picked activation against the torch.nn fixtures of its own
// module (tests/fixtures/nn_layers/activations.json and activations_extra.json), values and gradients;
// PRelu's parameter reached, trained and named through the wrapper; JSON round trips.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_wrapper_test {

namespace {

nn_test::ActivationCase picked(const char* name, nn::ActivationKind kind) {
    return {name, [kind](const Tensor<3>& x) { return nn::ActivationConfig{kind}.init().forward(x); }};
}

TEST(NnActivationWrapper, PickedActivationsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch({
        picked("hard_sigmoid", nn::HardSigmoidConfig{}),
        picked("hard_swish", nn::HardSwishConfig{}),
        picked("elu_a", nn::EluConfig{0.5}),
        picked("celu_a", nn::CeluConfig{2.0}),
        picked("hardtanh_a", nn::HardtanhConfig{-2.0, 1.5}),
    });
    nn_test::expect_activations_match_pytorch(
        {
            picked("glu", nn::GluConfig{}),
            picked("hard_shrink_a", nn::HardShrinkConfig{1.2}),
            picked("soft_shrink", nn::SoftShrinkConfig{}),
            picked("threshold", nn::ThresholdConfig{0.3, -2.0}),
            picked("thresholded_relu", nn::ThresholdedReluConfig{}),
        },
        "activations_extra");
}

TEST(NnActivationWrapper, PReluParameterIsAParameterOfTheWrapper) {
    auto f = nn_test::load_fixture("activations");
    auto dev = Device().autodiff();
    auto act = nn::ActivationConfig{nn::PReluConfig{4}}.init(dev);
    EXPECT_EQ(act.name(), "PRelu");
    EXPECT_EQ(act.num_params(), 4u);
    std::vector<std::string> paths;
    module::visit_params_mut(act, [&](const std::string& path, auto& p) {
        paths.push_back(path);
        using T = typename std::remove_reference_t<decltype(p)>::value_type;
        p.set(T(ops::from_data(f.at("param.alpha"), dev)));
    });
    ASSERT_EQ(paths, std::vector<std::string>{"layer.alpha"});
    auto x = f.floats<3>("x", dev).require_grad();
    auto y = act.forward(x);
    EXPECT_TRUE(nn_test::close(y, f.at("y.prelu")));
    auto grads = (y * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(nn_test::close(*x.grad(grads), f.at("g.prelu")));
    const auto& prelu = std::get<nn::PRelu>(act.layer);
    EXPECT_TRUE(nn_test::close(*prelu.alpha.val().grad(grads), f.at("grad.param.alpha"), 1e-5, 1e-4));
}

TEST(NnActivationWrapper, SavesAndLoadsTheHeldModulesParameters) {
    auto saved = nn::ActivationConfig{nn::PReluConfig{3, 0.1}}.init();
    std::get<nn::PRelu>(saved.layer).alpha.set(Tensor<1>::from_floats({0.1, -0.2, 0.3}));
    auto mem = store::BurnpackStore::in_memory();
    saved.save_into(mem);
    auto loaded = nn::ActivationConfig{nn::PReluConfig{3, 1.0}}.init();
    auto back = store::BurnpackStore::from_bytes(mem.bytes());
    EXPECT_TRUE(loaded.load_from(back).is_success());
    EXPECT_TRUE(nn_test::close(std::get<nn::PRelu>(loaded.layer).alpha.val(),
                               TensorData(std::vector<float>{0.1f, -0.2f, 0.3f}, Dims{3}), 0, 0));
    EXPECT_NE(saved.to_string().find("alpha"), std::string::npos) << saved.to_string();
}

TEST(NnActivationWrapper, ConfigJsonRoundTripsEveryKind) {
    auto cfg = nn::ActivationConfig{nn::LeakyReluConfig{0.2}};
    const std::string json = cfg.to_json_string();
    EXPECT_NE(json.find("\"LeakyRelu\""), std::string::npos) << json;
    auto back = nn::ActivationConfig::from_json_string(json);
    ASSERT_TRUE(std::holds_alternative<nn::LeakyReluConfig>(back.kind));
    EXPECT_EQ(std::get<nn::LeakyReluConfig>(back.kind).negative_slope, 0.2);
    // Every alternative initialises into the matching module and keeps its name.
    for (std::size_t i = 0; i < std::variant_size_v<nn::ActivationKind>; ++i) {
        auto j = nn::ActivationConfig::from_json_string("{\"kind\": {\"type\": " + std::to_string(i) + "}}");
        if (std::holds_alternative<nn::SwiGluConfig>(j.kind)) j.kind = nn::SwiGluConfig{4, 4};
        auto act = j.init();
        EXPECT_EQ(act.layer.index(), i);
        auto y = act.forward(Tensor<2>::ones({2, 4}));
        EXPECT_EQ(y.dims()[0], 2u) << act.name();
    }
    EXPECT_EQ(nn::ActivationConfig{}.init().name(), "Relu");  // the default
    EXPECT_EQ(nn::ActivationConfig{nn::GeluConfig{true}}.init().name(), "Gelu");
}

TEST(NnActivationWrapper, InvalidInnerConfigIsAnError) {
    EXPECT_THROW((nn::ActivationConfig{nn::RReluConfig{0.5, 0.1}}.init()), Error);
    EXPECT_THROW((nn::ActivationConfig{nn::HardtanhConfig{1.0, -1.0}}.init()), Error);
    EXPECT_THROW(nn::ActivationConfig::from_json_string("{\"kind\": {\"type\": \"Swish\"}}"), Error);
}

}  // namespace

}  // namespace activation_wrapper_test
