// PRelu against torch.nn.PReLU: values, input and parameter gradients, and config errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace prelu_test {

namespace {

TEST(NnPRelu, PerChannelWithGradient) {
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

TEST(NnPRelu, ConfigErrors) {
    EXPECT_THROW(nn::PReluConfig{0}.init(), Error);
}

}  // namespace

}  // namespace prelu_test
