// The piecewise-linear activation modules against torch.nn activations: values and gradients.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace activation_hard_test {

namespace {

TEST(NnActivationHard, ForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch({
        {"relu6", [](const Tensor<3>& x) { return nn::Relu6{}.forward(x); }},
        {"hard_sigmoid", [](const Tensor<3>& x) { return nn::HardSigmoidConfig{}.init().forward(x); }},
        {"hard_swish", [](const Tensor<3>& x) { return nn::HardSwish{}.forward(x); }},
        {"hardtanh", [](const Tensor<3>& x) { return nn::HardtanhConfig{}.init().forward(x); }},
        {"hardtanh_a",
         [](const Tensor<3>& x) {
             return nn::HardtanhConfig{-2.0, 1.5}.init().forward(x);
         }},
    });
}

TEST(NnActivationHard, ConfigErrors) {
    EXPECT_THROW((nn::HardtanhConfig{1.0, -1.0}.init()), Error);
}

}  // namespace

}  // namespace activation_hard_test
