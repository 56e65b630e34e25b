// GroupNorm, InstanceNorm and RmsNorm against PyTorch fixtures, plus shapes and errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

/// The same values as x, reached through a transposed view of a copy (non-contiguous).
template <std::size_t D>
Tensor<D> as_view(const Tensor<D>& x) {
    Tensor<D> t(ops::contiguous(x.swap_dims(0, D - 1).handle()));
    return t.swap_dims(0, D - 1);
}

TEST(NnGroupNorm, MatchesPyTorch) {
    auto f = nn_test::load_fixture("group_norm");
    auto gn = nn::GroupNormConfig{f.cfg_size("num_groups"), f.cfg_size("num_channels")}.init();
    EXPECT_EQ(nn_test::load_params(gn, f), 2u);
    EXPECT_TRUE(close(gn.forward(f.floats<4>("x")), f.at("y")));
    EXPECT_TRUE(close(gn.forward(f.floats<3>("x3")), f.at("y3")));
    EXPECT_TRUE(close(gn.forward(as_view(f.floats<4>("x"))), f.at("y")));
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

TEST(NnRmsNorm, MatchesFormula) {
    auto f = nn_test::load_fixture("rms_norm");
    auto rms = nn::RmsNormConfig{f.cfg_size("d_model")}.init();
    EXPECT_EQ(nn_test::load_params(rms, f), 1u);
    EXPECT_TRUE(close(rms.forward(f.floats<3>("x")), f.at("y")));
    EXPECT_TRUE(close(rms.forward(as_view(f.floats<3>("x"))), f.at("y")));
    EXPECT_THROW(rms.forward(Tensor<2>::zeros({2, 7})), ShapeError);
    EXPECT_THROW(nn::RmsNormConfig{8}.with_epsilon(0.0).init(), Error);
}

TEST(NnRmsNorm, GradientOfGammaIsNormalisedInput) {
    auto dev = Device().autodiff();
    auto rms = nn::RmsNormConfig{4}.init(dev);
    auto x = Tensor<2>::from_floats({{1, 2, 3, 4}, {-1, 0, 1, 0}}, dev);
    auto grads = rms.forward(x).sum().backward();
    auto g = rms.gamma.val().grad(grads);
    ASSERT_TRUE(g.has_value());
    // d/dgamma sum(x / rms(x) * gamma) = sum over rows of x / rms(x)
    double r0 = std::sqrt((1 + 4 + 9 + 16) / 4.0 + 1e-5), r1 = std::sqrt(2 / 4.0 + 1e-5);
    std::vector<float> expect{float(1 / r0 - 1 / r1), float(2 / r0), float(3 / r0 + 1 / r1), float(4 / r0)};
    EXPECT_TRUE(close(*g, TensorData(expect, Dims{4})));
}

}  // namespace
