// TransformerEncoder/Decoder (post- and pre-norm) against torch.nn.Transformer{Encoder,Decoder}, the
// autoregressive caches against full recomputation, PositionWiseFeedForward and SwiGlu.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

template <class Config>
Config transformer_config(const nn_test::Fixture& f) {
    Config c;
    c.d_model = f.cfg_size("d_model");
    c.d_ff = f.cfg_size("d_ff");
    c.n_heads = f.cfg_size("n_heads");
    c.n_layers = f.cfg_size("n_layers");
    c.dropout = 0.0;
    c.norm_first = f.config.at("norm_first").as_bool();
    return c;
}

class NnTransformer : public ::testing::TestWithParam<const char*> {};

TEST_P(NnTransformer, EncoderMatchesPyTorch) {
    auto f = nn_test::load_fixture(std::string("transformer_encoder_") + GetParam());
    auto enc = transformer_config<nn::TransformerEncoderConfig>(f).init();
    EXPECT_EQ(nn_test::load_params(enc, f), 2u * 16);
    auto x = f.floats<3>("x");
    auto input = nn::TransformerEncoderInput{x}
                     .mask_pad(f.bools<2>("mask_pad"))
                     .mask_attn(nn::generate_autoregressive_mask(2, 5));
    EXPECT_TRUE(close(enc.forward(input), f.at("y"), 2e-5, 1e-4));
    // The causal flag in place of the mask: the same function of the input
    auto causal = nn::TransformerEncoderInput{x}.mask_pad(f.bools<2>("mask_pad")).mask_causal();
    EXPECT_TRUE(close(enc.forward(causal), f.at("y"), 2e-5, 1e-4));
}

TEST_P(NnTransformer, DecoderMatchesPyTorch) {
    auto f = nn_test::load_fixture(std::string("transformer_decoder_") + GetParam());
    auto dec = transformer_config<nn::TransformerDecoderConfig>(f).init();
    EXPECT_EQ(nn_test::load_params(dec, f), 2u * 26);
    auto input = nn::TransformerDecoderInput{f.floats<3>("target"), f.floats<3>("memory")}
                     .target_mask_attn(nn::generate_autoregressive_mask(2, 5))
                     .memory_mask_pad(f.bools<2>("memory_mask_pad"));
    EXPECT_TRUE(close(dec.forward(input), f.at("y"), 2e-5, 1e-4));
    auto causal = nn::TransformerDecoderInput{f.floats<3>("target"), f.floats<3>("memory")}
                      .target_mask_causal()
                      .memory_mask_pad(f.bools<2>("memory_mask_pad"));
    EXPECT_TRUE(close(dec.forward(causal), f.at("y"), 2e-5, 1e-4));
}

TEST_P(NnTransformer, EncoderCacheEqualsFullRecompute) {
    auto f = nn_test::load_fixture(std::string("transformer_encoder_") + GetParam());
    auto enc = transformer_config<nn::TransformerEncoderConfig>(f).init();
    nn_test::load_params(enc, f);
    auto x = f.floats<3>("x");
    auto full = enc.forward(nn::TransformerEncoderInput{x}.mask_attn(nn::generate_autoregressive_mask(2, 5)));
    auto cache = enc.new_autoregressive_cache();
    Tensor<3> out;
    for (int64_t t = 1; t <= 5; ++t) {
        auto in =
            nn::TransformerEncoderInput{x.narrow(1, 0, t)}.mask_attn(nn::generate_autoregressive_mask(2, t));
        out = enc.forward_autoregressive_inference(in, cache);
    }
    EXPECT_TRUE(close(out, full.into_data(), 1e-5, 1e-4));
    // The causal flag instead of masks: one call with 3 new positions, then 2
    auto flagged = enc.new_autoregressive_cache();
    for (int64_t t : {3, 5})
        out = enc.forward_autoregressive_inference(
            nn::TransformerEncoderInput{x.narrow(1, 0, t)}.mask_causal(), flagged);
    EXPECT_TRUE(close(out, full.into_data(), 1e-5, 1e-4));
    // Prompt of 2 then 3 at once, masks given for the new rows only.
    auto chunks = enc.new_autoregressive_cache();
    enc.forward_autoregressive_inference(
        nn::TransformerEncoderInput{x.narrow(1, 0, 2)}.mask_attn(nn::generate_autoregressive_mask(2, 2)),
        chunks);
    out = enc.forward_autoregressive_inference(
        nn::TransformerEncoderInput{x}.mask_attn(nn::generate_autoregressive_mask(2, 3, 5, Device())),
        chunks);
    EXPECT_TRUE(close(out, full.into_data(), 1e-5, 1e-4));
    EXPECT_EQ(chunks.len(), 5);
    ASSERT_EQ(chunks.layers.size(), 2u);
    EXPECT_EQ(chunks.layers[1].key->dims(), (Shape<4>{2, 2, 5, 4}));
    // Cached positions are not recomputed: a changed prefix leaves the cached outputs as they were.
    auto x6 = Tensor<3>::cat({x.zeros_like(), x.narrow(1, 4, 1)}, 1);
    out = enc.forward_autoregressive_inference(
        nn::TransformerEncoderInput{x6}.mask_attn(nn::generate_autoregressive_mask(2, 6)), chunks);
    EXPECT_TRUE(close(out.narrow(1, 0, 5), full.into_data(), 1e-5, 1e-4));
}

TEST_P(NnTransformer, DecoderCacheEqualsFullRecompute) {
    auto f = nn_test::load_fixture(std::string("transformer_decoder_") + GetParam());
    auto dec = transformer_config<nn::TransformerDecoderConfig>(f).init();
    nn_test::load_params(dec, f);
    auto tgt = f.floats<3>("target"), mem = f.floats<3>("memory");
    auto mem_pad = f.bools<2>("memory_mask_pad");
    auto full = dec.forward(nn::TransformerDecoderInput{tgt, mem}
                                .target_mask_attn(nn::generate_autoregressive_mask(2, 5))
                                .memory_mask_pad(mem_pad));
    auto cache = dec.new_autoregressive_cache();
    Tensor<3> out;
    for (int64_t t = 1; t <= 5; ++t) {
        auto in = nn::TransformerDecoderInput{tgt.narrow(1, 0, t), mem}
                      .target_mask_attn(nn::generate_autoregressive_mask(2, t))
                      .memory_mask_pad(mem_pad);
        out = dec.forward_autoregressive_inference(in, cache);
    }
    EXPECT_TRUE(close(out, full.into_data(), 1e-5, 1e-4));
}

INSTANTIATE_TEST_SUITE_P(Norms, NnTransformer, ::testing::Values("post", "pre"));

TEST(NnTransformerConfig, ErrorsAndJson) {
    nn::TransformerEncoderConfig c{16, 32, 4, 2};
    EXPECT_THROW(c.with_n_heads(3).init(), Error);
    EXPECT_THROW(c.with_dropout(-0.1).init(), Error);
    EXPECT_THROW(c.with_n_layers(0).init(), Error);
    auto back = nn::TransformerEncoderConfig::from_json_string(c.with_norm_first(true).to_json_string());
    EXPECT_EQ(back, c.with_norm_first(true));
    auto enc = c.init();
    EXPECT_THROW(enc.forward(nn::TransformerEncoderInput{Tensor<3>::zeros({1, 3, 8})}), ShapeError);
    auto cache = enc.new_autoregressive_cache();
    enc.forward_autoregressive_inference(nn::TransformerEncoderInput{Tensor<3>::zeros({1, 3, 16})}, cache);
    EXPECT_THROW(enc.forward_autoregressive_inference(
                     nn::TransformerEncoderInput{Tensor<3>::zeros({1, 2, 16})}, cache),
                 ShapeError);
    // PyTorch's parameter count for TransformerEncoderLayer(16, 4, 32): 4 * (16 * 16 + 16) + 2 linears
    // (16 * 32 + 32 + 32 * 16 + 16) + 2 norms (2 * 16).
    EXPECT_EQ(enc.num_params(), 2u * (4 * (16 * 16 + 16) + (16 * 32 + 32 + 32 * 16 + 16) + 2 * 2 * 16));
}

TEST(NnFeedForward, PositionWiseMatchesPyTorch) {
    auto f = nn_test::load_fixture("pwff");
    auto ff = nn::PositionWiseFeedForwardConfig{f.cfg_size("d_model"), f.cfg_size("d_ff")}.init();
    EXPECT_EQ(nn_test::load_params(ff, f), 4u);
    EXPECT_TRUE(close(ff.forward(f.floats<3>("x")), f.at("y")));
    // Any rank.
    EXPECT_TRUE(close(ff.forward(f.floats<3>("x").reshape<2>({6, 6})).reshape<3>({2, 3, 6}), f.at("y")));
    EXPECT_THROW(ff.forward(Tensor<2>::zeros({2, 5})), ShapeError);
}

TEST(NnFeedForward, SwiGluMatchesFormula) {
    auto f = nn_test::load_fixture("swiglu");
    auto sg = nn::SwiGluConfig{f.cfg_size("d_input"), f.cfg_size("d_output")}.with_bias(true).init();
    EXPECT_EQ(nn_test::load_params(sg, f), 4u);
    EXPECT_TRUE(close(sg.forward(f.floats<3>("x")), f.at("y")));
    EXPECT_EQ((nn::SwiGluConfig{6, 10}.init().num_params()), 2u * 60);  // no bias by default (burn)
}

}  // namespace
