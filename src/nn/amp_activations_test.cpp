// Autocast's low activations inside modules (autocast::activation_dtype, nn::Linear::forward_in):
// MultiHeadAttention's heads and attention output, and a feed-forward block's hidden layer, stay in
// bf16 between the GEMMs, as torch.autocast keeps them. Checked against the same products written out
// op by op, against float32, for their gradients, and with the switch off (the float32 path).
#include <gtest/gtest.h>

#include <burn/amp/autocast.hpp>
#include <burn/burn.hpp>
#include <cmath>
#include <vector>

namespace burn {
namespace amp_activations_test {

std::vector<float> values(const TensorAny& t) {
    return ops::into_data(ops::cast(ops::inner_of(t), DType::f32)).to_vec<float>();
}

/// max |a - b| / max |b|
double rel(const std::vector<float>& a, const std::vector<float>& b) {
    double d = 0, m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, std::fabs(double(a[i]) - b[i]));
        m = std::max(m, std::fabs(double(b[i])));
    }
    return d / m;
}

Tensor<3> input(const Device& d, uint64_t seed) {
    d.seed(seed);
    return Tensor<3>::random({2, 6, 16}, Distribution::Normal(0, 1), d);
}

/// The layer as forward_in should run it, op by op: the bf16 product written in `out`.
TensorAny linear_low(const nn::Linear& l, const TensorAny& x, DType out) {
    const int64_t n = l.weight.val().handle().shape()[0];
    const Dims s = x.shape();
    TensorAny x2 = ops::cast(ops::reshape(x, Dims{-1, s[s.rank() - 1]}), DType::bf16);
    TensorAny y = ops::linear(x2, ops::cast(l.weight.val().handle(), DType::bf16),
                              ops::cast(l.bias->val().handle(), out), out);
    return ops::reshape(y, Dims{s[0], s[1], n});
}

/// Sets the switch for a scope (off by default until measured on a GPU) and restores it.
struct LowActivations {
    explicit LowActivations(bool on) : before(autocast::low_activations()) {
        autocast::set_low_activations(on);
    }
    ~LowActivations() { autocast::set_low_activations(before); }
    bool before;
};

TEST(AmpActivations, DtypeOnlyUnderAutocastAndForFloat32OrLowInputs) {
    const LowActivations on(true);
    const Device d;
    EXPECT_FALSE(autocast::activation_dtype(d, DType::f32).has_value());
    {
        autocast::Guard amp(DType::bf16);
        EXPECT_EQ(autocast::activation_dtype(d, DType::f32), DType::bf16);
        EXPECT_EQ(autocast::activation_dtype(d, DType::bf16), DType::bf16);
        EXPECT_FALSE(autocast::activation_dtype(d, DType::f64).has_value());  // autocast leaves f64 alone
        LowActivations off(false);
        EXPECT_FALSE(autocast::activation_dtype(d, DType::f32).has_value());
    }
    EXPECT_EQ(autocast::activation_dtype(d.autocast(DType::f16), DType::f32), DType::f16);
}

TEST(AmpActivations, AttentionKeepsHeadsAndContextInBf16) {
    const LowActivations on(true);
    const Device d;
    d.seed(3);
    const auto mha = nn::MultiHeadAttentionConfig{16, 4}.with_dropout(0.0).init(d);
    const Tensor<3> x = input(d, 4);
    const auto in = nn::MhaInput::self_attn(x).without_weights();
    const std::vector<float> f32 = values(mha.forward(in).context.handle());
    std::vector<float> low, old;
    {
        autocast::Guard amp(DType::bf16);
        const Tensor<3> y = mha.forward(in).context;
        EXPECT_EQ(y.dtype(), DType::f32);
        low = values(y.handle());
        LowActivations off(false);
        old = values(mha.forward(in).context.handle());
    }
    // op by op: projections written in bf16, the fused attention on them, the output projection
    // reading its bf16 context and writing float32
    auto heads = [&](const nn::Linear& l) {
        return ops::swap_dims(ops::reshape(linear_low(l, x.handle(), DType::bf16), Dims{2, 6, 4, 4}), 1, 2);
    };
    const Tensor<4> ctx =
        nn::scaled_dot_product_attention(Tensor<4>(heads(mha.query)), Tensor<4>(heads(mha.key)),
                                         Tensor<4>(heads(mha.value)), nn::SdpaOptions{});
    EXPECT_EQ(ctx.dtype(), DType::bf16);
    const TensorAny c = ops::reshape(ops::swap_dims(ctx.handle(), 1, 2), Dims{2, 6, 16});
    EXPECT_EQ(low, values(linear_low(mha.output, c, DType::f32)));
    EXPECT_NE(low, old);  // the biases rounded to bf16 with the projections
    EXPECT_LT(rel(low, f32), 0.03);
    EXPECT_LT(rel(old, f32), 0.03);
}

TEST(AmpActivations, FeedForwardKeepsTheHiddenLayerInBf16) {
    const LowActivations on(true);
    const Device d;
    d.seed(5);
    nn::PositionWiseFeedForwardConfig cfg{16, 64};
    cfg.dropout = 0.0;
    const auto ff = cfg.init(d);
    const Tensor<3> x = input(d, 6);
    const std::vector<float> f32 = values(ff.forward(x).handle());
    std::vector<float> low;
    {
        autocast::Guard amp(DType::bf16);
        const Tensor<3> y = ff.forward(x);
        EXPECT_EQ(y.dtype(), DType::f32);
        low = values(y.handle());
    }
    const TensorAny h = ops::gelu(linear_low(ff.linear_inner, x.handle(), DType::bf16));
    EXPECT_EQ(h.dtype(), DType::bf16);
    EXPECT_EQ(low, values(linear_low(ff.linear_outer, h, DType::f32)));
    EXPECT_LT(rel(low, f32), 0.03);
}

TEST(AmpActivations, GradientsStayFloat32AndTrackFloat32) {
    const LowActivations on(true);
    const Device d = Device().autodiff();
    d.seed(7);
    const auto mha = nn::MultiHeadAttentionConfig{16, 4}.with_dropout(0.0).init(d);
    nn::PositionWiseFeedForwardConfig cfg{16, 64};
    cfg.dropout = 0.0;
    const auto ff = cfg.init(d);
    const Tensor<3> x = input(d, 8).require_grad();
    auto run = [&] {
        const Tensor<3> h = mha.forward(nn::MhaInput::self_attn(x).without_weights()).context;
        return ff.forward(h).mul(input(Device(), 9).to_device(d).detach()).sum().backward();
    };
    const Gradients want = run();
    Gradients got;
    {
        autocast::Guard amp(DType::bf16);
        got = run();
    }
    auto check = [&](const Tensor<2>& p, const char* what) {
        const auto g = p.grad(got).value(), w = p.grad(want).value();
        EXPECT_EQ(g.dtype(), DType::f32) << what;
        EXPECT_LT(rel(values(g.handle()), values(w.handle())), 0.05) << what;
    };
    auto check1 = [&](const Tensor<1>& p, const char* what) {
        const auto g = p.grad(got).value(), w = p.grad(want).value();
        EXPECT_EQ(g.dtype(), DType::f32) << what;
        EXPECT_LT(rel(values(g.handle()), values(w.handle())), 0.05) << what;
    };
    check(mha.query.weight.val(), "query weight");
    check(mha.value.weight.val(), "value weight");
    check(mha.output.weight.val(), "output weight");
    check(ff.linear_inner.weight.val(), "inner weight");
    check(ff.linear_outer.weight.val(), "outer weight");
    check1(mha.value.bias->val(), "value bias");  // (the key bias has no gradient: softmax ignores it)
    check1(ff.linear_inner.bias->val(), "inner bias");
    const auto gx = x.grad(got).value();
    EXPECT_EQ(gx.dtype(), DType::f32);
    EXPECT_LT(rel(values(gx.handle()), values(x.grad(want).value().handle())), 0.05);
}

// A bias cast to bf16 by forward_in gets its gradient as the float32 column sums of the (bf16) output
// gradient, summed in float32 (the widened path), not summed in bf16 and cast back.
TEST(AmpActivations, BiasGradientIsTheFloat32ColumnSum) {
    const Device d = Device().autodiff();
    d.seed(11);
    const auto l = nn::LinearConfig{8, 5}.init(d);
    const Tensor<2> x = Tensor<2>::random({300, 8}, Distribution::Normal(0, 1), d);
    const Tensor<2> seed = Tensor<2>::random({300, 5}, Distribution::Normal(0, 1), d);
    const Tensor<2> y(l.forward_in(x.handle(), DType::bf16, DType::bf16));
    EXPECT_EQ(y.dtype(), DType::bf16);
    const Gradients grads = y.cast(DType::f32).mul(seed.detach()).sum().backward();
    const auto gb = l.bias->val().grad(grads).value();
    EXPECT_EQ(gb.dtype(), DType::f32);
    const TensorAny g = ops::cast(ops::cast(ops::inner_of(seed.detach().handle()), DType::bf16), DType::f32);
    EXPECT_EQ(values(gb.handle()), values(ops::sum_dim(g, 0)));
    const TensorAny rounded = ops::cast(ops::sum_dim(ops::cast(g, DType::bf16), 0), DType::f32);
    EXPECT_NE(values(gb.handle()), values(rounded));
}

}  // namespace amp_activations_test
}  // namespace burn
