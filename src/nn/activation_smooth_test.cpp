// The smooth activation modules against torch.nn activations: values and gradients.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_smooth_test {

namespace {

TEST(NnActivationSmooth, ForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch({
        {"mish", [](const Tensor<3>& x) { return nn::Mish{}.forward(x); }},
        {"softsign", [](const Tensor<3>& x) { return nn::Softsign{}.forward(x); }},
        {"log_sigmoid", [](const Tensor<3>& x) { return nn::LogSigmoid{}.forward(x); }},
        {"tanhshrink", [](const Tensor<3>& x) { return nn::Tanhshrink{}.forward(x); }},
    });
}

TEST(NnActivationSmooth, ExtremesStayFinite) {
    auto x = Tensor<1>::from_floats({-1000.0, -50.0, 0.0, 50.0, 1000.0});
    nn_test::expect_finite(nn::Mish{}.forward(x));
    nn_test::expect_finite(nn::LogSigmoid{}.forward(x));
    nn_test::expect_finite(nn::Softsign{}.forward(x));
    EXPECT_NEAR(nn::LogSigmoid{}.forward(x).to_vec<float>()[0], -1000.0f, 1e-3f);
}

TEST(NnActivationSmooth, IntInputIsADTypeError) {
    try {
        activation::any::mish(ops::full(Dims{2}, 1.0, DType::i32, Device()));
        FAIL() << "expected a dtype error";
    } catch (const DTypeError& e) {
        EXPECT_NE(std::string(e.what()).find("[mish]"), std::string::npos) << e.what();
    }
}

}  // namespace

}  // namespace activation_smooth_test
