// InstanceNorm against PyTorch fixtures, plus its defaults and errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace instance_norm_test {

namespace {

TEST(NnInstanceNorm, MatchesPyTorch) {
    auto f = nn_test::load_fixture("instance_norm");
    auto in = nn::InstanceNormConfig{f.cfg_size("num_channels")}.with_affine(true).init();
    EXPECT_EQ(nn_test::load_params(in, f), 2u);
    EXPECT_TRUE(close(in.forward(f.floats<4>("x")), f.at("y")));
    EXPECT_TRUE(close(in.forward(f.floats<3>("x1")), f.at("y1")));
}

TEST(NnInstanceNorm, DefaultHasNoParametersLikePyTorch) {
    auto in = nn::InstanceNormConfig{4}.init();
    EXPECT_EQ(in.num_params(), 0u);
    EXPECT_THROW(in.forward(Tensor<3>::zeros({2, 3, 5})), ShapeError);
}

}  // namespace

}  // namespace instance_norm_test
