#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>

using namespace burn;

TEST(Linear, ForwardMatchesManualComputationOnAnyRank) {
    Device d;
    auto l = nn::LinearConfig{3, 2}.init(d);
    l.weight.set(Tensor<2>::from_floats({{1, 2, 3}, {-1, 0, 1}}, d));
    l.bias->set(Tensor<1>::from_floats({0.5, -0.5}, d));
    auto x = Tensor<3>::from_floats({{{1, 1, 1}, {0, 1, 2}}}, d);  // [1, 2, 3]
    auto y = l.forward(x);
    EXPECT_EQ(y.dims(), (Shape<3>{1, 2, 2}));
    EXPECT_EQ(y.to_vec<float>(), (std::vector<float>{6.5, -0.5, 8.5, 1.5}));
    EXPECT_THROW(l.forward(Tensor<2>::zeros({2, 4}, d)), Error);
}

TEST(Linear, DefaultInitIsUniformWithinOneOverSqrtFanIn) {
    Device d;
    d.seed(7);
    auto l = nn::LinearConfig{64, 32}.init(d);
    auto w = l.weight.val();
    EXPECT_EQ(w.dims(), (Shape<2>{32, 64}));  // PyTorch layout [out, in]
    float bound = 1.0f / std::sqrt(64.0f);
    EXPECT_LE(w.abs().max().into_scalar(), bound);
    EXPECT_GT(w.abs().max().into_scalar(), 0.9f * bound);
    EXPECT_NEAR(w.mean().into_scalar(), 0.0f, 0.02f);
    EXPECT_FALSE((nn::LinearConfig{4, 2}.with_bias(false).init(d).bias.has_value()));
}

TEST(Linear, ConfigRoundTripsThroughJson) {
    auto c = nn::LinearConfig{8, 4}.with_bias(false).with_initializer(nn::Initializer::XavierNormal(2.0));
    auto back = nn::LinearConfig::from_json_string(c.to_json_string());
    EXPECT_EQ(back, c);
}

TEST(Initializer, StatisticsOfEachKind) {
    Device d;
    d.seed(1);
    auto stats = [&](const nn::Initializer& init) {
        auto t = init.init<2>({256, 256}, 256, 128, d);
        float mean = t.mean().into_scalar();
        float var = (t - mean).square().mean().into_scalar();
        return std::make_pair(mean, var);
    };
    auto [m1, v1] = stats(nn::Initializer::Normal(1.0, 2.0));
    EXPECT_NEAR(m1, 1.0, 0.05);
    EXPECT_NEAR(v1, 4.0, 0.1);
    auto [m2, v2] = stats(nn::Initializer::KaimingNormal(1.0));
    EXPECT_NEAR(v2, 1.0 / 256, 0.0005);
    auto [m3, v3] = stats(nn::Initializer::XavierUniform(1.0));
    EXPECT_NEAR(v3, 2.0 / (256 + 128), 0.0003);  // bound^2 / 3 = 6/(in+out)/3
    (void)m2;
    (void)m3;
    EXPECT_EQ(nn::Initializer::Constant(3).init<1>({4}, {}, {}, d).to_vec<float>(),
              (std::vector<float>(4, 3.0f)));
    EXPECT_THROW(nn::Initializer::KaimingUniform(1.0).init<1>({4}, {}, {}, d), Error);
}
