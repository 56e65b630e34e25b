// burn-onnx generate: the fixture models generated at build time (tests/CMakeLists.txt,
// burn_onnx_generate) give PyTorch's outputs and exactly the runtime's; the generator's names, its
// direct-call emitters, its errors, and burn::onnx::call.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "burn/onnx/model.hpp"
#include "burn/onnx/node_call.hpp"
#include "burn/store/npy.hpp"
#include "fixture_root.hpp"
#include "onnx/codegen.hpp"
#include "onnx/op_table.hpp"

#ifdef BURN_HAVE_ONNX_CODEGEN
#include "CnnGen.hpp"
#include "EncoderGen.hpp"
#include "MlpGen.hpp"
#endif

namespace burn::testing {
/// The .bpk that burn_onnx_generate wrote for a fixture model (tests/onnx_codegen_paths.cpp).
std::string onnx_generated_bpk(const std::string& name);
}  // namespace burn::testing

namespace burn::onnx::codegen_test {
namespace {

std::string fixture(const std::string& name) {
    return (burn::testing::fixture_root() / "onnx" / name).string();
}

TensorAny npy(const std::string& name) {
    return ops::from_data(read_npy(fixture(name)), Device::cpu());
}

void expect_same(const TensorAny& a, const TensorAny& b) {
    const TensorData x = ops::into_data(a), y = ops::into_data(b);
    EXPECT_EQ(x.dtype(), y.dtype());
    EXPECT_EQ(x.shape(), y.shape());
    EXPECT_TRUE(x.bytes() == y.bytes()) << "generated code and the runtime differ";
}

#ifdef BURN_HAVE_ONNX_CODEGEN
/// The generated struct against PyTorch's outputs (1e-4 relative) and the runtime (bit for bit).
template <class Net>
void check_generated(const std::string& bpk, const std::string& model_file, const std::string& stem,
                     int outputs) {
    const Net net = Net::load(bpk, Device::cpu());
    const TensorAny x = npy(stem + "_in0.npy");
    const std::vector<TensorAny> got = net.forward(x);
    ASSERT_EQ(got.size(), static_cast<std::size_t>(outputs));
    const auto model = Model::load(fixture(model_file), Device::cpu());
    const std::vector<TensorAny> want = model.run(std::vector<TensorAny>{x});
    for (int i = 0; i < outputs; ++i) {
        const auto k = static_cast<std::size_t>(i);
        ops::into_data(got[k]).assert_approx_eq(read_npy(fixture(stem + "_out" + std::to_string(i) + ".npy")),
                                                1e-4, 1e-5);
        expect_same(got[k], want[k]);
    }
    // a module like any other: its parameters are visible, it saves and loads
    EXPECT_GT(net.num_params(), 0u);
}

TEST(OnnxCodegen, CnnMatchesPyTorchAndRuntime) {
    check_generated<burn_gen::CnnGen>(burn::testing::onnx_generated_bpk("CnnGen"), "cnn_opset13.onnx", "cnn",
                                      1);
}

TEST(OnnxCodegen, MlpMatchesPyTorchAndRuntime) {
    check_generated<burn_gen::MlpGen>(burn::testing::onnx_generated_bpk("MlpGen"), "mlp_opset11.onnx", "mlp",
                                      2);
}

TEST(OnnxCodegen, EncoderMatchesPyTorchAndRuntime) {
    check_generated<burn_gen::EncoderGen>(burn::testing::onnx_generated_bpk("EncoderGen"),
                                          "encoder_opset17.onnx", "encoder", 1);
}

TEST(OnnxCodegen, FieldsAreNamedAfterTheModel) {
    const auto net = burn_gen::CnnGen::load(burn::testing::onnx_generated_bpk("CnnGen"), Device::cpu());
    std::vector<std::string> names;
    net.visit_params([&](const std::string& path, const auto&) { names.push_back(path); });
    // initializers with real names keep them; "onnx::Conv_25" is named after its node (/conv1/Conv)
    EXPECT_NE(std::find(names.begin(), names.end(), "fc_weight"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "conv1_weight"), names.end());
}

TEST(OnnxCodegen, GeneratedModelRunsOnAnAutodiffDeviceWithGradients) {
    const Device ad = Device::cpu().autodiff();
    const auto net = burn_gen::MlpGen::load(burn::testing::onnx_generated_bpk("MlpGen"), ad);
    const TensorAny x = ops::to_device(npy("mlp_in0.npy"), ad);
    const TensorAny loss = ops::sum(net.forward(x)[0]);
    auto grads = ops::backward(loss);
    std::size_t with_grad = 0;
    net.visit_params([&](const std::string&, const auto& p) {
        if (ops::grad(p.val().handle(), grads).has_value()) ++with_grad;
    });
    EXPECT_GT(with_grad, 0u);
}
#endif

TEST(OnnxCodegen, WritesAReadableHeaderAndABurnpack) {
    const auto dir = std::filesystem::temp_directory_path() / "burn_onnx_codegen_test";
    std::filesystem::remove_all(dir);
    const auto r = detail::generate_code(fixture("cnn_opset13.onnx"), dir.string(), {"Net", "my::models"});
    EXPECT_EQ(r.name, "Net");
    EXPECT_TRUE(std::filesystem::exists(r.burnpack));
    std::ifstream in(r.header);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("namespace my::models {"), std::string::npos);
    EXPECT_NE(text.find("struct Net {"), std::string::npos);
    EXPECT_NE(text.find("BURN_MODULE(Net, "), std::string::npos);
    EXPECT_NE(text.find("burn::ops::conv2d("), std::string::npos) << text;        // a direct emitter
    EXPECT_NE(text.find("burn::onnx::NodeSpec(\"MaxPool\""), std::string::npos);  // the generic path
    EXPECT_NE(text.find("// /conv1/Conv (Conv)"), std::string::npos);
    EXPECT_GT(r.direct, 0u);
    EXPECT_LT(r.direct, r.nodes);
    std::filesystem::remove_all(dir);
}

TEST(OnnxCodegen, SubgraphsAreRefusedNamingTheNode) {
    const auto dir = std::filesystem::temp_directory_path() / "burn_onnx_codegen_loop";
    try {
        detail::generate_code(fixture("loop_if_opset13.onnx"), dir.string(), {});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("subgraph"), std::string::npos) << m;
        EXPECT_NE(m.find("burn::onnx::Model"), std::string::npos) << m;
    }
    std::filesystem::remove_all(dir);
}

TEST(OnnxCodegen, Names) {
    EXPECT_EQ(detail::module_path("/layer1/layer1.0/conv1/Conv"), "layer1.0.conv1");
    EXPECT_EQ(detail::module_path("/features/features.1/conv/conv.0/conv.0.0/Conv"), "features.1.conv.0.0");
    EXPECT_EQ(detail::module_path("Gemm_0"), "");
    EXPECT_EQ(detail::sanitize("/layer1/layer1.0/Relu_output_0"), "layer1_layer1_0_Relu_output_0");
    EXPECT_EQ(detail::sanitize("0"), "v_0");
    EXPECT_EQ(detail::sanitize("class"), "class_");
    EXPECT_EQ(detail::camel("resnet18_opset13"), "Resnet18Opset13");
    EXPECT_EQ(detail::double_literal(0.5), "0.5");
    EXPECT_EQ(std::stod(detail::double_literal(0.1)), 0.1);
}

TEST(OnnxCodegen, CallRunsTheTableEntry) {
    const TensorAny x =
        ops::from_data(TensorData(std::vector<float>{-1, 2, -3, 4}, Dims{2, 2}), Device::cpu());
    const auto y = call(NodeSpec("LeakyRelu", 13, "lrelu").f("alpha", 0.5), {x}, Device::cpu());
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(ops::into_data(y[0]).to_vec<float>(), (std::vector<float>{-0.5f, 2, -1.5f, 4}));
    try {
        call(NodeSpec("NoSuchOp", 13, "/blk/x"), {x}, Device::cpu());
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("/blk/x"), std::string::npos) << m;
        EXPECT_NE(m.find("NoSuchOp"), std::string::npos) << m;
    }
    const TensorAny l = literal_ints(DType::i32, {3}, {1, -2, 3}, Device::cpu());
    EXPECT_EQ(l.dtype(), DType::i32);
    EXPECT_EQ(ops::into_data(l).to_vec<int32_t>(), (std::vector<int32_t>{1, -2, 3}));
}

TEST(OnnxCodegen, EmittersWriteTheDirectCallOrDeclineForTheGenericPath) {
    const detail::OpEntry* conv = detail::op_table().find("", "Conv");
    ASSERT_TRUE(conv && conv->emit);
    const TensorAny w = ops::full(Dims{4, 2, 3, 3}, 1.0, DType::f32, Device::cpu());
    const std::vector<TensorAny> none;
    NodeSpec spec("Conv", 13, "c");
    spec.ints("pads", {1, 0, 2, 0}).ints("strides", {2, 1});
    const detail::OpContext op(spec.node(), 13, Device::cpu(), none);
    const std::string e = conv->emit(detail::EmitContext{op, {"x", "w", ""}, {nullptr, &w, nullptr}});
    EXPECT_EQ(
        e,
        "burn::ops::conv2d(x, w, std::nullopt, burn::ConvOptions<2>{.stride = {2, 1}, .padding = {1, 0}, "
        ".dilation = {1, 1}, .groups = 1, .padding_end = std::array<std::size_t, 2>{2, 0}})");
    // the same conv computed both ways
    const TensorAny x =
        ops::random(Dims{1, 2, 7, 6}, Distribution::Uniform(-1, 1), DType::f32, Device::cpu());
    const TensorAny direct = ops::conv2d(x, w, std::nullopt,
                                         ConvOptions<2>{.stride = {2, 1},
                                                        .padding = {1, 0},
                                                        .dilation = {1, 1},
                                                        .groups = 1,
                                                        .padding_end = std::array<std::size_t, 2>{2, 0}});
    expect_same(direct, call(spec, {x, w}, Device::cpu())[0]);
    // a weight computed at run time or auto_pad: left to the generic call
    EXPECT_EQ(conv->emit(detail::EmitContext{op, {"x", "w"}, {nullptr, nullptr}}), "");
    NodeSpec same("Conv", 13, "c2");
    same.s("auto_pad", "SAME_UPPER");
    const detail::OpContext op2(same.node(), 13, Device::cpu(), none);
    EXPECT_EQ(conv->emit(detail::EmitContext{op2, {"x", "w"}, {nullptr, &w}}), "");
}

}  // namespace
}  // namespace burn::onnx::codegen_test
