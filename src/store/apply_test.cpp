// The ApplyResult contract (applied / skipped / missing / unused / errors, all or nothing), path
// filters, KeyRemapper, the "did you mean" summary, and the PyTorch adapters in both directions.
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;

struct Block {
    nn::Linear fc;
    nn::LayerNorm norm;
    BURN_MODULE(Block, fc, norm)
};
struct Net {
    std::vector<Block> blocks;
    nn::Linear head;
    BURN_MODULE(Net, blocks, head)
};

Net make_net() {
    Device d;
    return Net{{Block{nn::LinearConfig{3, 4}.init(d), nn::LayerNormConfig{4}.init(d)},
                Block{nn::LinearConfig{4, 4}.init(d), nn::LayerNormConfig{4}.init(d)}},
               nn::LinearConfig{4, 2}.init(d)};
}

std::vector<std::vector<uint8_t>> values(const Net& n) {
    std::vector<std::vector<uint8_t>> out;
    for (const auto& s : module::snapshots(n)) out.push_back(testing::bytes_of(s.tensor));
    return out;
}

/// Saves tensors (name -> module-like values) with SafeTensors in memory.
std::vector<uint8_t> file_of(const std::map<std::string, TensorAny>& tensors) {
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors(tensors);
    return mem.bytes();
}

std::map<std::string, TensorAny> named(const Net& n) {
    std::map<std::string, TensorAny> out;
    for (const auto& s : module::snapshots(n)) out[s.path] = s.tensor;
    return out;
}

TEST(ApplyResult, FullLoadReportsEveryPath) {
    Net src = make_net(), dst = make_net();
    auto mem = BurnpackStore::in_memory();
    src.save_into(mem);
    auto r = dst.load_from(mem);
    EXPECT_TRUE(r.is_success());
    EXPECT_EQ(r.applied, (std::vector<std::string>{
                             "blocks.0.fc.weight", "blocks.0.fc.bias", "blocks.0.norm.gamma",
                             "blocks.0.norm.beta", "blocks.1.fc.weight", "blocks.1.fc.bias",
                             "blocks.1.norm.gamma", "blocks.1.norm.beta", "head.weight", "head.bias"}));
    EXPECT_EQ(values(src), values(dst));
}

TEST(ApplyResult, MissingIsAnErrorUnlessPartialAndChangesNothing) {
    Net src = make_net();
    auto t = named(src);
    t.erase("head.bias");
    t["head.bais"] = named(src)["head.bias"];  // a drifted name
    t["extra.weight"] = named(src)["head.weight"];
    auto bytes = file_of(t);

    Net dst = make_net();
    auto before = values(dst);
    auto strict = SafetensorsStore::from_bytes(bytes);
    try {
        dst.load_from(strict);
        ADD_FAILURE() << "a missing tensor must fail the load";
    } catch (const Error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("missing: head.bias (did you mean 'head.bais' in the file?)"), std::string::npos)
            << msg;
        EXPECT_NE(msg.find("allow_partial(true)"), std::string::npos) << msg;
    }
    EXPECT_EQ(values(dst), before);

    auto partial = SafetensorsStore::from_bytes(bytes).allow_partial(true);
    auto r = dst.load_from(partial);
    EXPECT_FALSE(r.is_success());  // something is missing, even though the load went ahead
    EXPECT_EQ(r.missing, std::vector<std::string>{"head.bias"});
    EXPECT_EQ(r.unused, (std::vector<std::string>{"extra.weight", "head.bais"}));
    EXPECT_EQ(r.applied.size(), 9u);
    auto after = values(dst);
    EXPECT_EQ(after.back(), before.back());  // head.bias kept its value
    EXPECT_EQ(after.front(), testing::bytes_of(named(src)["blocks.0.fc.weight"]));
}

TEST(ApplyResult, ShapeMismatchIsAnErrorAndNothingIsApplied) {
    Net src = make_net();
    auto t = named(src);
    t["head.weight"] = ops::from_data(TensorData(std::vector<float>(12, 1.0f), Dims{2, 6}), Device());
    Net dst = make_net();
    auto before = values(dst);
    auto in = SafetensorsStore::from_bytes(file_of(t)).allow_partial(true);
    expect_error([&] { dst.load_from(in); },
                 "head.weight: shape mismatch: the module expects [2, 4], the file has f32 [2, 6]");
    EXPECT_EQ(values(dst), before);
}

TEST(ApplyResult, FiltersSkipPaths) {
    Net src = make_net();
    auto bytes = file_of(named(src));
    Net dst = make_net();
    auto before = values(dst);
    auto in = SafetensorsStore::from_bytes(bytes).with_regex("^blocks\\.0\\.").with_full_path("head.bias");
    auto r = dst.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(r.applied,
              (std::vector<std::string>{"blocks.0.fc.weight", "blocks.0.fc.bias", "blocks.0.norm.gamma",
                                        "blocks.0.norm.beta", "head.bias"}));
    EXPECT_EQ(r.skipped.size(), 5u);
    EXPECT_TRUE(r.unused.empty());  // filtered-out tensors are skipped, not unused
    auto after = values(dst);
    EXPECT_EQ(after[4], before[4]);  // blocks.1.fc.weight untouched

    auto pred = SafetensorsStore::from_bytes(bytes).with_predicate(
        [](const std::string& p) { return p.find("norm") != std::string::npos; });
    auto r2 = dst.load_from(pred);
    EXPECT_EQ(r2.applied.size(), 4u);

    // Saving with a filter writes only the matching tensors.
    auto mem = SafetensorsStore::in_memory().with_regex("^head\\.");
    src.save_into(mem);
    EXPECT_EQ(SafetensorsStore::from_bytes(mem.bytes()).keys(),
              (std::vector<std::string>{"head.weight", "head.bias"}));
}

TEST(KeyRemapper, RegexWithCaptureGroups) {
    KeyRemapper k;
    k.add_pattern("^layers\\.(\\d+)\\.", "blocks.$1.").add_pattern("^model\\.", "");
    EXPECT_EQ(k.apply("layers.12.fc.weight"), "blocks.12.fc.weight");
    EXPECT_EQ(k.apply("model.head.bias"), "head.bias");
    EXPECT_EQ(k.apply("other"), "other");
    expect_error([] { KeyRemapper().add_pattern("([", "x"); }, "[KeyRemapper] invalid regex '(['");

    Net src = make_net();
    std::map<std::string, TensorAny> renamed;
    for (auto& [p, t] : named(src))
        renamed["model." + std::regex_replace(p, std::regex("^blocks"), "layers")] = t;
    Net dst = make_net();
    auto in = SafetensorsStore::from_bytes(file_of(renamed))
                  .with_key_remapping("^model\\.", "")
                  .with_key_remapping("^layers\\.(\\d+)", "blocks.$1");
    auto r = dst.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(values(src), values(dst));
}

TEST(ApplyResult, SummaryHintsAtANestedPrefix) {
    Net src = make_net();
    std::map<std::string, TensorAny> nested;
    for (auto& [p, t] : named(src)) nested["state_dict." + p] = t;
    Net dst = make_net();
    auto in = SafetensorsStore::from_bytes(file_of(nested));
    try {
        dst.load_from(in);
        ADD_FAILURE();
    } catch (const Error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("missing: head.bias (did you mean 'state_dict.head.bias' in the file?)"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("with_top_level_key"), std::string::npos) << msg;
    }
}

// ---------------------------------------------------------------- adapters

TEST(PytorchAdapter, NormWeightBiasBecomeGammaBeta) {
    Net src = make_net();
    std::map<std::string, TensorAny> torch_names;
    for (auto& [p, t] : named(src)) {
        std::string q = std::regex_replace(p, std::regex("gamma$"), "weight");
        torch_names[std::regex_replace(q, std::regex("beta$"), "bias")] = t;
    }
    torch_names["blocks.0.norm.num_batches_tracked"] =
        ops::from_data(TensorData(std::vector<int64_t>{3}, Dims{}), Device());
    auto bytes = file_of(torch_names);
    Net dst = make_net();
    auto in = SafetensorsStore::from_bytes(bytes);
    auto r = dst.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(r.skipped, std::vector<std::string>{"blocks.0.norm.num_batches_tracked"});
    EXPECT_TRUE(r.unused.empty());
    EXPECT_EQ(values(src), values(dst));

    // Without the adapter, the names do not match.
    Net other = make_net();
    auto plain = SafetensorsStore::from_bytes(bytes).with_load_adapter(nullptr).allow_partial(true);
    auto r2 = other.load_from(plain);
    EXPECT_EQ(r2.missing.size(), 4u);
}

TEST(BurnToPytorchAdapter, WritesPytorchNames) {
    Net src = make_net();
    auto mem = SafetensorsStore::in_memory().with_save_adapter(std::make_shared<BurnToPytorchAdapter>());
    src.save_into(mem);
    auto keys = SafetensorsStore::from_bytes(mem.bytes()).keys();
    EXPECT_NE(std::find(keys.begin(), keys.end(), "blocks.1.norm.weight"), keys.end());
    EXPECT_NE(std::find(keys.begin(), keys.end(), "blocks.1.norm.bias"), keys.end());
    EXPECT_EQ(std::find(keys.begin(), keys.end(), "blocks.1.norm.gamma"), keys.end());
    // ...and they load back through the default (PyTorch) load adapter.
    Net dst = make_net();
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    EXPECT_TRUE(dst.load_from(in).is_success());
    EXPECT_EQ(values(src), values(dst));
}

// A user-defined module in burn's (Rust) per-gate layout (not the project's nn::Lstm, which keeps
// PyTorch's fused tensors): the adapters fuse and split the gates.
struct Gate {
    nn::Linear input_transform;
    nn::Linear hidden_transform;
    BURN_MODULE(Gate, input_transform, hidden_transform)
};
struct PerGateLstm {
    Gate input_gate, forget_gate, cell_gate, output_gate;
    BURN_MODULE(PerGateLstm, input_gate, forget_gate, cell_gate, output_gate)
};
struct Seq {
    PerGateLstm rnn;
    nn::BatchNorm bn;
    BURN_MODULE(Seq, rnn, bn)
};

Seq make_seq() {
    Device d;
    auto gate = [&] { return Gate{nn::LinearConfig{3, 5}.init(d), nn::LinearConfig{5, 5}.init(d)}; };
    return Seq{PerGateLstm{gate(), gate(), gate(), gate()}, nn::BatchNormConfig{4}.init(d)};
}

TEST(BurnToPytorchAdapter, FusesGatesAndRoundTrips) {
    Seq src = make_seq();
    auto mem = SafetensorsStore::in_memory().with_save_adapter(std::make_shared<BurnToPytorchAdapter>());
    src.save_into(mem);
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    auto t = in.load_tensors();
    ASSERT_TRUE(t.count("rnn.weight_ih_l0"));
    EXPECT_EQ(t["rnn.weight_ih_l0"].shape(), (Dims{20, 3}));
    EXPECT_EQ(t["rnn.weight_hh_l0"].shape(), (Dims{20, 5}));
    EXPECT_EQ(t["rnn.bias_ih_l0"].shape(), (Dims{20}));
    EXPECT_EQ(t["bn.num_batches_tracked"].dtype(), DType::i64);
    EXPECT_TRUE(t.count("bn.weight") && t.count("bn.running_var"));
    // Rows 5..9 of weight_ih are the forget gate (PyTorch's order i, f, g, o).
    auto fused = ops::into_data(t["rnn.weight_ih_l0"]).to_vec<float>();
    auto forget = src.rnn.forget_gate.input_transform.weight.val().into_data().to_vec<float>();
    EXPECT_EQ(std::vector<float>(fused.begin() + 15, fused.begin() + 30), forget);

    Seq dst = make_seq();
    auto r = dst.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(r.skipped, std::vector<std::string>{"bn.num_batches_tracked"});
    auto a = module::snapshots(src), b = module::snapshots(dst);
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(testing::bytes_of(a[i].tensor), testing::bytes_of(b[i].tensor)) << a[i].path;
}

// The project's own layers, written in PyTorch's names and layouts and read back.
struct Layers {
    nn::Linear linear;
    nn::Conv1d conv;
    nn::BatchNorm bn;
    nn::LayerNorm ln;
    nn::Embedding embed;
    nn::Lstm lstm;
    nn::BiLstm bilstm;
    nn::Gru gru;
    nn::MultiHeadAttention mha;
    BURN_MODULE(Layers, linear, conv, bn, ln, embed, lstm, bilstm, gru, mha)
};

Layers make_layers() {
    Device d;
    return Layers{nn::LinearConfig{3, 4}.init(d),
                  nn::Conv1dConfig{2, 3, 3}.init(d),
                  nn::BatchNormConfig{3}.init(d),
                  nn::LayerNormConfig{4}.init(d),
                  nn::EmbeddingConfig{7, 4}.init(d),
                  nn::LstmConfig{3, 5}.init(d),
                  nn::BiLstmConfig{3, 2}.init(d),
                  nn::GruConfig{3, 4}.init(d),
                  nn::MultiHeadAttentionConfig{8, 2}.init(d)};
}

TEST(BurnToPytorchAdapter, ProjectLayersUsePytorchNamesAndRoundTrip) {
    Layers src = make_layers();
    auto mem = SafetensorsStore::in_memory().with_save_adapter(std::make_shared<BurnToPytorchAdapter>());
    src.save_into(mem);
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    auto t = in.load_tensors();
    auto has = [&](const std::string& k, Dims shape) {
        ASSERT_TRUE(t.count(k)) << "PyTorch name " << k << " was not written";
        EXPECT_EQ(t[k].shape(), shape) << k;
    };
    has("linear.weight", {4, 3});
    has("conv.weight", {3, 2, 3});
    has("bn.weight", {3});
    has("bn.running_mean", {3});
    has("bn.running_var", {3});
    ASSERT_TRUE(t.count("bn.num_batches_tracked"));
    EXPECT_EQ(t["bn.num_batches_tracked"].dtype(), DType::i64);
    has("ln.weight", {4});
    has("ln.bias", {4});
    has("embed.weight", {7, 4});
    has("lstm.weight_ih_l0", {20, 3});
    has("lstm.weight_hh_l0", {20, 5});
    has("lstm.bias_ih_l0", {20});
    has("bilstm.weight_ih_l0", {8, 3});
    has("bilstm.weight_ih_l0_reverse", {8, 3});
    has("gru.weight_hh_l0", {12, 4});
    has("mha.in_proj_weight", {24, 8});
    has("mha.in_proj_bias", {24});
    has("mha.out_proj.weight", {8, 8});
    // PyTorch's in_proj_weight rows [8, 16) are the key projection.
    auto fused = ops::into_data(t["mha.in_proj_weight"]).to_vec<float>();
    auto key = src.mha.key.weight.val().into_data().to_vec<float>();
    EXPECT_EQ(std::vector<float>(fused.begin() + 64, fused.begin() + 128), key);

    Layers dst = make_layers();
    auto r = dst.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_TRUE(r.unused.empty()) << r;
    EXPECT_EQ(r.skipped, std::vector<std::string>{"bn.num_batches_tracked"});
    auto a = module::snapshots(src), b = module::snapshots(dst);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(testing::bytes_of(a[i].tensor), testing::bytes_of(b[i].tensor)) << a[i].path;
}

TEST(PytorchAdapter, SplitErrorsAreReported) {
    std::map<std::string, TensorAny> t;
    t["rnn.weight_ih_l0"] =
        ops::from_data(TensorData(std::vector<float>(21 * 3, 0.f), Dims{21, 3}), Device());
    Seq dst = make_seq();
    auto in = SafetensorsStore::from_bytes(file_of(t)).allow_partial(true);
    expect_error([&] { dst.load_from(in); }, "cannot split a tensor of shape [21, 3] into 4 blocks");
}

}  // namespace
}  // namespace burn::store
