// onnx::Model against PyTorch: models exported by torch 1.13 at opsets 11, 13 and 17 with seeded
// weights (tests/fixtures/onnx/make_fixtures.py) run here and match torch's outputs; a dynamic batch
// runs at another size; an autodiff device runs them too and gives gradients; burn-onnx's .npy files
// carry the data.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

#include "burn/onnx/model.hpp"
#include "burn/store/npy.hpp"
#include "fixture_root.hpp"

namespace burn::onnx::model_test {
namespace {

std::string fixture(const std::string& name) {
    return (burn::testing::fixture_root() / "onnx" / name).string();
}

TensorAny load_npy(const std::string& name, const Device& d = Device::cpu()) {
    return ops::from_data(read_npy(fixture(name)), d);
}

void expect_close(const TensorAny& got, const std::string& expected_npy, double rtol = 1e-4,
                  double atol = 1e-5) {
    ops::into_data(got).assert_approx_eq(read_npy(fixture(expected_npy)), rtol, atol);
}

struct Case {
    const char* name;
    int outputs;
};

class TorchExported : public ::testing::TestWithParam<std::tuple<Case, int>> {};

TEST_P(TorchExported, MatchesPyTorch) {
    const auto [c, opset] = GetParam();
    const std::string file = std::string(c.name) + "_opset" + std::to_string(opset) + ".onnx";
    auto model = Model::load(fixture(file), Device::cpu());
    EXPECT_EQ(model.opset(), opset);
    EXPECT_EQ(model.producer().rfind("pytorch", 0), 0u) << model.producer();
    ASSERT_EQ(model.outputs().size(), static_cast<std::size_t>(c.outputs));
    // by name
    auto named = model.run({{"input0", load_npy(std::string(c.name) + "_in0.npy")}});
    for (int i = 0; i < c.outputs; ++i)
        expect_close(named.at("output" + std::to_string(i)),
                     std::string(c.name) + "_out" + std::to_string(i) + ".npy");
    // positional, again (a model runs many times)
    auto outs = model.run(std::vector<TensorAny>{load_npy(std::string(c.name) + "_in0.npy")});
    for (int i = 0; i < c.outputs; ++i)
        expect_close(outs[static_cast<std::size_t>(i)],
                     std::string(c.name) + "_out" + std::to_string(i) + ".npy");
    EXPECT_LE(model.num_nodes(), model.num_file_nodes());
}

INSTANTIATE_TEST_SUITE_P(Onnx, TorchExported,
                         ::testing::Combine(::testing::Values(Case{"cnn", 1}, Case{"mlp", 2},
                                                              Case{"encoder", 1}),
                                            ::testing::Values(11, 13, 17)),
                         [](const auto& info) {
                             return std::string(std::get<0>(info.param).name) + "_opset" +
                                    std::to_string(std::get<1>(info.param));
                         });

// The exports declare a dynamic batch (and sequence) dim: other sizes run through the same graph, and
// each row equals torch's row for the same input row.
TEST(OnnxModel, DynamicBatchRunsAtAnotherSize) {
    for (const char* name : {"cnn", "encoder"}) {
        auto model = Model::load(fixture(std::string(name) + "_opset13.onnx"), Device::cpu());
        EXPECT_EQ(model.inputs()[0].names[0], "batch");
        EXPECT_EQ(model.inputs()[0].shape[0], -1);
        TensorAny x = load_npy(std::string(name) + "_in0.npy");
        TensorAny first = ops::narrow(x, 0, 1, 1);  // row 1 alone
        TensorAny y = model.run({{"input0", first}}).at("output0");
        TensorAny want = ops::narrow(load_npy(std::string(name) + "_out0.npy"), 0, 1, 1);
        ops::into_data(y).assert_approx_eq(ops::into_data(want), 1e-4, 1e-5);
    }
    // a shorter sequence: the attention's reshapes follow it
    auto enc = Model::load(fixture("encoder_opset17.onnx"), Device::cpu());
    TensorAny x = ops::narrow(load_npy("encoder_in0.npy"), 1, 0, 3);
    EXPECT_EQ(enc.run({x})[0].shape(), (Dims{2, 3, 16}));
}

// The same model on an autodiff device: the outputs agree and the input gets a gradient.
TEST(OnnxModel, RunsOnAnAutodiffDevice) {
    const Device ad = Device::cpu().autodiff();
    auto model = Model::load(fixture("mlp_opset17.onnx"), ad);
    TensorAny x = ops::require_grad(load_npy("mlp_in0.npy", ad));
    auto outs = model.run({x});
    expect_close(outs[0], "mlp_out0.npy");
    Gradients g = ops::backward(ops::sum(outs[1]));
    auto gx = ops::grad(x, g);
    ASSERT_TRUE(gx.has_value());
    EXPECT_EQ(gx->shape(), (Dims{3, 12}));
    // d mean(y)/dx is not zero where the clamp does not cut (the residual path alone gives 1/12)
    EXPECT_GT(ops::into_data(ops::sum(ops::abs(*gx))).value_as_double(0), 0.1);
}

TEST(OnnxModel, InputsAreCheckedByNameDtypeAndShape) {
    auto model = Model::load(fixture("cnn_opset13.onnx"), Device::cpu());
    TensorAny x = load_npy("cnn_in0.npy");
    auto message = [&](auto f) {
        try {
            f();
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    std::string m = message([&] { (void)model.run({{"image", x}}); });
    EXPECT_NE(m.find("input 'input0' is missing"), std::string::npos) << m;
    m = message([&] { (void)model.run({{"input0", x}, {"extra", x}}); });
    EXPECT_NE(m.find("got an input named 'extra'"), std::string::npos) << m;
    m = message([&] { (void)model.run({ops::cast(x, DType::f64)}); });
    EXPECT_NE(m.find("input 'input0' must be f32, got f64"), std::string::npos) << m;
    m = message([&] { (void)model.run({ops::narrow(x, 1, 0, 2)}); });
    EXPECT_NE(m.find("must have size 3 in dim 1"), std::string::npos) << m;
    m = message([&] { (void)model.run({ops::reshape(x, Dims{2, 3, 64})}); });
    EXPECT_NE(m.find("must have rank 4"), std::string::npos) << m;
    m = message([&] { (void)model.run(std::vector<TensorAny>{}); });
    EXPECT_NE(m.find("takes 1 inputs, run() got 0"), std::string::npos) << m;
}

TEST(OnnxModel, InspectListsWhatTheFileHolds) {
    const ModelInfo info = inspect(fixture("encoder_opset17.onnx"));
    EXPECT_EQ(info.opset, 17);
    EXPECT_EQ(info.inputs.size(), 1u);
    EXPECT_EQ(info.inputs[0].names[1], "seq");
    EXPECT_TRUE(info.unsupported.empty());
    EXPECT_EQ(info.op_histogram.at("LayerNormalization"), 4);
    EXPECT_GT(info.num_nodes, 100u);
    const auto ops_list = supported_ops();
    EXPECT_TRUE(std::is_sorted(ops_list.begin(), ops_list.end()));
    EXPECT_NE(std::find(ops_list.begin(), ops_list.end(), "Conv"), ops_list.end());
}

}  // namespace
}  // namespace burn::onnx::model_test
