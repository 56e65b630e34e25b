// GLU against torch.nn.functional.glu (tests/fixtures/nn_layers/activations_extra.json,
// scripts/gen_activation_fixtures.py): values and gradients along the last dim and along dim 1.
#include "nn/activation_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace glu_test {

namespace {

TEST(NnGlu, ForwardAndGradientsMatchPyTorch) {
    nn_test::expect_activations_match_pytorch(
        {
            {"glu", [](const Tensor<3>& x) { return nn::GluConfig{}.init().forward(x); }},
            {"glu_dim1", [](const Tensor<3>& x) { return nn::GluConfig{1}.init().forward(x); }},
        },
        "activations_extra");
}

TEST(NnGlu, HalvesTheDim) {
    auto y = nn::Glu{0}.forward(Tensor<2>::zeros({4, 3}));
    EXPECT_EQ(y.dims(), (Shape<2>{2, 3}));
}

TEST(NnGlu, OddSizeOrBadDimIsAnError) {
    try {
        nn::Glu{}.forward(Tensor<2>::zeros({2, 5}));
        FAIL() << "an odd size was accepted";
    } catch (const ShapeError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("[glu]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("[2, 5]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("even"), std::string::npos) << msg;
    }
    EXPECT_THROW(nn::Glu{2}.forward(Tensor<2>::zeros({2, 4})), ShapeError);
    EXPECT_THROW(nn::Glu{-3}.forward(Tensor<2>::zeros({2, 4})), ShapeError);
}

}  // namespace

}  // namespace glu_test
