// ONNX export against onnxruntime (npm onnxruntime-node 1.30.0 under node): the models of
// export_test_models.hpp exported with burn::onnx::save run in onnxruntime with the same outputs as the
// module's forward, also at another batch size when exported with a dynamic batch. Skips unless
// BURN_ORT_NODE_PATH names a node_modules folder holding onnxruntime-node and node runs
// (scripts/onnx_export_ort.sh installs it and runs this suite); tests/fixtures/onnx_export/ort_run.js
// is onnxruntime's side.
#include <gtest/gtest.h>

#include <burn/onnx/export.hpp>
#include <filesystem>

#include "onnx/export/export_test_models.hpp"
#include "onnx/export/export_test_util.hpp"

namespace export_ort_test {

using namespace burn;
using namespace export_test_models;
using namespace export_test_util;

/// Exports module at x (dynamic batch), runs it in onnxruntime at x and at x_other and compares.
template <class M, class T>
void check_ort(const std::string& name, const M& module, const T& x, const T& x_other) {
    if (ort_node_path().empty())
        GTEST_SKIP() << "node or onnxruntime-node absent (scripts/onnx_export_ort.sh installs it)";
    const fs::path dir = work_dir(name);
    const std::string model = (dir / "model.onnx").string();
    burn::onnx::ExportOptions opts;
    opts.dynamic_batch = true;
    burn::onnx::save(module, x, model, opts);
    for (const T* in : {&x, &x_other}) {
        auto outs = run_ort(dir, model, {in->handle()});
        ASSERT_EQ(outs.size(), 1u) << "onnxruntime failed on " << model;
        const double diff = max_diff(outs[0], ops::into_data(module.forward(*in).handle()));
        EXPECT_LE(diff, 1e-5) << name << " at batch " << in->shape()[0];
        std::cout << "[ort] " << name << " batch " << in->shape()[0] << ": max |ort - burn| = " << diff
                  << "\n";
    }
    fs::remove_all(dir);
}

TEST(OnnxExportOrt, Mlp) {
    Device d = Device::cpu();
    d.seed(11);
    check_ort("mlp", make_mlp(d), Tensor<3>::random({2, 28, 28}, Distribution::Default, d),
              Tensor<3>::random({5, 28, 28}, Distribution::Default, d));
}

TEST(OnnxExportOrt, MnistCnn) {
    Device d = Device::cpu();
    d.seed(12);
    check_ort("cnn", make_cnn(d), Tensor<3>::random({2, 28, 28}, Distribution::Default, d),
              Tensor<3>::random({5, 28, 28}, Distribution::Default, d));
}

TEST(OnnxExportOrt, TransformerEncoder) {
    Device d = Device::cpu();
    d.seed(13);
    check_ort("encoder", make_encoder(d), Tensor<3>::random({2, 7, 32}, Distribution::Normal(0, 1), d),
              Tensor<3>::random({5, 7, 32}, Distribution::Normal(0, 1), d));
}

TEST(OnnxExportOrt, PoolsAndNorms) {
    Device d = Device::cpu();
    d.seed(14);
    check_ort("poolnet", make_poolnet(d), Tensor<4>::random({2, 3, 17, 17}, Distribution::Normal(0, 1), d),
              Tensor<4>::random({5, 3, 17, 17}, Distribution::Normal(0, 1), d));
}

}  // namespace export_ort_test
