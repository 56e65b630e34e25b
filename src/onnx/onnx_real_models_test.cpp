// Real models exported by PyTorch against PyTorch's outputs: torchvision's ResNet-18, MobileNetV2 and
// SqueezeNet 1.1, a TransformerEncoder with a key padding mask and a bidirectional 2-layer LSTM, each
// at opsets 11, 13 and 17 (tests/fixtures/onnx/make_real_models.py; scripts/onnx_real_models.sh
// writes them, about 200 MB, into the build directory). Every model x opset loads, runs on the CPU
// (and on CUDA when there is a GPU) and matches every output to 1e-4 relative to the output's largest
// magnitude; the worst error of each case is printed. A model with ops this build lacks fails with
// their list. Without BURN_ONNX_REAL_DIR the suite skips.
//
// Test names: OnnxReal/Models.MatchesPyTorch/<model>_opset<N>_<cpu|cuda> and
// OnnxReal/OneRow.OneRowAlone/<model>_cpu. The CNNs at batch 2 take about a second each in Release,
// far longer under ASan: the sanitizer stage can skip them with --gtest_filter=-OnnxReal*cnn_*
// (their names carry "cnn_": cnn_resnet18, cnn_mobilenet_v2, cnn_squeezenet1_1) or skip the suite
// by leaving BURN_ONNX_REAL_DIR unset.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "burn/onnx/model.hpp"
#include "burn/store/npy.hpp"
#include "cuda_test_util.hpp"
#include "platform/env.hpp"
#include "relative_error.hpp"

namespace burn::onnx::real_models_test {
namespace {

struct RealModel {
    const char* label;  // the test name's part: "cnn_" marks the big ones
    const char* file;   // the file prefix in BURN_ONNX_REAL_DIR
    int inputs;
    int outputs;
};

constexpr RealModel kModels[] = {
    {"cnn_resnet18", "resnet18", 1, 1},
    {"cnn_mobilenet_v2", "mobilenet_v2", 1, 1},
    {"cnn_squeezenet1_1", "squeezenet1_1", 1, 1},
    {"transformer", "transformer", 2, 1},
    {"lstm", "lstm", 1, 3},
};

// gtest prints the parameter of a failing case: the model's name, not its bytes
void PrintTo(const RealModel& m, std::ostream* os) {
    *os << m.file;
}

constexpr double kRelTol = 1e-4;

std::string real_dir() {
    return platform::env_var("BURN_ONNX_REAL_DIR").value_or("");
}

// The folder of the models, or "" when BURN_ONNX_REAL_DIR is unset or holds no complete export.
std::string require_dir() {
    const std::string dir = real_dir();
    if (dir.empty() || !std::filesystem::is_regular_file(std::filesystem::path(dir) / "manifest.txt"))
        return "";
    return dir;
}

std::string path_of(const std::string& dir, const std::string& file) {
    return (std::filesystem::path(dir) / file).string();
}

using burn::testing::relative_error;

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Fails with the list of ops this build lacks (the model cannot load); true when there are none.
bool all_ops_supported(const std::string& path, const std::string& what) {
    const ModelInfo info = inspect(path);
    if (info.unsupported.empty()) return true;
    std::string list;
    for (const auto& u : info.unsupported) list += (list.empty() ? "" : ", ") + u;
    ADD_FAILURE() << what << " needs " << info.unsupported.size() << " op(s) this build lacks: " << list
                  << " (it passes once the importer runs them)";
    return false;
}

// Loads, runs and compares every output; narrow_row >= 0 runs only that row of the batch (the
// dynamic batch dim: dim 0 of every input and output, dim 1 of the LSTM's h and c).
void check_model(const RealModel& m, int opset, const Device& device, int64_t narrow_row = -1) {
    const std::string dir = require_dir();
    if (dir.empty())
        GTEST_SKIP() << "BURN_ONNX_REAL_DIR is not set or has no manifest.txt (scripts/onnx_real_models.sh)";
    const std::string file = std::string(m.file) + "_opset" + std::to_string(opset) + ".onnx";
    const std::string what = std::string(m.file) + " opset " + std::to_string(opset) + " on " + device.str();
    if (!all_ops_supported(path_of(dir, file), what)) return;
    auto t0 = std::chrono::steady_clock::now();
    auto model = Model::load(path_of(dir, file), device);
    const double load_ms = ms_since(t0);
    EXPECT_EQ(model.opset(), opset);
    ASSERT_EQ(model.inputs().size(), static_cast<std::size_t>(m.inputs));
    ASSERT_EQ(model.outputs().size(), static_cast<std::size_t>(m.outputs));
    std::vector<TensorAny> inputs;
    for (int i = 0; i < m.inputs; ++i) {
        TensorAny x = ops::from_data(
            read_npy(path_of(dir, std::string(m.file) + "_in" + std::to_string(i) + ".npy")), device);
        inputs.push_back(narrow_row >= 0 ? ops::narrow(x, 0, narrow_row, 1) : x);
    }
    t0 = std::chrono::steady_clock::now();
    const std::vector<TensorAny> outs = model.run(inputs);
    device.sync();
    const double run_ms = ms_since(t0);
    ASSERT_EQ(outs.size(), static_cast<std::size_t>(m.outputs));
    double worst = 0;
    std::string worst_name = "-";
    for (int i = 0; i < m.outputs; ++i) {
        const std::string name = model.outputs()[static_cast<std::size_t>(i)].name;
        TensorData want = read_npy(path_of(dir, std::string(m.file) + "_out" + std::to_string(i) + ".npy"));
        if (narrow_row >= 0) {
            const int64_t dim =
                (std::string(m.file) == "lstm" && i > 0) ? 1 : 0;  // h, c: [dirs*layers, batch, h]
            want = ops::into_data(ops::narrow(ops::from_data(want, Device::cpu()), dim, narrow_row, 1));
        }
        ASSERT_EQ(outs[static_cast<std::size_t>(i)].shape(), want.shape()) << what << ", " << name;
        const double err = relative_error(outs[static_cast<std::size_t>(i)], want);
        EXPECT_LE(err, kRelTol) << what << ": output " << name << " differs from PyTorch's by " << err
                                << " of its largest magnitude";
        if (!(err <= worst)) {  // NaN and infinity count as the worst
            worst = err;
            worst_name = name;
        }
    }
    std::printf("[ OnnxReal ] %-14s opset %2d %-6s%s: worst rel err %.2e (%s), load %.0f ms, run %.0f ms\n",
                m.file, opset, device.str().c_str(), narrow_row >= 0 ? " one row" : "", worst,
                worst_name.c_str(), load_ms, run_ms);
}

class Models : public ::testing::TestWithParam<std::tuple<RealModel, int, bool>> {};

TEST_P(Models, MatchesPyTorch) {
    const auto& [m, opset, cuda] = GetParam();
    if (cuda) {
        REQUIRE_CUDA();
        // PyTorch's outputs are exact f32 (CPU); with TF32 convolutions (the default) the CNNs differ by
        // about 4e-4 of the largest logit.
        [[maybe_unused]] const cuda_test::ExactDeviceMath exact;
        check_model(m, opset, Device::cuda());
    } else {
        check_model(m, opset, Device::cpu());
    }
}

INSTANTIATE_TEST_SUITE_P(OnnxReal, Models,
                         ::testing::Combine(::testing::ValuesIn(kModels), ::testing::Values(11, 13, 17),
                                            ::testing::Bool()),
                         [](const auto& info) {
                             return std::string(std::get<0>(info.param).label) + "_opset" +
                                    std::to_string(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_cuda" : "_cpu");
                         });

// The dynamic batch (and sequence) dims of the exports: batch row 1 alone gives PyTorch's row 1 (for
// the transformer, the padded sequence: its mask row comes along).
class OneRow : public ::testing::TestWithParam<RealModel> {};

TEST_P(OneRow, OneRowAlone) {
    check_model(GetParam(), 17, Device::cpu(), 1);
}

INSTANTIATE_TEST_SUITE_P(OnnxReal, OneRow, ::testing::ValuesIn(kModels),
                         [](const auto& info) { return std::string(info.param.label) + "_cpu"; });

}  // namespace
}  // namespace burn::onnx::real_models_test
