// Softmin against torch.nn.Softmin (values and gradients) and quiet_softmax's off-by-one denominator.
#include <cmath>

#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_softmax_test {

namespace {

TEST(NnActivationSoftmax, SoftminForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch({
        {"softmin", [](const Tensor<3>& x) { return nn::Softmin{1}.forward(x); }},
    });
}

TEST(NnActivationSoftmax, QuietSoftmaxExtremesStayFinite) {
    auto x = Tensor<1>::from_floats({-1000.0, -50.0, 0.0, 50.0, 1000.0});
    nn_test::expect_finite(activation::quiet_softmax(x, 0));
}

TEST(NnActivationSoftmax, QuietSoftmaxSumsBelowOne) {
    auto x = Tensor<2>::from_floats({{0.0, 0.0}, {-30.0, -30.0}});
    auto y = activation::quiet_softmax(x, 1).to_vec<float>();
    EXPECT_NEAR(y[0], 1.0 / 3.0, 1e-6);  // e^0 / (1 + 2 e^0)
    EXPECT_NEAR(y[2], std::exp(-30.0), 1e-15);
}

}  // namespace

}  // namespace activation_softmax_test
