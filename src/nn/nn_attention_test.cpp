// MultiHeadAttention against torch.nn.MultiheadAttention (same weights, padding + attention masks),
// gradients against torch autograd, quiet softmax, mask helpers, errors and the autoregressive cache.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

nn::MultiHeadAttention make_mha(const nn_test::Fixture& f, const Device& dev) {
    auto mha =
        nn::MultiHeadAttentionConfig{f.cfg_size("d_model"), f.cfg_size("n_heads")}.with_dropout(0.0).init(
            dev);
    EXPECT_EQ(nn_test::load_params(mha, f, dev), 8u);
    return mha;
}

TEST(NnMultiHeadAttention, MasksForwardAndGradientsMatchPyTorch) {
    auto f = nn_test::load_fixture("mha");
    auto dev = Device().autodiff();
    auto mha = make_mha(f, dev);
    auto q = f.floats<3>("query", dev).require_grad();
    auto k = f.floats<3>("key", dev).require_grad();
    auto v = f.floats<3>("value", dev).require_grad();
    auto input =
        nn::MhaInput{q, k, v}.mask_pad(f.bools<2>("mask_pad", dev)).mask_attn(f.bools<3>("mask_attn", dev));
    auto out = mha.forward(input);
    EXPECT_TRUE(close(out.context, f.at("context")));
    EXPECT_TRUE(close(out.weights, f.at("weights")));
    auto grads = (out.context * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*q.grad(grads), f.at("grad.query"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*k.grad(grads), f.at("grad.key"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*v.grad(grads), f.at("grad.value"), 1e-5, 1e-4));
    nn_test::expect_param_grads(mha, f, grads);
}

TEST(NnMultiHeadAttention, WithoutWeightsIsTheFusedAttentionAndMatchesPyTorch) {
    // need_weights = false: the heads go through scaled_dot_product_attention (one attention node on
    // the autodiff device); context and gradients as PyTorch's, no weights.
    auto f = nn_test::load_fixture("mha");
    auto dev = Device().autodiff();
    auto mha = make_mha(f, dev);
    auto q = f.floats<3>("query", dev).require_grad();
    auto k = f.floats<3>("key", dev).require_grad();
    auto v = f.floats<3>("value", dev).require_grad();
    auto input = nn::MhaInput{q, k, v}
                     .mask_pad(f.bools<2>("mask_pad", dev))
                     .mask_attn(f.bools<3>("mask_attn", dev))
                     .without_weights();
    auto out = mha.forward(input);
    EXPECT_TRUE(close(out.context, f.at("context")));
    EXPECT_FALSE(out.weights.handle().defined());
    auto grads = (out.context * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*q.grad(grads), f.at("grad.query"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*k.grad(grads), f.at("grad.key"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*v.grad(grads), f.at("grad.value"), 1e-5, 1e-4));
    nn_test::expect_param_grads(mha, f, grads);
}

TEST(NnMultiHeadAttention, MasksOnThePlainDeviceWithAutodiffInputs) {
    // Masks made on the inner device are accepted with autodiff inputs.
    auto f = nn_test::load_fixture("mha");
    auto dev = Device().autodiff();
    auto mha = make_mha(f, dev);
    auto input = nn::MhaInput{f.floats<3>("query", dev), f.floats<3>("key", dev), f.floats<3>("value", dev)}
                     .mask_pad(f.bools<2>("mask_pad"))
                     .mask_attn(f.bools<3>("mask_attn"));
    EXPECT_TRUE(close(mha.forward(input).context, f.at("context")));
}

TEST(NnMultiHeadAttention, CausalAndQuietSoftmax) {
    auto f = nn_test::load_fixture("mha_causal");
    auto mha = make_mha(f, Device());
    auto x = f.floats<3>("x");
    auto mask = nn::generate_autoregressive_mask(2, 6);
    auto out = mha.forward(nn::MhaInput::self_attn(x).mask_attn(mask));
    EXPECT_TRUE(close(out.context, f.at("context")));
    EXPECT_TRUE(close(out.weights, f.at("weights")));
    mha.quiet_softmax = true;
    auto quiet = mha.forward(nn::MhaInput::self_attn(x).mask_attn(mask));
    EXPECT_TRUE(close(quiet.context, f.at("context_quiet")));
    EXPECT_TRUE(close(quiet.weights, f.at("weights_quiet")));
    // A batch-1 mask broadcasts over the batch.
    auto one = mha.forward(nn::MhaInput::self_attn(x).mask_attn(nn::generate_autoregressive_mask(1, 6)));
    EXPECT_TRUE(close(one.context, f.at("context_quiet")));
}

TEST(NnMultiHeadAttention, CausalFlagEqualsTheAutoregressiveMask) {
    // MhaInput::causal against generate_autoregressive_mask as attn_mask, with a padding mask too: the
    // composed path (weights wanted) and the fused one, values and input gradients.
    auto dev = Device().autodiff();
    dev.seed(11);
    auto mha = nn::MultiHeadAttentionConfig{8, 2}.with_dropout(0.0).init(dev);
    auto pad = Tensor<2, Bool>::from_bool(
        {{false, false, false, false, false, true}, {false, false, false, false, false, false}}, dev);
    for (bool weights : {true, false}) {
        auto x1 = Tensor<3>::random({2, 6, 8}, Distribution::Normal(0, 1), dev).require_grad();
        auto x2 = Tensor<3>::from_data(x1.into_data(), dev).require_grad();
        auto base = nn::MhaInput::self_attn(x1).mask_pad(pad);
        auto with_mask = base.mask_attn(nn::generate_autoregressive_mask(2, 6, dev));
        auto flagged = nn::MhaInput::self_attn(x2).mask_pad(pad).mask_causal();
        if (!weights) {
            with_mask = with_mask.without_weights();
            flagged = flagged.without_weights();
        }
        auto a = mha.forward(with_mask), b = mha.forward(flagged);
        EXPECT_TRUE(close(b.context, a.context.into_data())) << weights;
        if (weights) {
            EXPECT_TRUE(close(b.weights, a.weights.into_data()));
        }
        auto r = Tensor<3>::random({2, 6, 8}, Distribution::Normal(0, 1), dev);
        auto ga = (a.context * r).sum().backward(), gb = (b.context * r).sum().backward();
        EXPECT_TRUE(close(*x2.grad(gb), x1.grad(ga)->into_data(), 1e-5, 1e-4)) << weights;
    }
    // More queries than keys cannot be causal (the queries are the last positions)
    auto q = Tensor<3>::zeros({1, 4, 8}), kv = Tensor<3>::zeros({1, 3, 8});
    EXPECT_THROW(mha.to_device(Device()).forward(nn::MhaInput{q, kv, kv}.mask_causal()), ShapeError);
}

TEST(NnMultiHeadAttention, MaskHelpers) {
    auto m = nn::generate_autoregressive_mask(2, 3).to_vec<bool>();
    std::vector<bool> row{false, true, true, false, false, true, false, false, false};
    EXPECT_EQ(std::vector<bool>(m.begin(), m.begin() + 9), row);
    EXPECT_EQ(std::vector<bool>(m.begin() + 9, m.end()), row);
    // Two new queries over five keys: the last two positions.
    auto off = nn::generate_autoregressive_mask(1, 2, 5, Device()).to_vec<bool>();
    EXPECT_EQ(off, (std::vector<bool>{false, false, false, false, true, false, false, false, false, false}));
    auto pad = nn::generate_padding_mask(0, {{3, 3, 3}, {3, 3, 3, 4}, {3, 3, 3, 4, 10, 15}}, std::nullopt);
    EXPECT_EQ(pad.tensor.dims(), (Shape<2>{3, 6}));
    EXPECT_EQ(pad.mask.to_vec<bool>(), (std::vector<bool>{false, false, false, true, true, true,   //
                                                          false, false, false, false, true, true,  //
                                                          false, false, false, false, false, false}));
    auto cut = nn::generate_padding_mask(0, {{1, 2, 3, 4}}, 2);
    EXPECT_EQ(cut.tensor.to_vec<int32_t>(), (std::vector<int32_t>{1, 2}));
}

TEST(NnMultiHeadAttention, ShapeAndConfigErrors) {
    auto mha = nn::MultiHeadAttentionConfig{8, 2}.init();
    auto x = Tensor<3>::zeros({2, 4, 8});
    auto expect_error = [](auto&& fn, const std::string& needle) {
        try {
            fn();
            ADD_FAILURE() << "expected an error containing " << needle;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    expect_error([&] { mha.forward(nn::MhaInput::self_attn(Tensor<3>::zeros({2, 4, 6}))); }, "d_model = 8");
    expect_error(
        [&] {
            mha.forward(nn::MhaInput::self_attn(x).mask_pad(Tensor<2, Bool>::zeros({2, 5})));
        },
        "mask_pad [2, 5]");
    expect_error(
        [&] {
            mha.forward(nn::MhaInput::self_attn(x).mask_attn(Tensor<3, Bool>::zeros({2, 4, 3})));
        },
        "mask_attn [2, 4, 3]");
    expect_error(
        [&] {
            mha.forward(nn::MhaInput{x, Tensor<3>::zeros({3, 4, 8}), Tensor<3>::zeros({3, 4, 8})});
        },
        "[MultiHeadAttention]");
    expect_error([] { nn::MultiHeadAttentionConfig{8, 3}.init(); }, "divisible");
    expect_error([] { nn::MultiHeadAttentionConfig{8, 2}.with_dropout(1.0).init(); }, "dropout");
}

TEST(NnMultiHeadAttention, CachedGenerationEqualsFullRecompute) {
    auto mha = nn::MultiHeadAttentionConfig{8, 2}.with_dropout(0.0).init();
    auto x = Tensor<3>::random({2, 7, 8}, Distribution::Normal(0, 1));
    auto full = mha.forward(nn::MhaInput::self_attn(x).mask_attn(nn::generate_autoregressive_mask(2, 7)));
    // One position at a time (burn's contract: the whole sequence so far each call).
    auto cache = nn::MhaCache::autoregressive();
    nn::MhaOutput step;
    for (int64_t t = 1; t <= 7; ++t) {
        auto xt = x.narrow(1, 0, t);
        step = mha.forward_cache(
            nn::MhaInput::self_attn(xt).mask_attn(nn::generate_autoregressive_mask(2, t)), cache);
        EXPECT_EQ(step.context.dims(), (Shape<3>{2, static_cast<std::size_t>(t), 8}));
        EXPECT_EQ(step.weights.dims(), (Shape<4>{2, 2, 1, static_cast<std::size_t>(t)}));
    }
    EXPECT_TRUE(close(step.context, full.context.into_data()));
    EXPECT_EQ(cache.len(), 7);
    ASSERT_TRUE(cache.key.has_value());
    EXPECT_EQ(cache.key->dims(), (Shape<4>{2, 2, 7, 4}));
    // The cache is really used: earlier positions are neither re-projected nor recomputed, so zeroing
    // them in the input changes nothing but the new row's query input.
    auto x8 = Tensor<3>::cat({x.zeros_like(), x.narrow(1, 6, 1)}, 1);  // 8 positions, the first 7 zero
    auto next = mha.forward_cache(
        nn::MhaInput::self_attn(x8).mask_attn(nn::generate_autoregressive_mask(2, 8)), cache);
    EXPECT_TRUE(close(next.context.narrow(1, 0, 7), full.context.into_data()));
    auto again = mha.forward(nn::MhaInput::self_attn(Tensor<3>::cat({x, x.narrow(1, 6, 1)}, 1))
                                 .mask_attn(nn::generate_autoregressive_mask(2, 8)));
    EXPECT_TRUE(close(next.context.narrow(1, 7, 1), again.context.narrow(1, 7, 1).into_data()));
    // A prompt of 3, then 2 and 2: the full-sequence mask rows are narrowed to the new rows.
    auto chunks = nn::MhaCache::autoregressive();
    for (int64_t t : {3, 5, 7}) {
        auto xt = x.narrow(1, 0, t);
        step = mha.forward_cache(
            nn::MhaInput::self_attn(xt).mask_attn(nn::generate_autoregressive_mask(2, t)), chunks);
    }
    EXPECT_TRUE(close(step.context, full.context.into_data()));
    // The causal flag, no mask: one position at a time, and 3 at once then 4
    for (int64_t first : {1, 3}) {
        auto flagged = nn::MhaCache::autoregressive();
        for (int64_t t = first; t <= 7; t += (first == 1 ? 1 : 4))
            step = mha.forward_cache(nn::MhaInput::self_attn(x.narrow(1, 0, t)).mask_causal(), flagged);
        EXPECT_TRUE(close(step.context, full.context.into_data())) << first;
    }
    // A shorter input than the cache has seen is an error.
    EXPECT_THROW(mha.forward_cache(nn::MhaInput::self_attn(x.narrow(1, 0, 2)), chunks), ShapeError);
}

TEST(NnMultiHeadAttention, CrossAttentionCacheProjectsMemoryOnce) {
    auto mha = nn::MultiHeadAttentionConfig{8, 4}.with_dropout(0.0).init();
    auto q = Tensor<3>::random({2, 5, 8}, Distribution::Normal(0, 1));
    auto mem = Tensor<3>::random({2, 6, 8}, Distribution::Normal(0, 1));
    auto pad = Tensor<2, Bool>::from_bool(
        {{false, false, false, false, false, true}, {false, false, false, false, false, false}});
    auto full = mha.forward(nn::MhaInput{q, mem, mem}.mask_pad(pad));
    auto cache = nn::MhaCache::autoregressive_cross_attention();
    nn::MhaOutput out;
    for (int64_t t = 1; t <= 5; ++t)
        out = mha.forward_cache(nn::MhaInput{q.narrow(1, 0, t), mem, mem}.mask_pad(pad), cache);
    EXPECT_TRUE(close(out.context, full.context.into_data()));
    ASSERT_TRUE(cache.key.has_value());
    EXPECT_EQ(cache.key->dims(), (Shape<4>{2, 4, 6, 2}));
}

TEST(NnMultiHeadAttention, DropoutOnlyWhileTraining) {
    auto mha = nn::MultiHeadAttentionConfig{8, 2}.with_dropout(0.5).init();
    auto x = Tensor<3>::random({1, 4, 8}, Distribution::Normal(0, 1));
    auto a = mha.forward(nn::MhaInput::self_attn(x)).context.to_vec<float>();
    auto b = mha.forward(nn::MhaInput::self_attn(x)).context.to_vec<float>();
    EXPECT_EQ(a, b);  // inference device: dropout is the identity
    auto ad = mha.to_device(Device().autodiff());
    auto xa = x.to_device(Device().autodiff());
    auto c = ad.forward(nn::MhaInput::self_attn(xa)).context.to_vec<float>();
    EXPECT_NE(a, c);
}

}  // namespace
