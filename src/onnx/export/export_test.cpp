// ONNX export (docs/onnx.md, "Export"): models traced with onnx::save / onnx::trace, re-imported with
// burn's own onnx::Model and compared with the module's forward; the graph's names, dynamic batch,
// rows that decompose and rows export lacks.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <burn/onnx/export.hpp>
#include <burn/onnx/model.hpp>
#include <burn/tensor/ops.hpp>
#include <filesystem>
#include <set>

#include "onnx/export/export_test_models.hpp"
#include "onnx/export/export_test_util.hpp"

namespace export_test {

using namespace burn;
using namespace export_test_models;

/// max |a - b| over two float tensors of one shape.
double max_diff(const TensorAny& a, const TensorAny& b) {
    EXPECT_EQ(a.shape(), b.shape());
    auto x = ops::into_data(a).convert(DType::f64).to_vec<double>();
    auto y = ops::into_data(b).convert(DType::f64).to_vec<double>();
    double m = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
    return m;
}

::onnx::ModelProto parse(const std::string& bytes) {
    ::onnx::ModelProto m;
    EXPECT_TRUE(m.ParseFromString(bytes));
    return m;
}

/// Exports module at x, re-imports it and checks the output against forward at x and at `other`
/// (another batch size, when the export is dynamic).
template <class M, class T>
void check_roundtrip(const M& module, const T& x, const burn::onnx::ExportOptions& opts = {},
                     const T* other = nullptr) {
    const std::string bytes = burn::onnx::trace_module(module, std::tuple<T>(x), opts);
    auto model = burn::onnx::Model::from_bytes(bytes, Device::cpu());
    auto want = module.forward(x);
    auto got = model.run(std::vector<TensorAny>{x.handle()});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_LE(max_diff(got[0], want.handle()), 1e-5);
    if (other) {
        auto want2 = module.forward(*other);
        auto got2 = model.run(std::vector<TensorAny>{other->handle()});
        EXPECT_LE(max_diff(got2[0], want2.handle()), 1e-5);
    }
}

TEST(OnnxExport, MlpMatchesForward) {
    Device d = Device::cpu();
    d.seed(1);
    auto m = make_mlp(d);
    check_roundtrip(m, Tensor<3>::random({3, 28, 28}, Distribution::Default, d));
}

TEST(OnnxExport, MnistCnnMatchesForward) {
    Device d = Device::cpu();
    d.seed(2);
    auto m = make_cnn(d);
    check_roundtrip(m, Tensor<3>::random({2, 28, 28}, Distribution::Default, d));
}

TEST(OnnxExport, TransformerEncoderMatchesForward) {
    Device d = Device::cpu();
    d.seed(3);
    auto m = make_encoder(d);
    check_roundtrip(m, Tensor<3>::random({2, 7, 32}, Distribution::Normal(0, 1), d));
}

TEST(OnnxExport, PoolsAndNormsMatchForward) {
    Device d = Device::cpu();
    d.seed(4);
    auto m = make_poolnet(d);
    check_roundtrip(m, Tensor<4>::random({2, 3, 17, 17}, Distribution::Normal(0, 1), d));
}

TEST(OnnxExport, DynamicBatchRunsAtAnotherBatch) {
    Device d = Device::cpu();
    d.seed(5);
    burn::onnx::ExportOptions opts;
    opts.dynamic_batch = true;
    {
        auto x2 = Tensor<3>::random({2, 28, 28}, Distribution::Default, d);
        auto x5 = Tensor<3>::random({5, 28, 28}, Distribution::Default, d);
        check_roundtrip(make_cnn(d), x2, opts, &x5);
        check_roundtrip(make_mlp(d), x2, opts, &x5);
    }
    {
        auto x2 = Tensor<3>::random({2, 7, 32}, Distribution::Normal(0, 1), d);
        auto x5 = Tensor<3>::random({5, 7, 32}, Distribution::Normal(0, 1), d);
        check_roundtrip(make_encoder(d), x2, opts, &x5);
    }
    {
        auto x2 = Tensor<4>::random({2, 3, 17, 17}, Distribution::Normal(0, 1), d);
        auto x5 = Tensor<4>::random({5, 3, 17, 17}, Distribution::Normal(0, 1), d);
        check_roundtrip(make_poolnet(d), x2, opts, &x5);
    }
    // the graph declares dim 0 as "batch" on its input and output
    auto m = parse(burn::onnx::trace_module(make_mlp(d), std::tuple{Tensor<3>::zeros({2, 28, 28}, d)}, opts));
    EXPECT_EQ(m.graph().input(0).type().tensor_type().shape().dim(0).dim_param(), "batch");
    EXPECT_EQ(m.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "batch");
    EXPECT_EQ(m.graph().input(0).type().tensor_type().shape().dim(1).dim_value(), 28);
}

TEST(OnnxExport, ModuleOnAnAutodiffDeviceExportsItsInferenceGraph) {
    // the trace runs on the physical device: batch norm uses its running statistics, dropout is off
    Device ad = Device::cpu().autodiff();
    ad.seed(6);
    auto m = make_poolnet(ad);
    auto x = Tensor<4>::random({2, 3, 17, 17}, Distribution::Normal(0, 1), ad);
    auto model = burn::onnx::Model::from_bytes(burn::onnx::trace_module(m, std::tuple{x}), Device::cpu());
    auto on_cpu = m;
    module::to_device(on_cpu, Device::cpu());
    const auto x_cpu = x.to_device(Device::cpu());
    auto got = model.run(std::vector<TensorAny>{x_cpu.handle()});
    EXPECT_LE(max_diff(got[0], on_cpu.forward(x_cpu).handle()), 1e-5);
}

TEST(OnnxExport, NamesOpsetAndInitializers) {
    Device d = Device::cpu();
    auto m = make_mlp(d);
    burn::onnx::ExportOptions opts;
    opts.input_names = {"images"};
    opts.output_names = {"logits"};
    opts.producer_name = "export-test";
    const auto dir = export_test_util::work_dir("names");
    const auto path = (dir / "model.onnx").string();
    burn::onnx::save(m, Tensor<3>::zeros({2, 28, 28}, d), path, opts);
    auto model = burn::onnx::Model::load(path, d);
    EXPECT_EQ(model.opset(), 17);
    EXPECT_EQ(model.producer().rfind("export-test", 0), 0u) << model.producer();
    ASSERT_EQ(model.inputs().size(), 1u);
    EXPECT_EQ(model.inputs()[0].name, "images");
    EXPECT_EQ(model.outputs()[0].name, "logits");
    std::filesystem::remove_all(dir);
    auto proto = parse(burn::onnx::trace_module(m, std::tuple{Tensor<3>::zeros({2, 28, 28}, d)}, opts));
    std::set<std::string> inits;
    for (const auto& t : proto.graph().initializer()) inits.insert(t.name());
    for (const char* n : {"fc1.weight", "fc1.bias", "fc2.weight", "fc3.weight", "fc3.bias"})
        EXPECT_TRUE(inits.count(n)) << n;
    EXPECT_EQ(proto.opset_import(0).version(), 17);
    // every param is named by its path, none is left anonymous
    for (const auto& n : inits) EXPECT_TRUE(n.rfind("const_", 0) != 0 || n.size() < 7) << n;
}

TEST(OnnxExport, RowsWithoutMappingAreDecomposed) {
    Device d = Device::cpu();
    auto x = Tensor<2>::random({3, 5}, Distribution::Uniform(-3, 3), d);
    burn::onnx::TraceFn fn = [](const std::vector<TensorAny>& in) {
        TensorAny t = ops::trunc(in[0]);                    // no ONNX Trunc in opset 17: floor-based
        TensorAny c = ops::cumprod(ops::add(t, in[0]), 1);  // cumprod: exp/log-free decomposition
        return std::vector<TensorAny>{c, ops::argmax(in[0], 1)};
    };
    auto model = burn::onnx::Model::from_bytes(burn::onnx::trace(fn, {x.handle()}), d);
    auto got = model.run(std::vector<TensorAny>{x.handle()});
    auto want = fn({x.handle()});
    ASSERT_EQ(got.size(), 2u);
    const auto w = ops::into_data(want[0]).convert(DType::f64).to_vec<double>();
    double scale = 1;
    for (double v : w) scale = std::max(scale, std::abs(v));
    EXPECT_LE(max_diff(got[0], want[0]), 1e-5 * scale);  // f32 products: relative
    EXPECT_EQ(got[1].dtype(), DType::i32);
    EXPECT_LE(max_diff(got[1], want[1]), 0);
    auto hist = model.op_histogram();
    EXPECT_EQ(hist.count("Trunc"), 0u);
}

TEST(OnnxExport, RowWithoutMappingOrDecompositionThrows) {
    Device d = Device::cpu();
    auto x = Tensor<2>::random({3, 5}, Distribution::Default, d);
    burn::onnx::TraceFn fn = [](const std::vector<TensorAny>& in) {
        TensorAny r = ops::random(in[0].shape(), Distribution::Default, DType::f32, in[0].device());
        return std::vector<TensorAny>{ops::add(in[0], r)};
    };
    try {
        burn::onnx::trace(fn, {x.handle()});
        FAIL() << "expected burn::Error";
    } catch (const burn::Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("'random'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("export lacks it"), std::string::npos) << msg;
    }
}

TEST(OnnxExport, OnlyOpset17) {
    Device d = Device::cpu();
    burn::onnx::ExportOptions opts;
    opts.opset = 13;
    burn::onnx::TraceFn fn = [](const std::vector<TensorAny>& in) { return in; };
    EXPECT_THROW(burn::onnx::trace(fn, {Tensor<1>::zeros({2}, d).handle()}, opts), burn::Error);
}

}  // namespace export_test
