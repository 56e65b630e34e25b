// Pooling layers against PyTorch (tests/fixtures/nn/pool.json: outputs, max indices and input
// gradients, f64 and f32), plus configs, Same padding and errors.
#include <gtest/gtest.h>

#include "nn/nn_test_util.hpp"

namespace burn::nn {
namespace {

using namespace testing;

std::array<std::size_t, 2> two(const std::vector<std::size_t>& v) { return {v[0], v[1]}; }

TensorAny run_layer(const Fixture& f, const TensorAny& x) {
    if (f.op == "max_pool2d") {
        MaxPool2dConfig c{two(f.sizes("kernel_size")), two(f.sizes("stride"))};
        c.padding = Explicit2d{f.sizes("padding")[0], f.sizes("padding")[1]};
        c.dilation = two(f.sizes("dilation"));
        c.ceil_mode = f.flag("ceil_mode");
        return c.init().forward_any(x);
    }
    if (f.op == "max_pool1d") {
        MaxPool1dConfig c{f.sizes("kernel_size")[0], f.sizes("stride")[0], Explicit1d{f.sizes("padding")[0]},
                          f.sizes("dilation")[0], f.flag("ceil_mode")};
        return c.init().forward_any(x);
    }
    if (f.op == "avg_pool2d") {
        AvgPool2dConfig c{two(f.sizes("kernel_size")), two(f.sizes("stride")),
                          Explicit2d{f.sizes("padding")[0], f.sizes("padding")[1]}, f.flag("count_include_pad"),
                          f.flag("ceil_mode")};
        return c.init().forward_any(x);
    }
    if (f.op == "avg_pool1d") {
        AvgPool1dConfig c{f.sizes("kernel_size")[0], f.sizes("stride")[0], Explicit1d{f.sizes("padding")[0]},
                          f.flag("count_include_pad"), f.flag("ceil_mode")};
        return c.init().forward_any(x);
    }
    if (f.op == "adaptive_avg_pool2d") return AdaptiveAvgPool2dConfig{two(f.sizes("output_size"))}.init().forward_any(x);
    if (f.op == "adaptive_avg_pool1d") return AdaptiveAvgPool1dConfig{f.sizes("output_size")[0]}.init().forward_any(x);
    ADD_FAILURE() << "unknown fixture op " << f.op;
    return x;
}

TEST(PoolLayers, MatchPyTorchForwardAndGradients) {
    const Device ad = Device::cpu().autodiff();
    int checked = 0;
    for (const Fixture& f : load_fixtures("pool")) {
        for (DType dt : {DType::f64, DType::f32}) {
            TensorAny x = ops::require_grad(f.tensor("x", dt, ad));
            TensorAny y = run_layer(f, x);
            expect_close(y, f, "y", dt);
            Gradients g = ops::backward(weighted_loss(y, f));
            expect_close(*ops::grad(x, g), f, "gx", dt);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 22);
}

TEST(PoolLayers, MaxIndicesMatchPyTorch) {
    const Device cpu = Device::cpu();
    for (const Fixture& f : load_fixtures("pool")) {
        if (!f.has("indices")) continue;
        SCOPED_TRACE(f.name);
        const auto k = f.sizes("kernel_size"), s = f.sizes("stride"), p = f.sizes("padding"), d = f.sizes("dilation");
        TensorAny x = f.tensor("x", DType::f32, cpu);
        TensorAny ind = f.op == "max_pool2d"
                            ? ops::max_pool2d_with_indices(x, two(k), two(s), two(p), two(d), f.flag("ceil_mode")).second
                            : ops::max_pool1d_with_indices(x, k[0], s[0], p[0], d[0], f.flag("ceil_mode")).second;
        EXPECT_EQ(ind.dtype(), DType::i32);
        auto got = ops::into_data(ops::cast(ind, DType::f64)).to_vec<double>();
        EXPECT_EQ(got, f.values("indices"));
    }
}

TEST(PoolLayers, TypedFunctionalForms) {
    auto x = Tensor<4>::from_floats({{{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}}});
    auto m = tensor::module::max_pool2d(x, {2, 2}, {2, 2}, {0, 0});
    EXPECT_EQ(m.to_vec<float>(), (std::vector<float>{6, 8, 14, 16}));
    auto [v, i] = tensor::module::max_pool2d_with_indices(x, {2, 2}, {2, 2}, {0, 0});
    EXPECT_EQ(i.to_vec<int32_t>(), (std::vector<int32_t>{5, 7, 13, 15}));
    auto a = tensor::module::avg_pool2d(x, {2, 2}, {2, 2}, {0, 0});
    EXPECT_EQ(a.to_vec<float>(), (std::vector<float>{3.5f, 5.5f, 11.5f, 13.5f}));
    auto g = tensor::module::adaptive_avg_pool2d(x, {1, 1});
    EXPECT_EQ(g.to_vec<float>(), (std::vector<float>{8.5f}));
    auto l = Tensor<3>::from_floats({{{1, 3, 2, 5, 4}}});
    EXPECT_EQ(tensor::module::max_pool1d(l, 2, 2, 0).to_vec<float>(), (std::vector<float>{3, 5}));
    EXPECT_EQ(tensor::module::avg_pool1d(l, 2, 1, 0).to_vec<float>(), (std::vector<float>{2, 2.5f, 3.5f, 4.5f}));
    EXPECT_EQ(tensor::module::adaptive_avg_pool1d(l, 2).to_vec<float>(), (std::vector<float>{2, 11.0f / 3}));
}

TEST(PoolLayers, SamePaddingKeepsTheSize) {
    auto mp = MaxPool2dConfig{{3, 2}}.with_padding(Same{}).init();
    EXPECT_EQ(mp.forward(Tensor<4>::ones({1, 2, 5, 6})).dims(), (Shape<4>{1, 2, 5, 6}));
    auto ap = AvgPool1dConfig{4}.with_padding(Same{}).with_count_include_pad(false).init();
    auto y = ap.forward(Tensor<3>::ones({1, 1, 7}));
    EXPECT_EQ(y.dims(), (Shape<3>{1, 1, 7}));
    for (float v : y.to_vec<float>()) EXPECT_FLOAT_EQ(v, 1.0f);
}

TEST(PoolLayers, StrideDefaultsToOneLikeBurn) {
    auto mp = MaxPool2dConfig{{2, 2}}.init();
    EXPECT_EQ(mp.forward(Tensor<4>::ones({1, 1, 4, 4})).dims(), (Shape<4>{1, 1, 3, 3}));
}

TEST(PoolLayers, ConfigsRoundTripThroughJson) {
    auto c = MaxPool2dConfig{{3, 3}, {2, 2}}.with_padding(Explicit2d{1, 1}).with_ceil_mode(true);
    EXPECT_EQ(MaxPool2dConfig::from_json_string(c.to_json_string()), c);
    auto a = AvgPool1dConfig{3}.with_padding(Same{}).with_count_include_pad(false);
    EXPECT_EQ(AvgPool1dConfig::from_json_string(a.to_json_string()), a);
    auto ad = AdaptiveAvgPool2dConfig{{2, 3}};
    EXPECT_EQ(AdaptiveAvgPool2dConfig::from_json_string(ad.to_json_string()), ad);
    EXPECT_EQ((MaxPool2dConfig{{2, 2}}.init().num_params()), 0u);
}

TEST(PoolLayers, ErrorsNameTheLayer) {
    std::string e = error_of([] { MaxPool2dConfig{{0, 2}}.init(); });
    EXPECT_NE(e.find("[MaxPool2dConfig] kernel_size must be positive"), std::string::npos) << e;
    e = error_of([] { AvgPool1dConfig{2, 0}.init(); });
    EXPECT_NE(e.find("[AvgPool1dConfig] stride must be positive"), std::string::npos) << e;
    e = error_of([] { MaxPool2dConfig{{3, 3}}.init().forward_any(ops::full({2, 4, 4}, 0, DType::f32, Device::cpu())); });
    EXPECT_NE(e.find("[MaxPool2d] expects input [batch, channels, height, width] (rank 4), got shape [2, 4, 4]"),
              std::string::npos)
        << e;
    e = error_of([] { MaxPool2dConfig{{5, 5}}.init().forward(Tensor<4>::zeros({1, 1, 3, 3})); });
    EXPECT_NE(e.find("[MaxPool2d]"), std::string::npos) << e;
    e = error_of([] { MaxPool1dConfig{2, 1, Explicit1d{2}}.init().forward(Tensor<3>::zeros({1, 1, 5})); });
    EXPECT_NE(e.find("[MaxPool1d] padding must be between 0 and half"), std::string::npos) << e;
    e = error_of([] { AdaptiveAvgPool1dConfig{0}.init(); });
    EXPECT_NE(e.find("[AdaptiveAvgPool1dConfig]"), std::string::npos) << e;
    e = error_of([] { AdaptiveAvgPool2dConfig{{2, 2}}.init().forward(Tensor<4>::zeros({1, 1, 0, 3})); });
    EXPECT_NE(e.find("[AdaptiveAvgPool2d]"), std::string::npos) << e;
}

TEST(PoolLayers, HalfPrecision) {
    for (DType dt : {DType::f16, DType::bf16}) {
        auto x = ops::cast(ops::arange(0, 16, 1, DType::f32, Device::cpu()), dt);
        x = ops::reshape(x, Dims{1, 1, 4, 4});
        auto [v, i] = ops::max_pool2d_with_indices(x, {2, 2}, {2, 2}, {0, 0});
        EXPECT_EQ(v.dtype(), dt);
        EXPECT_EQ(ops::into_data(ops::cast(v, DType::f32)).to_vec<float>(), (std::vector<float>{5, 7, 13, 15}));
        auto a = ops::avg_pool2d(x, {2, 2}, {2, 2}, {0, 0});
        EXPECT_EQ(ops::into_data(ops::cast(a, DType::f32)).to_vec<float>(), (std::vector<float>{2.5f, 4.5f, 10.5f, 12.5f}));
    }
}

}  // namespace
}  // namespace burn::nn
