// Generated code for the real models: scripts/onnx_codegen_real.sh exports them
// (scripts/onnx_real_models.sh), configures with -DBURN_ONNX_REAL_DIR, builds this program (its five
// headers are generated at build time by burn_onnx_generate in tests/CMakeLists.txt: resnet18 at opset
// 17, mobilenet_v2 at 13, squeezenet1_1 at 11, the TransformerEncoder at 17 and the LSTM at 11) and runs
// it. Each generated struct loads its Burnpack, runs on the CPU (and on CUDA when there is a GPU) and
// matches PyTorch's outputs to 1e-4 relative to the output's largest magnitude, and the runtime
// (onnx::Model on the same file) to 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "LstmOpset11.hpp"
#include "MobilenetV2Opset13.hpp"
#include "Resnet18Opset17.hpp"
#include "Squeezenet11Opset11.hpp"
#include "TransformerOpset17.hpp"
#include "burn/onnx/model.hpp"
#include "burn/store/npy.hpp"
#include "cuda_test_util.hpp"
#include "relative_error.hpp"

namespace burn::onnx::codegen_real {
namespace {

std::string path_of(const std::string& file) {
    return (std::filesystem::path(BURN_ONNX_REAL_DIR_PATH) / file).string();
}

using burn::testing::relative_error;

/// forward(net, inputs) runs the generated struct; compares with PyTorch and with the runtime.
template <class Net, class Forward>
void check(const char* bpk, const std::string& stem, int opset, int inputs, int outputs, const Device& device,
           Forward forward) {
    const std::string model_file = stem + "_opset" + std::to_string(opset) + ".onnx";
    const auto t0 = std::chrono::steady_clock::now();
    const Net net = Net::load(bpk, device);
    std::vector<TensorAny> in;
    for (int i = 0; i < inputs; ++i)
        in.push_back(ops::from_data(read_npy(path_of(stem + "_in" + std::to_string(i) + ".npy")), device));
    const auto t1 = std::chrono::steady_clock::now();
    const std::vector<TensorAny> got = forward(net, in);
    const auto t2 = std::chrono::steady_clock::now();
    ASSERT_EQ(got.size(), static_cast<std::size_t>(outputs));
    const auto runtime = Model::load(path_of(model_file), device);
    const std::vector<TensorAny> want = runtime.run(in);
    double worst = 0, vs_runtime = 0;
    for (int i = 0; i < outputs; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double e =
            relative_error(got[k], read_npy(path_of(stem + "_out" + std::to_string(i) + ".npy")));
        EXPECT_LT(e, 1e-4) << stem << " output " << i;
        worst = std::max(worst, e);
        vs_runtime = std::max(vs_runtime, relative_error(got[k], ops::into_data(want[k])));
    }
    EXPECT_LT(vs_runtime, 1e-6) << stem;
    using ms = std::chrono::duration<double, std::milli>;
    std::printf(
        "[ OnnxCodegenReal ] %s opset %d %s: worst rel err %.3g vs PyTorch, %.3g vs the runtime, "
        "load %.0f ms, forward %.0f ms\n",
        stem.c_str(), opset, std::string(device.backend_name()).c_str(), worst, vs_runtime,
        ms(t1 - t0).count(), ms(t2 - t1).count());
}

void all_models(const Device& d) {
    using V = std::vector<TensorAny>;
    check<real::Resnet18Opset17>(BURN_ONNX_BPK_Resnet18Opset17, "resnet18", 17, 1, 1, d,
                                 [](const auto& n, const V& in) { return n.forward(in[0]); });
    check<real::MobilenetV2Opset13>(BURN_ONNX_BPK_MobilenetV2Opset13, "mobilenet_v2", 13, 1, 1, d,
                                    [](const auto& n, const V& in) { return n.forward(in[0]); });
    check<real::Squeezenet11Opset11>(BURN_ONNX_BPK_Squeezenet11Opset11, "squeezenet1_1", 11, 1, 1, d,
                                     [](const auto& n, const V& in) { return n.forward(in[0]); });
    check<real::TransformerOpset17>(BURN_ONNX_BPK_TransformerOpset17, "transformer", 17, 2, 1, d,
                                    [](const auto& n, const V& in) { return n.forward(in[0], in[1]); });
    check<real::LstmOpset11>(BURN_ONNX_BPK_LstmOpset11, "lstm", 11, 1, 3, d,
                             [](const auto& n, const V& in) { return n.forward(in[0]); });
}

TEST(OnnxCodegenReal, Cpu) {
    all_models(Device::cpu());
}

TEST(OnnxCodegenReal, Cuda) {
    REQUIRE_CUDA();
    // f32 convolutions: with TF32 (the default, as PyTorch's) ResNet-18 differs from PyTorch's f32 by 3.9e-4
    [[maybe_unused]] const cuda_test::ExactDeviceMath exact;
    all_models(Device::cuda());
}

}  // namespace
}  // namespace burn::onnx::codegen_real
