// Real PyTorch models (tests/fixtures/store, written by scripts/gen_store_fixtures.py with Debian's
// python3-torch) loaded with no configuration into the project's own layers (nn::Linear, nn::Conv2d,
// nn::BatchNorm, nn::Embedding, nn::LayerNorm, nn::Lstm, nn::Gru, nn::TransformerEncoderLayer), from
// every format: zip, legacy, nested under "state_dict" (both), SafeTensors. The layers' own forward
// passes reproduce PyTorch's outputs to 1e-5. One test also loads into a user-defined module with
// burn's (Rust) per-gate Linear layout, which the adapter fills by splitting PyTorch's fused gates.
#include <cmath>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using activation::relu;
using testing::fixture;

std::vector<std::unique_ptr<ModuleStore>> stores_for(const std::string& stem) {
    std::vector<std::unique_ptr<ModuleStore>> v;
    v.push_back(std::make_unique<PytorchStore>(fixture(stem + "_legacy.pt")));
    v.push_back(std::make_unique<PytorchStore>(
        PytorchStore(fixture(stem + "_nested_legacy.pt")).with_top_level_key("state_dict")));
    if (PytorchStore::zip_supported()) {
        v.push_back(std::make_unique<PytorchStore>(fixture(stem + ".pt")));
        v.push_back(std::make_unique<PytorchStore>(
            PytorchStore(fixture(stem + "_nested.pt")).with_top_level_key("state_dict")));
    }
    v.push_back(std::make_unique<SafetensorsStore>(fixture(stem + ".safetensors")));
    return v;
}

std::map<std::string, TensorAny> io(const std::string& stem) {
    return SafetensorsStore(fixture(stem + "_io.safetensors")).load_tensors();
}

void expect_close(const TensorAny& actual, const TensorAny& expected) {
    ASSERT_EQ(actual.shape(), expected.shape());
    EXPECT_NO_THROW(ops::into_data(actual).assert_approx_eq(ops::into_data(expected), 1e-5, 1e-5));
}

/// Loads every format of stem into a fresh module and checks the forward pass.
template <class M, class Make, class Check>
void check_all_formats(const std::string& stem, Make make, Check check,
                       const std::vector<std::string>& skipped = {}) {
    for (auto& store : stores_for(stem)) {
        M m = make();
        ApplyResult r = m.load_from(*store);
        EXPECT_TRUE(r.is_success()) << stem << ": " << r;
        EXPECT_TRUE(r.unused.empty()) << stem << ": " << r;
        EXPECT_EQ(r.skipped, skipped) << stem;
        check(m);
    }
}

/// Linear layers need matmul, which lands with the matmul/sort branch; until then these tests skip.
bool matmul_available() {
    try {
        ops::matmul(ops::full({1, 1}, 1.0, DType::f32, Device()),
                    ops::full({1, 1}, 1.0, DType::f32, Device()));
        return true;
    } catch (const Error&) {
        return false;
    }
}
#define REQUIRE_MATMUL() \
    if (!matmul_available()) GTEST_SKIP() << "matmul is not implemented in this build yet"

// ---------------------------------------------------------------- MLP

struct Mlp {
    nn::Linear fc1, fc2;
    BURN_MODULE(Mlp, fc1, fc2)
};

TEST(PytorchModels, Mlp) {
    REQUIRE_MATMUL();
    auto data = io("mlp");
    check_all_formats<Mlp>(
        "mlp",
        [] {
            return Mlp{nn::LinearConfig{4, 8}.init(), nn::LinearConfig{8, 3}.init()};
        },
        [&](const Mlp& m) {
            auto y = m.fc2.forward(relu(m.fc1.forward(Tensor<2>(data["input"]))));
            expect_close(y.handle(), data["output"]);
        });
}

// ---------------------------------------------------------------- Conv + BatchNorm

struct ConvBn {
    nn::Conv2d conv;
    nn::BatchNorm bn;
    BURN_MODULE(ConvBn, conv, bn)
};

ConvBn make_convbn() {
    return ConvBn{nn::Conv2dConfig{{2, 4}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(),
                  nn::BatchNormConfig{4}.init()};
}

TEST(PytorchModels, ConvBatchNormRunningStatistics) {
    auto data = io("convbn");
    auto weights = SafetensorsStore(fixture("convbn.safetensors")).load_tensors();
    check_all_formats<ConvBn>("convbn", make_convbn,
                              [&](const ConvBn& m) {
                                  EXPECT_EQ(testing::bytes_of(m.conv.weight.val().handle()),
                                            testing::bytes_of(weights["conv.weight"]));
                                  EXPECT_EQ(testing::bytes_of(m.bn.running_var.val().handle()),
                                            testing::bytes_of(weights["bn.running_var"]));
                                  auto conv = m.conv.forward(Tensor<4>(data["input"]));
                                  expect_close(conv.handle(), data["conv_output"]);
                                  // Inference (no autodiff device) uses the running statistics PyTorch
                                  // accumulated.
                                  expect_close(m.bn.forward(conv).handle(), data["output"]);
                              },
                              {"bn.num_batches_tracked"});
}

// ---------------------------------------------------------------- Embedding + LayerNorm

struct EmbedNorm {
    nn::Embedding embed;
    nn::LayerNorm norm;
    BURN_MODULE(EmbedNorm, embed, norm)
};

TEST(PytorchModels, EmbeddingLayerNorm) {
    auto data = io("embednorm");
    check_all_formats<EmbedNorm>(
        "embednorm",
        [] {
            return EmbedNorm{nn::EmbeddingConfig{10, 6}.init(), nn::LayerNormConfig{6}.init()};
        },
        [&](const EmbedNorm& m) {
            auto y = m.norm.forward(m.embed.forward(Tensor<2, Int>(data["input"])));
            expect_close(y.handle(), data["output"]);
        });
}

// ---------------------------------------------------------------- LSTM / GRU (nn/rnn.hpp, PyTorch's fused
// layout)

struct LstmNet {
    nn::Lstm rnn;
    nn::Linear head;
    BURN_MODULE(LstmNet, rnn, head)
};
struct GruNet {
    nn::Gru rnn;
    nn::Linear head;
    BURN_MODULE(GruNet, rnn, head)
};

LstmNet make_lstm() {
    return LstmNet{nn::LstmConfig{3, 5}.init(), nn::LinearConfig{5, 2}.init()};
}
GruNet make_gru() {
    return GruNet{nn::GruConfig{3, 5}.init(), nn::LinearConfig{5, 2}.init()};
}

TEST(PytorchModels, LstmGateOrder) {
    REQUIRE_MATMUL();
    auto data = io("lstm");
    check_all_formats<LstmNet>("lstm", make_lstm, [&](const LstmNet& m) {
        auto [out, state] = m.rnn.forward(Tensor<3>(data["input"]));
        expect_close(m.head.forward(out).handle(), data["output"]);
    });
}

TEST(PytorchModels, GruGateOrder) {
    REQUIRE_MATMUL();
    auto data = io("gru");
    check_all_formats<GruNet>("gru", make_gru, [&](const GruNet& m) {
        expect_close(m.head.forward(m.rnn.forward(Tensor<3>(data["input"]))).handle(), data["output"]);
    });
}

// burn's layout: one Linear per gate; PyTorch's fused tensors are split in gate order.
struct Gate {
    nn::Linear input_transform, hidden_transform;
    BURN_MODULE(Gate, input_transform, hidden_transform)
};
struct GateLstm {
    Gate input_gate, forget_gate, cell_gate, output_gate;
    BURN_MODULE(GateLstm, input_gate, forget_gate, cell_gate, output_gate)
};
struct GateLstmNet {
    GateLstm rnn;
    nn::Linear head;
    BURN_MODULE(GateLstmNet, rnn, head)
};

TEST(PytorchModels, LstmSplitIntoPerGateLinears) {
    REQUIRE_MATMUL();
    auto data = io("lstm");
    auto gate = [] { return Gate{nn::LinearConfig{3, 5}.init(), nn::LinearConfig{5, 5}.init()}; };
    check_all_formats<GateLstmNet>(
        "lstm",
        [&] {
            return GateLstmNet{GateLstm{gate(), gate(), gate(), gate()}, nn::LinearConfig{5, 2}.init()};
        },
        [&](const GateLstmNet& g) {
            // Reassemble PyTorch's fused layout into the project's nn::Lstm and run its forward.
            auto cat = [](std::vector<Tensor<2>> w) { return Tensor<2>::cat(w, 0); };
            auto cat1 = [](std::vector<Tensor<1>> w) { return Tensor<1>::cat(w, 0); };
            const auto& r = g.rnn;
            LstmNet m = make_lstm();
            m.rnn.weight_ih.set(
                cat({r.input_gate.input_transform.weight.val(), r.forget_gate.input_transform.weight.val(),
                     r.cell_gate.input_transform.weight.val(), r.output_gate.input_transform.weight.val()}));
            m.rnn.weight_hh.set(cat(
                {r.input_gate.hidden_transform.weight.val(), r.forget_gate.hidden_transform.weight.val(),
                 r.cell_gate.hidden_transform.weight.val(), r.output_gate.hidden_transform.weight.val()}));
            m.rnn.bias_ih->set(
                cat1({r.input_gate.input_transform.bias->val(), r.forget_gate.input_transform.bias->val(),
                      r.cell_gate.input_transform.bias->val(), r.output_gate.input_transform.bias->val()}));
            m.rnn.bias_hh->set(
                cat1({r.input_gate.hidden_transform.bias->val(), r.forget_gate.hidden_transform.bias->val(),
                      r.cell_gate.hidden_transform.bias->val(), r.output_gate.hidden_transform.bias->val()}));
            m.head = g.head;
            auto [out, state] = m.rnn.forward(Tensor<3>(data["input"]));
            expect_close(m.head.forward(out).handle(), data["output"]);
        });
}

// ---------------------------------------------------------------- Transformer encoder layer

nn::TransformerEncoderLayer make_encoder() {
    // PyTorch's TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0), post-norm, ReLU.
    return nn::TransformerEncoderConfig{8, 16, 2, 1}
        .with_dropout(0.0)
        .with_activation(nn::FeedForwardActivation::relu)
        .init()
        .layers.at(0);
}

TEST(PytorchModels, TransformerEncoderLayer) {
    REQUIRE_MATMUL();
    auto data = io("encoder");
    check_all_formats<nn::TransformerEncoderLayer>(
        "encoder", make_encoder, [&](const nn::TransformerEncoderLayer& m) {
            expect_close(m.forward(Tensor<3>(data["input"]), std::nullopt, std::nullopt).handle(),
                         data["output"]);
        });
}

/// Loads stem's PyTorch file into m, saves it with BurnToPytorchAdapter and expects exactly PyTorch's
/// state dict (names, shapes, bytes; num_batches_tracked is written as 0).
template <class M>
std::vector<uint8_t> expect_pytorch_state_dict(M m, const std::string& stem) {
    auto st = PytorchStore(fixture(stem + "_legacy.pt"));
    EXPECT_TRUE(m.load_from(st).is_success());
    auto mem = SafetensorsStore::in_memory().with_save_adapter(std::make_shared<BurnToPytorchAdapter>());
    m.save_into(mem);
    auto written = SafetensorsStore::from_bytes(mem.bytes()).load_tensors();
    auto original = SafetensorsStore(fixture(stem + ".safetensors")).load_tensors();
    EXPECT_EQ(written.size(), original.size()) << stem;
    for (auto& [k, t] : original) {
        if (!written.count(k)) {
            ADD_FAILURE() << stem << ": PyTorch's " << k << " was not written";
            continue;
        }
        EXPECT_EQ(written[k].shape(), t.shape()) << k;
        if (k.find("num_batches_tracked") == std::string::npos) {
            EXPECT_EQ(testing::bytes_of(written[k]), testing::bytes_of(t)) << stem << ": " << k;
        }
    }
    return mem.bytes();
}

TEST(PytorchModels, ReverseAdapterWritesPytorchStateDicts) {
    expect_pytorch_state_dict(make_encoder(), "encoder");
    expect_pytorch_state_dict(make_lstm(), "lstm");
    expect_pytorch_state_dict(make_gru(), "gru");
    expect_pytorch_state_dict(make_convbn(), "convbn");
    expect_pytorch_state_dict(EmbedNorm{nn::EmbeddingConfig{10, 6}.init(), nn::LayerNormConfig{6}.init()},
                              "embednorm");
}

// PyTorch itself loads the file (strict load_state_dict) when Debian's python3-torch is installed.
TEST(PytorchModels, PytorchLoadsTheWrittenFile) {
    if (std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3-torch is not installed";
    testing::TempFile file("torch-check.safetensors");
    testing::write_bytes(file.path, expect_pytorch_state_dict(make_encoder(), "encoder"));
    std::string script = fixture("load_in_torch.py").string();
    std::string cmd = "/usr/bin/python3 " + script + " encoder " + file.path.string() + " " +
                      fixture("encoder_io.safetensors").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace burn::store
