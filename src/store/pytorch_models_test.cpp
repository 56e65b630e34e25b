// Real PyTorch models (tests/fixtures/store, written by scripts/gen_store_fixtures.py with Debian's
// python3-torch) loaded with no configuration into C++ modules named as this project names them, from
// every format: zip, legacy, nested under "state_dict" (both), SafeTensors. The forward passes,
// written here with tensor ops, reproduce PyTorch's outputs to 1e-5.
#include <cmath>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using activation::relu;
using activation::sigmoid;
using activation::softmax;
using activation::tanh;
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

Tensor<2> lin(const Tensor<2>& x, const Tensor<2>& w, const Tensor<1>& b) {
    return x.matmul(w.t()) + b.unsqueeze<2>();
}

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

struct Conv2d {  // PyTorch's layout [out, in, kh, kw]
    Param<Tensor<4>> weight;
    Param<Tensor<1>> bias;
    BURN_MODULE(Conv2d, weight, bias)
};
struct ConvBn {
    Conv2d conv;
    nn::BatchNorm bn;
    BURN_MODULE(ConvBn, conv, bn)
};

TEST(PytorchModels, ConvBatchNormRunningStatistics) {
    auto data = io("convbn");
    auto weights = SafetensorsStore(fixture("convbn.safetensors")).load_tensors();
    check_all_formats<ConvBn>(
        "convbn",
        [] {
            return ConvBn{Conv2d{Tensor<4>::zeros({4, 2, 3, 3}), Tensor<1>::zeros({4})},
                          nn::BatchNormConfig{4}.init()};
        },
        [&](const ConvBn& m) {
            EXPECT_EQ(testing::bytes_of(m.conv.weight.val().handle()),
                      testing::bytes_of(weights["conv.weight"]));
            EXPECT_EQ(testing::bytes_of(m.bn.running_var.val().handle()),
                      testing::bytes_of(weights["bn.running_var"]));
            // Inference uses the running statistics PyTorch accumulated.
            auto y = m.bn.forward(Tensor<4>(data["conv_output"]));
            expect_close(y.handle(), data["output"]);
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

// ---------------------------------------------------------------- LSTM / GRU (fused layout, nn/rnn.hpp)

struct Recurrent {
    Param<Tensor<2>> weight_ih, weight_hh;
    Param<Tensor<1>> bias_ih, bias_hh;
    BURN_MODULE(Recurrent, weight_ih, weight_hh, bias_ih, bias_hh)
};
struct RecurrentNet {
    Recurrent rnn;
    nn::Linear head;
    BURN_MODULE(RecurrentNet, rnn, head)
};

RecurrentNet make_recurrent(std::size_t gates) {
    const std::size_t h = 5;
    return RecurrentNet{Recurrent{Tensor<2>::zeros({gates * h, 3}), Tensor<2>::zeros({gates * h, h}),
                                  Tensor<1>::zeros({gates * h}), Tensor<1>::zeros({gates * h})},
                        nn::LinearConfig{5, 2}.init()};
}

Tensor<3> run_recurrent(const RecurrentNet& m, const Tensor<3>& x, bool lstm) {
    const int64_t b = static_cast<int64_t>(x.dims()[0]), t_len = static_cast<int64_t>(x.dims()[1]), h = 5;
    auto hid = Tensor<2>::zeros({static_cast<std::size_t>(b), 5}), cell = hid;
    std::vector<Tensor<2>> outs;
    const auto& r = m.rnn;
    for (int64_t t = 0; t < t_len; ++t) {
        Tensor<2> xt = x.narrow(1, t, 1).reshape({b, 3});
        auto gi = lin(xt, r.weight_ih.val(), r.bias_ih.val());
        auto gh = lin(hid, r.weight_hh.val(), r.bias_hh.val());
        if (lstm) {
            auto g = gi + gh;
            auto i = sigmoid(g.narrow(1, 0, h)), f = sigmoid(g.narrow(1, h, h));
            auto c = tanh(g.narrow(1, 2 * h, h)), o = sigmoid(g.narrow(1, 3 * h, h));
            cell = f * cell + i * c;
            hid = o * tanh(cell);
        } else {
            auto rr = sigmoid(gi.narrow(1, 0, h) + gh.narrow(1, 0, h));
            auto z = sigmoid(gi.narrow(1, h, h) + gh.narrow(1, h, h));
            auto n = tanh(gi.narrow(1, 2 * h, h) + rr * gh.narrow(1, 2 * h, h));
            hid = (1.0 - z) * n + z * hid;
        }
        outs.push_back(hid);
    }
    return m.head.forward(Tensor<2>::stack<3>(outs, 1));
}

TEST(PytorchModels, LstmGateOrder) {
    REQUIRE_MATMUL();
    auto data = io("lstm");
    check_all_formats<RecurrentNet>(
        "lstm", [] { return make_recurrent(4); },
        [&](const RecurrentNet& m) {
            expect_close(run_recurrent(m, Tensor<3>(data["input"]), true).handle(), data["output"]);
        });
}

TEST(PytorchModels, GruGateOrder) {
    REQUIRE_MATMUL();
    auto data = io("gru");
    check_all_formats<RecurrentNet>(
        "gru", [] { return make_recurrent(3); },
        [&](const RecurrentNet& m) {
            expect_close(run_recurrent(m, Tensor<3>(data["input"]), false).handle(), data["output"]);
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
            // Reassemble the fused layout and run the same reference forward.
            auto cat = [](std::vector<Tensor<2>> w) { return Tensor<2>::cat(w, 0); };
            auto cat1 = [](std::vector<Tensor<1>> w) { return Tensor<1>::cat(w, 0); };
            const auto& r = g.rnn;
            RecurrentNet m{
                Recurrent{
                    cat({r.input_gate.input_transform.weight.val(),
                         r.forget_gate.input_transform.weight.val(), r.cell_gate.input_transform.weight.val(),
                         r.output_gate.input_transform.weight.val()}),
                    cat({r.input_gate.hidden_transform.weight.val(),
                         r.forget_gate.hidden_transform.weight.val(),
                         r.cell_gate.hidden_transform.weight.val(),
                         r.output_gate.hidden_transform.weight.val()}),
                    cat1({r.input_gate.input_transform.bias->val(), r.forget_gate.input_transform.bias->val(),
                          r.cell_gate.input_transform.bias->val(),
                          r.output_gate.input_transform.bias->val()}),
                    cat1({r.input_gate.hidden_transform.bias->val(),
                          r.forget_gate.hidden_transform.bias->val(),
                          r.cell_gate.hidden_transform.bias->val(),
                          r.output_gate.hidden_transform.bias->val()})},
                g.head};
            expect_close(run_recurrent(m, Tensor<3>(data["input"]), true).handle(), data["output"]);
        });
}

// ---------------------------------------------------------------- Transformer encoder layer

struct Mha {  // nn/attention.hpp's names
    nn::Linear query, key, value, output;
    BURN_MODULE(Mha, query, key, value, output)
};
struct Pwff {
    nn::Linear linear_inner, linear_outer;
    BURN_MODULE(Pwff, linear_inner, linear_outer)
};
struct EncoderLayer {  // nn/transformer.hpp's names
    Mha mha;
    Pwff pwff;
    nn::LayerNorm norm_1, norm_2;
    BURN_MODULE(EncoderLayer, mha, pwff, norm_1, norm_2)
};

EncoderLayer make_encoder() {
    auto l = [](std::size_t i, std::size_t o) { return nn::LinearConfig{i, o}.init(); };
    return EncoderLayer{Mha{l(8, 8), l(8, 8), l(8, 8), l(8, 8)}, Pwff{l(8, 16), l(16, 8)},
                        nn::LayerNormConfig{8}.init(), nn::LayerNormConfig{8}.init()};
}

Tensor<3> run_encoder(const EncoderLayer& m, const Tensor<3>& x) {
    const int64_t b = static_cast<int64_t>(x.dims()[0]), s = static_cast<int64_t>(x.dims()[1]), heads = 2,
                  dk = 4;
    auto split = [&](const Tensor<3>& t) { return t.reshape({b, s, heads, dk}).swap_dims(1, 2); };
    auto q = split(m.mha.query.forward(x)), k = split(m.mha.key.forward(x)),
         v = split(m.mha.value.forward(x));
    auto attn = softmax(q.matmul(k.swap_dims(2, 3)) * (1.0 / std::sqrt(static_cast<double>(dk))), 3);
    Tensor<3> ctx = attn.matmul(v).swap_dims(1, 2).reshape({b, s, heads * dk});
    auto x1 = m.norm_1.forward(x + m.mha.output.forward(ctx));
    return m.norm_2.forward(x1 + m.pwff.linear_outer.forward(relu(m.pwff.linear_inner.forward(x1))));
}

TEST(PytorchModels, TransformerEncoderLayer) {
    REQUIRE_MATMUL();
    auto data = io("encoder");
    check_all_formats<EncoderLayer>("encoder", make_encoder, [&](const EncoderLayer& m) {
        expect_close(run_encoder(m, Tensor<3>(data["input"])).handle(), data["output"]);
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
        if (k.find("num_batches_tracked") == std::string::npos)
            EXPECT_EQ(testing::bytes_of(written[k]), testing::bytes_of(t)) << stem << ": " << k;
    }
    return mem.bytes();
}

TEST(PytorchModels, ReverseAdapterWritesPytorchStateDicts) {
    expect_pytorch_state_dict(make_encoder(), "encoder");
    expect_pytorch_state_dict(make_recurrent(4), "lstm");
    expect_pytorch_state_dict(
        ConvBn{Conv2d{Tensor<4>::zeros({4, 2, 3, 3}), Tensor<1>::zeros({4})}, nn::BatchNormConfig{4}.init()}, "convbn");
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
