// The extra activation modules against torch.nn activations: values and gradients.
#include <functional>

#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

TEST(NnActivationExtra, ForwardAndGradientsMatchPyTorch) {
    auto f = nn_test::load_fixture("activations");
    auto dev = Device().autodiff();
    using Fn = std::function<Tensor<3>(const Tensor<3>&)>;
    std::vector<std::pair<const char*, Fn>> cases = {
        {"relu6", [](const Tensor<3>& x) { return nn::Relu6{}.forward(x); }},
        {"hard_sigmoid", [](const Tensor<3>& x) { return nn::HardSigmoidConfig{}.init().forward(x); }},
        {"hard_swish", [](const Tensor<3>& x) { return nn::HardSwish{}.forward(x); }},
        {"mish", [](const Tensor<3>& x) { return nn::Mish{}.forward(x); }},
        {"elu", [](const Tensor<3>& x) { return nn::EluConfig{}.init().forward(x); }},
        {"elu_a", [](const Tensor<3>& x) { return nn::EluConfig{0.5}.init().forward(x); }},
        {"selu", [](const Tensor<3>& x) { return nn::Selu{}.forward(x); }},
        {"celu", [](const Tensor<3>& x) { return nn::CeluConfig{}.init().forward(x); }},
        {"celu_a", [](const Tensor<3>& x) { return nn::CeluConfig{2.0}.init().forward(x); }},
        {"softsign", [](const Tensor<3>& x) { return nn::Softsign{}.forward(x); }},
        {"log_sigmoid", [](const Tensor<3>& x) { return nn::LogSigmoid{}.forward(x); }},
        {"hardtanh", [](const Tensor<3>& x) { return nn::HardtanhConfig{}.init().forward(x); }},
        {"hardtanh_a",
         [](const Tensor<3>& x) {
             return nn::HardtanhConfig{-2.0, 1.5}.init().forward(x);
         }},
        {"softmin", [](const Tensor<3>& x) { return nn::Softmin{1}.forward(x); }},
        {"tanhshrink", [](const Tensor<3>& x) { return nn::Tanhshrink{}.forward(x); }},
    };
    auto r = f.floats<3>("r", dev);
    for (const auto& [name, fn] : cases) {
        auto x = f.floats<3>("x", dev).require_grad();
        auto y = fn(x);
        EXPECT_TRUE(close(y, f.at(std::string("y.") + name))) << name;
        auto grads = (y * r).sum().backward();
        auto g = x.grad(grads);
        ASSERT_TRUE(g.has_value()) << name;
        EXPECT_TRUE(close(*g, f.at(std::string("g.") + name))) << name;
    }
}

TEST(NnActivationExtra, PReluPerChannelWithGradient) {
    auto f = nn_test::load_fixture("activations");
    auto dev = Device().autodiff();
    auto prelu = nn::PReluConfig{4}.init(dev);
    EXPECT_EQ(prelu.num_params(), 4u);
    EXPECT_EQ(nn_test::load_params(prelu, f, dev), 1u);
    auto x = f.floats<3>("x", dev).require_grad();
    auto y = prelu.forward(x);
    EXPECT_TRUE(close(y, f.at("y.prelu")));
    auto grads = (y * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("g.prelu")));
    nn_test::expect_param_grads(prelu, f, grads);
    // One shared slope (PyTorch's default 0.25) applies to any shape.
    auto shared = nn::PReluConfig{}.init();
    EXPECT_EQ(shared.forward(Tensor<1>::from_floats({-4.0, 2.0})).to_vec<float>(),
              (std::vector<float>{-1.0f, 2.0f}));
    EXPECT_THROW(prelu.forward(Tensor<2>::zeros({2, 3})), ShapeError);
}

TEST(NnActivationExtra, ExtremesStayFinite) {
    auto x = Tensor<1>::from_floats({-1000.0, -50.0, 0.0, 50.0, 1000.0});
    for (auto y : {nn::Mish{}.forward(x), nn::Selu{}.forward(x), nn::EluConfig{}.init().forward(x),
                   nn::LogSigmoid{}.forward(x), nn::Softsign{}.forward(x), activation::quiet_softmax(x, 0)}) {
        for (float v : y.to_vec<float>()) EXPECT_TRUE(std::isfinite(v)) << y;
    }
    EXPECT_NEAR(nn::LogSigmoid{}.forward(x).to_vec<float>()[0], -1000.0f, 1e-3f);
}

TEST(NnActivationExtra, QuietSoftmaxSumsBelowOne) {
    auto x = Tensor<2>::from_floats({{0.0, 0.0}, {-30.0, -30.0}});
    auto y = activation::quiet_softmax(x, 1).to_vec<float>();
    EXPECT_NEAR(y[0], 1.0 / 3.0, 1e-6);  // e^0 / (1 + 2 e^0)
    EXPECT_NEAR(y[2], std::exp(-30.0), 1e-15);
}

TEST(NnActivationExtra, ConfigErrorsAndIntInput) {
    EXPECT_THROW(nn::CeluConfig{0.0}.init(), Error);
    EXPECT_THROW((nn::HardtanhConfig{1.0, -1.0}.init()), Error);
    EXPECT_THROW(nn::PReluConfig{0}.init(), Error);
    try {
        activation::any::mish(ops::full(Dims{2}, 1.0, DType::i32, Device()));
        FAIL() << "expected a dtype error";
    } catch (const DTypeError& e) {
        EXPECT_NE(std::string(e.what()).find("[mish]"), std::string::npos) << e.what();
    }
}

}  // namespace
