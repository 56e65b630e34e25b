// The module system: field traversal, paths, counting, device moves, freezing, printing.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

using namespace burn;

namespace {

struct Block {
    nn::Linear attn;
    nn::LayerNorm norm;
    BURN_MODULE(Block, attn, norm)
};

struct Net {
    nn::Embedding embed;
    std::vector<Block> layers;
    std::array<nn::Linear, 2> heads;
    std::optional<nn::Linear> extra;
    std::optional<nn::Linear> absent;
    nn::BatchNorm bn;
    nn::Relu act;        // a constant: no parameters
    double scale = 2.0;  // a constant
    BURN_MODULE(Net, embed, layers, heads, extra, absent, bn, act, scale)
};

Net make(const Device& d) {
    Net n{nn::EmbeddingConfig{10, 4}.init(d),
          {Block{nn::LinearConfig{4, 4}.init(d), nn::LayerNormConfig{4}.init(d)},
           Block{nn::LinearConfig{4, 4}.init(d), nn::LayerNormConfig{4}.init(d)}},
          {nn::LinearConfig{4, 2}.init(d), nn::LinearConfig{4, 3}.with_bias(false).init(d)},
          nn::LinearConfig{2, 2}.init(d),
          std::nullopt,
          nn::BatchNormConfig{4}.init(d),
          {},
          2.0};
    return n;
}

std::vector<std::string> paths(const Net& n) {
    std::vector<std::string> out;
    n.visit_params([&](const std::string& p, const auto&) { out.push_back(p); });
    return out;
}

}  // namespace

TEST(Module, PathsFollowFieldsIndicesAndOptionals) {
    Net n = make(Device());
    EXPECT_EQ(paths(n),
              (std::vector<std::string>{"embed.weight", "layers.0.attn.weight", "layers.0.attn.bias",
                                        "layers.0.norm.gamma", "layers.0.norm.beta", "layers.1.attn.weight",
                                        "layers.1.attn.bias", "layers.1.norm.gamma", "layers.1.norm.beta",
                                        "heads.0.weight", "heads.0.bias", "heads.1.weight", "extra.weight",
                                        "extra.bias", "bn.gamma", "bn.beta"}));
}

TEST(Module, NumParamsCountsParametersNotBuffers) {
    Net n = make(Device());
    std::size_t expected = 10 * 4 + 2 * (4 * 4 + 4 + 4 + 4) + (4 * 2 + 2) + 4 * 3 + (2 * 2 + 2) + (4 + 4);
    EXPECT_EQ(n.num_params(), expected);
    auto snaps = module::snapshots(n);
    int buffers = 0;
    for (const auto& s : snaps) buffers += s.is_buffer;
    EXPECT_EQ(buffers, 2);  // BatchNorm running mean and var
}

TEST(Module, CopiesShareTensorsAndMapParamsKeepsIds) {
    Net a = make(Device());
    Net b = a;
    EXPECT_TRUE(a.heads[0].weight.val().handle().same(b.heads[0].weight.val().handle()));
    Net c = a.map_params([](const std::string&, auto t) { return t * 0.0; });
    EXPECT_EQ(c.heads[0].weight.id(), a.heads[0].weight.id());
    EXPECT_EQ(c.heads[0].weight.val().sum().into_scalar(), 0.0f);
    EXPECT_NE(a.heads[0].weight.val().abs().sum().into_scalar(), 0.0f);  // the original is untouched
}

TEST(Module, AutodiffDeviceMarksParamsAndValidDropsIt) {
    auto ad = Device().autodiff();
    Net n = make(ad);
    EXPECT_TRUE(n.heads[0].weight.val().is_require_grad());
    EXPECT_EQ(n.devices(), (std::vector<Device>{ad}));
    Net v = n.valid();
    EXPECT_EQ(v.devices(), (std::vector<Device>{Device()}));
    EXPECT_EQ(v.heads[0].weight.id(), n.heads[0].weight.id());
    Net back = v.to_device(ad);
    EXPECT_TRUE(back.heads[0].weight.val().is_require_grad());
}

TEST(Module, FreezeByPathLeavesFrozenParamsWithoutGradients) {
    auto ad = Device().autodiff();
    Net n = make(ad).freeze([](const std::string& p) { return p.rfind("heads.", 0) == 0; });
    EXPECT_FALSE(n.heads[0].weight.is_require_grad());
    EXPECT_TRUE(n.extra->weight.is_require_grad());
    auto x = Tensor<2>::ones({1, 4}, ad);
    auto loss = (n.heads[0].forward(x).sum() + n.layers[0].attn.forward(x).sum());
    auto grads = optim::GradientsParams::from_grads(loss.backward(), n);
    EXPECT_FALSE(grads.get(n.heads[0].weight.id()).has_value());
    EXPECT_TRUE(grads.get(n.layers[0].attn.weight.id()).has_value());
    Net all_frozen = make(ad).no_grad();
    EXPECT_FALSE(all_frozen.layers[1].norm.gamma.is_require_grad());
}

TEST(Module, PrintsATreeWithCounts) {
    Net n = make(Device());
    std::string s = n.to_string();
    EXPECT_NE(s.find("Net {  // params: " + std::to_string(n.num_params())), std::string::npos) << s;
    EXPECT_NE(s.find("attn: Linear {  // params: 20"), std::string::npos) << s;
    EXPECT_NE(s.find("running_mean: Buffer [4]"), std::string::npos) << s;
}

namespace module_test {
struct Heads {
    std::map<std::string, nn::Linear> by_task;  // named heads: the key is the path segment
    std::map<int, nn::LayerNorm> by_level;
    std::shared_ptr<const std::string> vocabulary;  // a shared non-module: a constant
    BURN_MODULE(Heads, by_task, by_level, vocabulary)
};
}  // namespace module_test

TEST(Module, MapsAddTheirKeysInKeyOrderAndSaveAndLoad) {
    using module_test::Heads;
    auto make_heads = [] {
        Heads h;
        h.by_task.emplace("sentiment", nn::LinearConfig{4, 2}.init());
        h.by_task.emplace("language", nn::LinearConfig{4, 3}.with_bias(false).init());
        h.by_level.emplace(10, nn::LayerNormConfig{4}.init());
        h.by_level.emplace(2, nn::LayerNormConfig{4}.init());
        h.vocabulary = std::make_shared<const std::string>("abc");
        return h;
    };
    Heads h = make_heads();
    std::vector<std::string> got;
    h.visit_params([&](const std::string& p, const auto&) { got.push_back(p); });
    EXPECT_EQ(got, (std::vector<std::string>{"by_task.language.weight", "by_task.sentiment.weight",
                                             "by_task.sentiment.bias", "by_level.2.gamma", "by_level.2.beta",
                                             "by_level.10.gamma", "by_level.10.beta"}));
    EXPECT_EQ(h.num_params(), 4u * 3 + 4 * 2 + 2 + 4 * 4);

    auto mem = store::BurnpackStore::in_memory();
    h.save_into(mem);
    Heads dst = make_heads();
    const auto result = dst.load_from(mem);
    EXPECT_EQ(result.applied.size(), 7u);
    EXPECT_TRUE(dst.by_task.at("sentiment").weight.val().all_close(h.by_task.at("sentiment").weight.val()));
    EXPECT_TRUE(dst.by_level.at(10).gamma.val().all_close(h.by_level.at(10).gamma.val()));
    EXPECT_FALSE(
        make_heads().by_task.at("language").weight.val().all_close(h.by_task.at("language").weight.val()));
}
