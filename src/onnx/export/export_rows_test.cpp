// ONNX export row by row: functions and small modules that use the covered rows (elementwise,
// layout, indexing, reductions, sort, convs 1d/3d/transposed with groups and dilation, interpolate,
// RMS norm, embedding), traced with onnx::trace and compared with their own result in burn's importer
// and, when BURN_ORT_NODE_PATH is set, in onnxruntime (export_test_util.hpp).
#include <gtest/gtest.h>

#include <burn/nn/conv.hpp>
#include <burn/nn/embedding.hpp>
#include <burn/nn/rms_norm.hpp>
#include <burn/onnx/export.hpp>
#include <burn/onnx/model.hpp>
#include <burn/tensor/module_ops.hpp>

#include "onnx/export/export_test_util.hpp"

namespace export_rows_test {

using namespace burn;
using namespace export_test_util;

/// Traces fn at inputs and checks every output in the importer and in onnxruntime (when present).
/// expect_ops: ONNX ops the graph must hold (the rows were mapped, not decomposed).
void check_fn(const std::string& name, const burn::onnx::TraceFn& fn, const std::vector<TensorAny>& inputs,
              double tol, const std::vector<std::string>& expect_ops) {
    SCOPED_TRACE(name);
    const std::string bytes = burn::onnx::trace(fn, inputs);
    const std::vector<TensorAny> want = fn(inputs);
    auto model = burn::onnx::Model::from_bytes(bytes, Device::cpu());
    const auto hist = model.op_histogram();
    for (const auto& op : expect_ops) EXPECT_TRUE(hist.count(op)) << op << " missing from the graph";
    if (std::getenv("BURN_EXPORT_TEST_VERBOSE"))
        for (const auto& [op, n] : hist) std::cout << name << ": " << op << " x" << n << "\n";
    auto got = model.run(inputs);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_LE(max_diff(got[i], want[i]), tol) << "output " << i;
    if (ort_node_path().empty()) return;
    const fs::path dir = work_dir("rows_" + name);
    const std::string path = (dir / "model.onnx").string();
    burn::onnx::write_model(bytes, path);
    auto ort = run_ort(dir, path, inputs, want.size());
    ASSERT_EQ(ort.size(), want.size()) << "onnxruntime failed on " << path;
    for (std::size_t i = 0; i < ort.size(); ++i)
        EXPECT_LE(max_diff(ort[i], ops::into_data(want[i]).convert(DType::f32)), tol)
            << "onnxruntime output " << i;
    fs::remove_all(dir);
}

template <class M, class T>
void check_module(const std::string& name, const M& m, const T& x, double tol,
                  const std::vector<std::string>& expect_ops) {
    const Device dev = burn::onnx::trace_device(x.device());
    M traced = m;
    module::to_device(traced, dev);
    // the same module on the CPU for the reference, the traced copy inside the trace
    burn::onnx::TraceFn fn = [&](const std::vector<TensorAny>& in) {
        const M& use = in[0].device() == dev ? traced : m;
        return std::vector<TensorAny>{use.forward(T(in[0])).handle()};
    };
    check_fn(name, fn, {x.handle()}, tol, expect_ops);
}

TensorAny f32(TensorAny x) {
    return ops::cast(std::move(x), DType::f32);
}

TEST(OnnxExportRows, Unary) {
    Device d = Device::cpu();
    d.seed(21);
    auto x = Tensor<2>::random({3, 8}, Distribution::Uniform(-0.9, 0.9), d).handle();
    check_fn("unary",
             [](const std::vector<TensorAny>& in) {
                 const TensorAny& x = in[0];
                 TensorAny p = ops::add_scalar(ops::abs(x), 0.1);
                 return std::vector<TensorAny>{ops::neg(x),
                                               ops::sign(x),
                                               ops::recip(p),
                                               ops::sqrt(p),
                                               ops::square(x),
                                               ops::exp(x),
                                               ops::log(p),
                                               ops::log1p(p),
                                               ops::expm1(x),
                                               ops::erf(x),
                                               ops::sin(x),
                                               ops::cos(x),
                                               ops::tan(x),
                                               ops::tanh(x),
                                               ops::sinh(x),
                                               ops::cosh(x),
                                               ops::asin(x),
                                               ops::acos(x),
                                               ops::atan(x),
                                               ops::floor(ops::mul_scalar(x, 4)),
                                               ops::ceil(ops::mul_scalar(x, 4)),
                                               ops::round(ops::mul_scalar(x, 4)),
                                               ops::trunc(ops::mul_scalar(x, 4)),
                                               ops::relu(x),
                                               ops::sigmoid(x),
                                               ops::silu(x),
                                               ops::gelu(x),
                                               ops::gelu_tanh(x),
                                               ops::leaky_relu(x, 0.1),
                                               ops::softplus(ops::mul_scalar(x, 20), 2, 10),
                                               ops::clamp(x, -0.2, 0.3),
                                               ops::powi_scalar(x, 3),
                                               f32(ops::is_nan(ops::log(x)))};
             },
             {x}, 1e-5, {"Erf", "Asin", "LeakyRelu", "Softplus", "Clip", "Pow", "Round", "IsNaN"});
}

TEST(OnnxExportRows, BinaryCompareWhere) {
    Device d = Device::cpu();
    d.seed(22);
    auto a = Tensor<2>::random({3, 4}, Distribution::Uniform(-2, 2), d).handle();
    auto b = Tensor<2>::random({1, 4}, Distribution::Uniform(0.5, 2), d).handle();
    check_fn("binary",
             [](const std::vector<TensorAny>& in) {
                 const TensorAny &a = in[0], &b = in[1];  // b broadcasts over a's rows
                 return std::vector<TensorAny>{ops::add(a, b),
                                               ops::sub(a, b),
                                               ops::mul(a, b),
                                               ops::div(a, b),
                                               ops::powf(ops::abs(a), b),
                                               ops::max_pair(a, b),
                                               ops::min_pair(a, b),
                                               ops::remainder(a, b),
                                               f32(ops::equal(a, ops::floor(a))),
                                               f32(ops::not_equal(a, b)),
                                               f32(ops::greater(a, b)),
                                               f32(ops::greater_equal(a, b)),
                                               f32(ops::lower(a, b)),
                                               f32(ops::lower_equal(a, b)),
                                               ops::where(ops::greater(a, b), a, ops::neg(a)),
                                               ops::add_scalar(ops::mul_scalar(a, 3), 1)};
             },
             {a, b}, 1e-5,
             {"Add", "Pow", "Max", "Min", "Floor", "Not", "GreaterOrEqual", "LessOrEqual", "Where"});
}

TEST(OnnxExportRows, LayoutIndexReduceSort) {
    Device d = Device::cpu();
    d.seed(23);
    auto x = Tensor<3>::random({2, 5, 6}, Distribution::Normal(0, 1), d).handle();
    check_fn(
        "layout",
        [](const std::vector<TensorAny>& in) {
            const TensorAny& x = in[0];
            const Device dev = x.device();
            TensorAny idx = ops::from_data(TensorData(std::vector<int64_t>{4, 0, 2, 2}), dev);
            TensorAny gidx = ops::from_data(
                TensorData(std::vector<int64_t>{0, 5, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4}, Dims{2, 1, 6}), dev);
            auto [sv, si] = ops::sort_with_indices(x, 2, true);
            auto [tv, ti] = ops::topk_with_indices(x, 3, 1);
            auto [mv, mi] = ops::max_dim_with_indices(x, 2);
            return std::vector<TensorAny>{
                ops::reshape(x, Dims{2, 30}),
                ops::permute(x, Dims{2, 0, 1}),
                ops::slice(x, {all, SliceArg(1, 5, 2), SliceArg(-4, std::nullopt)}),
                ops::flip(x, Dims{1}),
                ops::cat({x, ops::mul_scalar(x, 2)}, 1),
                ops::expand(ops::slice(x, {all, SliceArg(0, 1), all}), Dims{3, 2, 4, 6}),
                ops::select(x, 1, idx),
                ops::gather(x, 2, ops::expand(gidx, Dims{2, 5, 6})),
                ops::sum_dim(x, 1),
                ops::mean_dim(x, 2),
                ops::prod_dim(x, 0),
                mv,
                f32(mi),
                ops::min_dim(x, 1),
                f32(ops::argmax(x, 2)),
                f32(ops::argmin(x, 1)),
                ops::softmax(x, 2),
                ops::log_softmax(x, 1),
                ops::cumsum(x, 2),
                sv,
                f32(si),
                tv,
                f32(ti),
                ops::masked_softmax(x, ops::greater(x, ops::mul_scalar(ops::abs(x), 0.5)), 2, -1e9),
                ops::contiguous(ops::permute(x, Dims{0, 2, 1}))};
        },
        {x}, 1e-5,
        {"Reshape", "Transpose", "Slice", "Concat", "Expand", "Gather", "GatherElements", "ReduceSum",
         "ReduceMean", "ReduceProd", "ReduceMax", "ReduceMin", "ArgMax", "ArgMin", "Softmax", "LogSoftmax",
         "CumSum", "TopK"});
}

struct Convs {
    nn::Conv1d c1;
    nn::Conv3d c3;
    nn::ConvTranspose2d t2;
    Tensor<4> forward(const Tensor<4>& x) const {            // x [2, 4, 6, 6]
        auto a = c1.forward(x.reshape<3>({2, 4, 36}));       // grouped, dilated, padded 1d
        auto b = c3.forward(x.reshape<5>({2, 4, 6, 3, 2}));  // 3d, asymmetric stride
        auto c = t2.forward(x);                              // transposed, stride 2
        return c + (a.sum() + b.sum()).reshape<4>({1, 1, 1, 1});
    }
    BURN_MODULE(Convs, c1, c3, t2)
};

TEST(OnnxExportRows, Convolutions) {
    Device d = Device::cpu();
    d.seed(24);
    nn::Conv1dConfig c1{4, 6, 3};
    c1.dilation = 2;
    c1.groups = 2;
    c1.padding = nn::Explicit1d{2};
    nn::Conv3dConfig c3{{4, 3}, {2, 2, 1}};
    c3.stride = {2, 1, 1};
    nn::ConvTranspose2dConfig t2{{4, 2}, {3, 3}};
    t2.stride = {2, 2};
    t2.padding = {1, 1};
    t2.padding_out = {1, 1};
    Convs m{c1.init(d), c3.init(d), t2.init(d)};
    check_module("convs", m, Tensor<4>::random({2, 4, 6, 6}, Distribution::Normal(0, 1), d), 1e-4,
                 {"Conv", "ConvTranspose"});
}

struct Upsample {
    nn::RmsNorm norm;
    nn::Embedding emb;
    Tensor<4> forward(const Tensor<4>& x) const {  // x [2, 3, 4, 5]
        InterpolateOptions nearest, bilinear, bicubic;
        bilinear.mode = InterpolateMode::bilinear;
        bilinear.align_corners = false;
        bicubic.mode = InterpolateMode::bicubic;
        using tensor::module::interpolate;
        auto y = interpolate(x, {7, 9}, nearest) + interpolate(x, {7, 9}, bilinear) +
                 interpolate(x, {7, 9}, bicubic);
        auto ids = Tensor<2, Int>::from_data(
            TensorData(std::vector<int64_t>{1, 3, 0, 2, 2, 1, 3, 0, 1}, Dims{1, 9}), x.device());
        auto e = emb.forward(ids).reshape<4>({1, 1, 9, 7}).swap_dims(2, 3);  // [1, 1, 7, 9]
        return norm.forward(y + e);
    }
    BURN_MODULE(Upsample, norm, emb)
};

TEST(OnnxExportRows, InterpolateRmsNormEmbedding) {
    Device d = Device::cpu();
    d.seed(25);
    Upsample m{nn::RmsNormConfig{9}.init(d), nn::EmbeddingConfig{4, 7}.init(d)};
    check_module("upsample", m, Tensor<4>::random({2, 3, 4, 5}, Distribution::Normal(0, 1), d), 1e-4,
                 {"Resize", "Gather", "Sqrt"});
}

}  // namespace export_rows_test
