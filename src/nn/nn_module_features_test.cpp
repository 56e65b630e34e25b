// Generic module features on the new layers: printing the tree with parameter counts, freezing by a
// path predicate, paths of nested vectors.
#include "nn/layer_test_util.hpp"

using namespace burn;

namespace {

struct Block {
    nn::LayerNorm norm;
    nn::MultiHeadAttention attn;
    nn::PositionWiseFeedForward ff;
    BURN_MODULE(Block, norm, attn, ff)
};

struct Gpt {
    nn::Embedding tokens;
    std::vector<Block> blocks;
    nn::Linear head;
    BURN_MODULE(Gpt, tokens, blocks, head)
};

Gpt make_gpt(const Device& dev) {
    Gpt g{nn::EmbeddingConfig{10, 8}.init(dev), {}, nn::LinearConfig{8, 10}.with_bias(false).init(dev)};
    for (int i = 0; i < 2; ++i)
        g.blocks.push_back(Block{nn::LayerNormConfig{8}.init(dev),
                                 nn::MultiHeadAttentionConfig{8, 2}.init(dev),
                                 nn::PositionWiseFeedForwardConfig{8, 16}.init(dev)});
    return g;
}

TEST(NnModuleFeatures, PrintsTreeWithParamCounts) {
    auto ff = nn::PositionWiseFeedForwardConfig{2, 4}.init();
    EXPECT_EQ(ff.to_string(),
              "PositionWiseFeedForward {  // params: 22\n"
              "  linear_inner: Linear {  // params: 12\n"
              "    weight: Param [4, 2]\n"
              "    bias: Param [4]\n"
              "  }\n"
              "  linear_outer: Linear {  // params: 10\n"
              "    weight: Param [2, 4]\n"
              "    bias: Param [2]\n"
              "  }\n"
              "}\n");
    auto gpt = make_gpt(Device());
    const std::string s = gpt.to_string();
    // Block: norm 16 + attention 4 * 72 + feed-forward 8*16+16+16*8+8 = 584.
    EXPECT_NE(s.find("Gpt {  // params: " + std::to_string(80 + 2 * 584 + 80)), std::string::npos) << s;
    EXPECT_NE(s.find("  0: Block {  // params: 584\n"), std::string::npos) << s;
    EXPECT_NE(s.find("    attn: MultiHeadAttention {  // params: 288\n"), std::string::npos) << s;
    EXPECT_NE(s.find("      query: Linear {  // params: 72\n"), std::string::npos) << s;
    EXPECT_EQ(gpt.num_params(), 80u + 2 * 584 + 80);
}

TEST(NnModuleFeatures, FreezeByPathPredicate) {
    auto dev = Device().autodiff();
    auto gpt = make_gpt(dev);
    auto frozen = gpt.freeze([](const std::string& path) { return path.rfind("blocks.0.", 0) == 0; });
    std::size_t n_frozen = 0, n_trainable = 0;
    frozen.visit_params([&](const std::string& path, const auto& p) {
        const bool expect_frozen = path.rfind("blocks.0.", 0) == 0;
        EXPECT_EQ(p.is_require_grad(), !expect_frozen) << path;
        (expect_frozen ? n_frozen : n_trainable)++;
    });
    EXPECT_EQ(n_frozen, 14u);  // norm 2 + attention 8 + feed-forward 4
    EXPECT_GT(n_trainable, 0u);
    // Gradients reach only the trainable parameters; the original module is untouched.
    auto x = Tensor<3>::random({1, 3, 8}, Distribution::Normal(0, 1), dev);
    Tensor<3> h = x;
    for (const auto& b : frozen.blocks)
        h = h + b.ff.forward(b.attn.forward(nn::MhaInput::self_attn(b.norm.forward(h))).context);
    auto grads = frozen.head.forward(h).sum().backward();
    frozen.visit_params([&](const std::string& path, const auto& p) {
        if (path.rfind("tokens", 0) == 0) return;  // not used in this forward
        EXPECT_EQ(p.val().grad(grads).has_value(), p.is_require_grad()) << path;
    });
    gpt.visit_params(
        [&](const std::string& path, const auto& p) { EXPECT_TRUE(p.is_require_grad()) << path; });
}

TEST(NnModuleFeatures, LayerPathsMatchPyTorchMapping) {
    std::vector<std::string> paths;
    auto dec = nn::TransformerDecoderConfig{8, 16, 2, 1}.init();
    dec.visit_params([&](const std::string& path, const auto&) { paths.push_back(path); });
    ASSERT_EQ(paths.size(), 26u);
    EXPECT_EQ(paths.front(), "layers.0.cross_attn.query.weight");
    EXPECT_EQ(paths.back(), "layers.0.norm_3.beta");
    std::vector<std::string> lstm;
    nn::BiLstmConfig{3, 2}.init().visit_params(
        [&](const std::string& path, const auto&) { lstm.push_back(path); });
    EXPECT_EQ(lstm, (std::vector<std::string>{"forward_lstm.weight_ih", "forward_lstm.weight_hh",
                                              "forward_lstm.bias_ih", "forward_lstm.bias_hh",
                                              "reverse_lstm.weight_ih", "reverse_lstm.weight_hh",
                                              "reverse_lstm.bias_ih", "reverse_lstm.bias_hh"}));
}

TEST(NnModuleFeatures, ValidMovesLayersOffAutodiff) {
    auto dev = Device().autodiff();
    auto enc = nn::TransformerEncoderConfig{8, 16, 2, 1}.init(dev);
    auto v = enc.valid();
    for (const auto& d : v.devices()) EXPECT_FALSE(d.is_autodiff());
    auto y = v.forward(nn::TransformerEncoderInput{Tensor<3>::zeros({1, 2, 8})});
    EXPECT_EQ(y.dims(), (Shape<3>{1, 2, 8}));
}

}  // namespace
