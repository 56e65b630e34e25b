// The exponential-linear activation modules against torch.nn activations: values and gradients.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_elu_test {

namespace {

TEST(NnActivationElu, ForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch({
        {"elu", [](const Tensor<3>& x) { return nn::EluConfig{}.init().forward(x); }},
        {"elu_a", [](const Tensor<3>& x) { return nn::EluConfig{0.5}.init().forward(x); }},
        {"selu", [](const Tensor<3>& x) { return nn::Selu{}.forward(x); }},
        {"celu", [](const Tensor<3>& x) { return nn::CeluConfig{}.init().forward(x); }},
        {"celu_a", [](const Tensor<3>& x) { return nn::CeluConfig{2.0}.init().forward(x); }},
    });
}

TEST(NnActivationElu, ExtremesStayFinite) {
    auto x = Tensor<1>::from_floats({-1000.0, -50.0, 0.0, 50.0, 1000.0});
    nn_test::expect_finite(nn::Selu{}.forward(x));
    nn_test::expect_finite(nn::EluConfig{}.init().forward(x));
}

TEST(NnActivationElu, ConfigErrors) {
    EXPECT_THROW(nn::CeluConfig{0.0}.init(), Error);
}

}  // namespace

}  // namespace activation_elu_test
