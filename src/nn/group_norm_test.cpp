// GroupNorm against PyTorch fixtures, plus the normalisation itself, shapes and errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace group_norm_test {

namespace {

TEST(NnGroupNorm, MatchesPyTorch) {
    auto f = nn_test::load_fixture("group_norm");
    auto gn = nn::GroupNormConfig{f.cfg_size("num_groups"), f.cfg_size("num_channels")}.init();
    EXPECT_EQ(nn_test::load_params(gn, f), 2u);
    EXPECT_TRUE(close(gn.forward(f.floats<4>("x")), f.at("y")));
    EXPECT_TRUE(close(gn.forward(f.floats<3>("x3")), f.at("y3")));
    EXPECT_TRUE(close(gn.forward(nn_test::as_view(f.floats<4>("x"))), f.at("y")));
}

TEST(NnGroupNorm, WithoutAffineIsZeroMeanUnitVariancePerGroup) {
    auto gn = nn::GroupNormConfig{2, 4}.with_affine(false).init();
    EXPECT_EQ(gn.num_params(), 0u);
    auto x = Tensor<3>::random({3, 4, 5}, Distribution::Normal(2.0, 3.0));
    auto y = gn.forward(x).reshape<3>({3, 2, 10});
    auto mean = y.mean_dim(2).to_vec<float>();
    auto var = y.var_bias(2).to_vec<float>();
    for (float m : mean) EXPECT_NEAR(m, 0.0f, 1e-5f);
    for (float v : var) EXPECT_NEAR(v, 1.0f, 1e-3f);  // eps = 1e-5 shrinks it slightly
}

TEST(NnGroupNorm, Errors) {
    EXPECT_THROW((nn::GroupNormConfig{4, 6}.init()), Error);
    EXPECT_THROW((nn::GroupNormConfig{0, 6}.init()), Error);
    auto gn = nn::GroupNormConfig{3, 6}.init();
    try {
        gn.forward(Tensor<3>::zeros({2, 5, 4}));
        FAIL() << "expected a shape error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[GroupNorm]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("[2, 5, 4]"), std::string::npos) << e.what();
    }
}

}  // namespace

}  // namespace group_norm_test
