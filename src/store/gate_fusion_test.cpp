// Rust burn's per-gate LSTM/GRU layout loads into this project's fused Lstm, BiLstm and Gru
// (gate_fusion.cpp): a module written in Rust burn's layout (one Linear per gate, weights
// [d_input, d_output], the file marked as Rust burn's) fills weight_ih / weight_hh / bias_ih / bias_hh with
// the gates stacked in PyTorch's order; a shape that does not fit fails and leaves the module as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>

namespace burn::store::gate_fusion_test {  // named: unity builds merge anonymous namespaces

// Rust burn's modules, field for field (burn-nn 0.22: GateController, Lstm, BiLstm, Gru)
struct Gate {
    nn::Linear input_transform;
    nn::Linear hidden_transform;
    BURN_MODULE(Gate, input_transform, hidden_transform)
};
struct RustLstm {
    Gate input_gate, forget_gate, output_gate, cell_gate;
    BURN_MODULE(RustLstm, input_gate, forget_gate, output_gate, cell_gate)
};
struct RustBiLstm {
    RustLstm forward, reverse;
    BURN_MODULE(RustBiLstm, forward, reverse)
};
struct RustGru {
    Gate update_gate, reset_gate, new_gate;
    BURN_MODULE(RustGru, update_gate, reset_gate, new_gate)
};
struct RustNet {
    RustLstm lstm;
    RustBiLstm bilstm;
    RustGru gru;
    BURN_MODULE(RustNet, lstm, bilstm, gru)
};
struct Net {
    nn::Lstm lstm;
    nn::BiLstm bilstm;
    nn::Gru gru;
    BURN_MODULE(Net, lstm, bilstm, gru)
};

constexpr std::size_t kIn = 3, kHidden = 5;

Gate gate(std::size_t hidden) {
    Device d;
    return Gate{nn::LinearConfig{kIn, hidden}.init(d), nn::LinearConfig{hidden, hidden}.init(d)};
}
RustLstm rust_lstm(std::size_t hidden = kHidden) {
    return RustLstm{gate(hidden), gate(hidden), gate(hidden), gate(hidden)};
}
RustNet rust_net(std::size_t hidden = kHidden) {
    return RustNet{rust_lstm(hidden), RustBiLstm{rust_lstm(hidden), rust_lstm(hidden)},
                   RustGru{gate(hidden), gate(hidden), gate(hidden)}};
}
Net net() {
    return Net{nn::LstmConfig{kIn, kHidden}.init(), nn::BiLstmConfig{kIn, kHidden}.init(),
               nn::GruConfig{kIn, kHidden}.init()};
}

std::vector<float> values(const TensorAny& t) {
    return ops::into_data(t).to_vec<float>();
}

/// The gates' weights (or biases) of one transform stacked along dim 0, in the given order.
TensorAny stacked(const std::vector<const Gate*>& gates, bool input, bool weight) {
    std::vector<TensorAny> parts;
    for (const Gate* g : gates) {
        const nn::Linear& l = input ? g->input_transform : g->hidden_transform;
        parts.push_back(weight ? l.weight.val().handle() : l.bias->val().handle());
    }
    return ops::cat(parts, 0);
}

void expect_lstm(const nn::Lstm& got, const RustLstm& want, const std::string& what) {
    // PyTorch's order i, f, g (cell), o
    const std::vector<const Gate*> g{&want.input_gate, &want.forget_gate, &want.cell_gate, &want.output_gate};
    EXPECT_EQ(values(got.weight_ih.val().handle()), values(stacked(g, true, true))) << what;
    EXPECT_EQ(values(got.weight_hh.val().handle()), values(stacked(g, false, true))) << what;
    EXPECT_EQ(values(got.bias_ih->val().handle()), values(stacked(g, true, false))) << what;
    EXPECT_EQ(values(got.bias_hh->val().handle()), values(stacked(g, false, false))) << what;
}

TEST(GateFusion, RustBurnLstmBiLstmAndGruLoadIntoTheFusedLayers) {
    const RustNet src = rust_net();
    auto mem = BurnpackStore::in_memory().burn_linear_layout(true);  // Rust burn's [d_input, d_output]
    src.save_into(mem);
    Net dst = net();
    auto in = BurnpackStore::from_bytes(mem.bytes());
    const ApplyResult r = dst.load_from(in);
    ASSERT_TRUE(r.is_success()) << r;
    EXPECT_TRUE(r.unused.empty()) << r;
    EXPECT_EQ(r.applied.size(), 16u);
    expect_lstm(dst.lstm, src.lstm, "lstm");
    expect_lstm(dst.bilstm.forward_lstm, src.bilstm.forward, "bilstm forward");
    expect_lstm(dst.bilstm.reverse_lstm, src.bilstm.reverse, "bilstm reverse");
    // the GRU: r, z, n
    const std::vector<const Gate*> g{&src.gru.reset_gate, &src.gru.update_gate, &src.gru.new_gate};
    EXPECT_EQ(values(dst.gru.weight_ih.val().handle()), values(stacked(g, true, true)));
    EXPECT_EQ(values(dst.gru.weight_hh.val().handle()), values(stacked(g, false, true)));
    EXPECT_EQ(values(dst.gru.bias_hh->val().handle()), values(stacked(g, false, false)));
}

TEST(GateFusion, GatesOfTheWrongSizeFailAndLeaveTheModule) {
    const RustNet src = rust_net(4);  // H = 4 where the module has 5
    auto mem = BurnpackStore::in_memory().burn_linear_layout(true);
    src.save_into(mem);
    Net dst = net();
    const auto before = values(dst.lstm.weight_ih.val().handle());
    auto in = BurnpackStore::from_bytes(mem.bytes());
    try {
        dst.load_from(in);
        ADD_FAILURE() << "the load succeeded";
    } catch (const Error& e) {
        // the fused tensor's name, the module's shape and the file's
        EXPECT_NE(
            std::string(e.what()).find("lstm.weight_ih: shape mismatch: the module expects [20, 3], the "
                                       "file has f32 [16, 3]"),
            std::string::npos)
            << e.what();
    }
    EXPECT_EQ(values(dst.lstm.weight_ih.val().handle()), before);
}

TEST(GateFusion, SavesInRustBurnLayoutSplitTheGatesAndRoundTrip) {
    const Net src = net();
    auto mem = BurnpackStore::in_memory().burn_linear_layout(true);
    src.save_into(mem);
    auto keys = BurnpackStore::from_bytes(mem.bytes()).keys();
    std::sort(keys.begin(), keys.end());
    EXPECT_TRUE(std::binary_search(keys.begin(), keys.end(), "lstm.cell_gate.input_transform.weight"));
    EXPECT_TRUE(
        std::binary_search(keys.begin(), keys.end(), "bilstm.reverse.output_gate.hidden_transform.bias"));
    EXPECT_TRUE(std::binary_search(keys.begin(), keys.end(), "gru.new_gate.hidden_transform.weight"));
    EXPECT_FALSE(std::binary_search(keys.begin(), keys.end(), "lstm.weight_ih"));
    // Rust burn's modules read it (their Linear weights transposed back from [d_input, d_output])...
    RustNet rust = rust_net();
    auto in = BurnpackStore::from_bytes(mem.bytes());
    ASSERT_TRUE(rust.load_from(in).is_success());
    expect_lstm(src.lstm, rust.lstm, "lstm");
    expect_lstm(src.bilstm.reverse_lstm, rust.bilstm.reverse, "bilstm reverse");
    // ...and so does this project's
    Net back = net();
    auto again = BurnpackStore::from_bytes(mem.bytes());
    ASSERT_TRUE(back.load_from(again).is_success());
    EXPECT_EQ(values(back.gru.weight_hh.val().handle()), values(src.gru.weight_hh.val().handle()));
    EXPECT_EQ(values(back.bilstm.forward_lstm.bias_ih->val().handle()),
              values(src.bilstm.forward_lstm.bias_ih->val().handle()));
}

}  // namespace burn::store::gate_fusion_test
