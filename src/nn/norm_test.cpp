#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>

using namespace burn;

TEST(BatchNorm, TrainingUsesBatchStatsAndUpdatesRunningOnes) {
    auto ad = Device().autodiff();
    auto bn = nn::BatchNormConfig{2}.init(ad);
    // [batch 2, channels 2, 2]: channel 0 values {1, 3, 5, 7}, channel 1 {2, 2, 2, 2}
    auto x = Tensor<3>::from_floats({{{1, 3}, {2, 2}}, {{5, 7}, {2, 2}}}, ad);
    auto y = bn.forward(x);
    // channel 0: mean 4, biased var 5 -> (v - 4) / sqrt(5 + 1e-5)
    auto v = y.to_vec<float>();
    EXPECT_NEAR(v[0], -3 / std::sqrt(5 + 1e-5), 1e-5);
    EXPECT_NEAR(v[2], 0.0, 1e-5);  // channel 1 is constant
    // running mean = 0.9 * 0 + 0.1 * 4; running var = 0.9 * 1 + 0.1 * (unbiased 20/3)
    auto rm = bn.running_mean.val().to_vec<float>();
    auto rv = bn.running_var.val().to_vec<float>();
    EXPECT_NEAR(rm[0], 0.4, 1e-6);
    EXPECT_NEAR(rv[0], 0.9 + 0.1 * 20.0 / 3.0, 1e-5);
    EXPECT_NEAR(rv[1], 0.9, 1e-6);
    // Evaluation (inner device) uses the running statistics.
    auto eval = bn.valid().forward(x.inner());
    EXPECT_NEAR(eval.to_vec<float>()[0], (1 - 0.4) / std::sqrt(rv[0] + 1e-5), 1e-5);
    // Gradients reach gamma and beta.
    auto g = optim::GradientsParams::from_grads((y * y).sum().backward(), bn);
    EXPECT_TRUE(g.get(bn.gamma.id()).has_value());
    EXPECT_TRUE(g.get(bn.beta.id()).has_value());
}

TEST(LayerNorm, NormalisesTheLastDim) {
    Device d;
    auto ln = nn::LayerNormConfig{4}.init(d);
    auto x = Tensor<2>::from_floats({{1, 2, 3, 4}, {2, 2, 2, 2}}, d);
    auto y = ln.forward(x).to_vec<float>();
    double sd = std::sqrt(1.25 + 1e-5);
    EXPECT_NEAR(y[0], -1.5 / sd, 1e-5);
    EXPECT_NEAR(y[3], 1.5 / sd, 1e-5);
    EXPECT_NEAR(y[5], 0.0, 1e-6);
    EXPECT_THROW(ln.forward(Tensor<2>::zeros({2, 3}, d)), Error);
}

TEST(Embedding, LooksUpRowsAndRoutesGradients) {
    auto ad = Device().autodiff();
    auto e = nn::EmbeddingConfig{5, 3}.init(ad);
    auto idx = Tensor<2, Int>::from_ints({{1, 1}, {4, 0}}, ad);
    auto y = e.forward(idx);
    EXPECT_EQ(y.dims(), (Shape<3>{2, 2, 3}));
    auto w = e.weight.val().to_vec<float>();
    EXPECT_EQ(y.to_vec<float>()[0], w[3]);
    auto g = optim::GradientsParams::from_grads(y.sum().backward(), e);
    auto gw = Tensor<2>(g.get(e.weight.id()).value()).to_vec<float>();
    EXPECT_EQ(gw[3], 2.0f);  // row 1 used twice
    EXPECT_EQ(gw[6], 0.0f);  // row 2 unused
}

TEST(Dropout, IdentityOnInferenceDevicesScaledOnAutodiff) {
    auto x = Tensor<1>::ones({10000});
    auto drop = nn::DropoutConfig{0.25}.init();
    EXPECT_EQ(drop.forward(x).sum().into_scalar(), 10000.0f);
    auto ad = Device().autodiff();
    auto y = drop.forward(Tensor<1>::ones({10000}, ad)).to_vec<float>();
    int zeros = 0;
    for (float v : y) {
        if (v == 0)
            ++zeros;
        else
            EXPECT_NEAR(v, 1 / 0.75, 1e-6);
    }
    EXPECT_NEAR(zeros / 10000.0, 0.25, 0.02);
    EXPECT_THROW(nn::DropoutConfig{1.5}.init(), Error);
}

TEST(Loss, CrossEntropyMatchesManualLogSoftmax) {
    Device d;
    auto logits = Tensor<2>::from_floats({{1, 2, 3}, {1, 1, 1}}, d);
    auto targets = Tensor<1, Int>::from_ints({2, 0}, d);
    float got = nn::loss::CrossEntropyLossConfig{}.init().forward(logits, targets).into_scalar();
    double l0 = -(3 - std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)));
    double l1 = std::log(3.0);
    EXPECT_NEAR(got, (l0 + l1) / 2, 1e-6);
    // Padding token 0 ignored: only the first sample counts.
    float padded = nn::loss::CrossEntropyLossConfig{}
                       .with_pad_tokens(std::vector<int64_t>{0})
                       .init()
                       .forward(logits, targets)
                       .into_scalar();
    EXPECT_NEAR(padded, l0, 1e-6);
    float mse = nn::loss::MseLoss().forward(logits, logits * 0.0, nn::loss::Reduction::Sum).into_scalar();
    EXPECT_EQ(mse, 1 + 4 + 9 + 3.0f);
}
