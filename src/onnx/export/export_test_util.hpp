#pragma once
// What the ONNX export suites share: the largest difference between two tensors, and onnxruntime
// (npm onnxruntime-node under node, found through BURN_ORT_NODE_PATH) run on an exported model through
// tests/fixtures/onnx_export/ort_run.js.
#include <unistd.h>

#include <burn/store/npy.hpp>
#include <burn/tensor/ops.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fixture_root.hpp"

namespace export_test_util {

namespace fs = std::filesystem;
using namespace burn;

/// max |a - b| (in float64) over two tensors of one shape; infinity when the shapes differ.
inline double max_diff(const TensorData& a, const TensorData& b) {
    if (a.shape() != b.shape()) return INFINITY;
    auto x = a.convert(DType::f64).to_vec<double>();
    auto y = b.convert(DType::f64).to_vec<double>();
    double m = 0;
    for (std::size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
    return m;
}
inline double max_diff(const TensorAny& a, const TensorAny& b) {
    return max_diff(ops::into_data(a), ops::into_data(b));
}

/// A fresh folder under the temporary directory for one test (the process id keeps concurrent runs
/// apart); the caller removes it.
inline fs::path work_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / ("burn_export_" + name + "_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}

/// The node_modules folder holding onnxruntime-node, or "" when it or node is absent.
inline std::string ort_node_path() {
    const char* p = std::getenv("BURN_ORT_NODE_PATH");
    if (!p || !fs::exists(fs::path(p) / "onnxruntime-node" / "package.json")) return "";
    if (std::system("node --version > /dev/null 2>&1") != 0) return "";
    return p;
}

/// Runs model in onnxruntime on float inputs (written as f32 .npy in dir) and returns its outputs
/// (as f32), or {} when node failed.
inline std::vector<TensorData> run_ort(const fs::path& dir, const std::string& model,
                                       const std::vector<TensorAny>& inputs, std::size_t num_outputs = 1) {
    const fs::path script = burn::testing::fixture_root() / "onnx_export" / "ort_run.js";
    std::string cmd = "NODE_PATH='" + ort_node_path() + "' node '" + script.string() + "' '" + model + "' '" +
                      (dir / "out").string() + "'";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const fs::path p = dir / ("in" + std::to_string(i) + ".npy");
        write_npy(p.string(), ops::into_data(inputs[i]).convert(DType::f32));
        cmd += " '" + p.string() + "'";
    }
    if (std::system(cmd.c_str()) != 0) return {};
    std::vector<TensorData> outs;
    for (std::size_t i = 0; i < num_outputs; ++i)
        outs.push_back(read_npy((dir / ("out" + std::to_string(i) + ".npy")).string()));
    return outs;
}

}  // namespace export_test_util
