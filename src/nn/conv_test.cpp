// Convolution layers against PyTorch (tests/fixtures/nn/conv.json: outputs and the gradients of input,
// weight and bias, in f64 and f32), plus configs, initialisation, padding resolution and errors.
#include <gtest/gtest.h>

#include <cmath>

#include "backends/cpu/gemm.hpp"
#include "nn/nn_test_util.hpp"

namespace burn::nn {
namespace {

using namespace testing;

std::array<std::size_t, 2> two(const std::vector<std::size_t>& v) {
    return {v[0], v[1]};
}
std::array<std::size_t, 3> three(const std::vector<std::size_t>& v) {
    return {v[0], v[1], v[2]};
}

/// Runs a fixture case through its layer in dtype dt on an autodiff device and checks y and grads.
template <class Layer, std::size_t D>
void check_layer(Layer layer, const Fixture& f, DType dt, const Device& ad) {
    layer.weight = param_of<D>(f, "w", dt, ad);
    if (f.has("b")) layer.bias = param_of<1>(f, "b", dt, ad);
    TensorAny x = ops::require_grad(f.tensor("x", dt, ad));
    TensorAny y = layer.forward_any(x);
    expect_close(y, f, "y", dt);
    Gradients g = ops::backward(weighted_loss(y, f));
    expect_close(*ops::grad(x, g), f, "gx", dt);
    expect_close(*ops::grad(layer.weight.val().handle(), g), f, "gw", dt);
    if (f.has("b")) expect_close(*ops::grad(layer.bias->val().handle(), g), f, "gb", dt);
}

TEST(ConvLayers, MatchPyTorchForwardAndGradients) {
    const Device ad = Device::cpu().autodiff();
    int checked = 0;
    for (const Fixture& f : load_fixtures("conv")) {
        const Dims ws = f.shape("w");
        const bool same = f.is("padding", "same");
        const auto pad = f.sizes("padding"), stride = f.sizes("stride"), dil = f.sizes("dilation");
        const auto groups = static_cast<std::size_t>(f.args.at("groups").as_int64());
        for (DType dt : {DType::f64, DType::f32}) {
            SCOPED_TRACE(f.name);
            const auto k = [&](int i) { return static_cast<std::size_t>(ws[i]); };
            if (f.op == "conv1d") {
                Conv1dConfig c{static_cast<std::size_t>(ws[1]) * groups, k(0), k(2)};
                c.stride = stride[0];
                c.dilation = dil[0];
                c.groups = groups;
                c.bias = f.has("b");
                c.padding = same ? PaddingConfig1d(Same{}) : PaddingConfig1d(Explicit1d{pad[0]});
                check_layer<Conv1d, 3>(c.init(ad), f, dt, ad);
            } else if (f.op == "conv2d") {
                Conv2dConfig c{{k(1) * groups, k(0)}, {k(2), k(3)}};
                c.stride = two(stride);
                c.dilation = two(dil);
                c.groups = groups;
                c.bias = f.has("b");
                c.padding = same ? PaddingConfig2d(Same{}) : PaddingConfig2d(Explicit2d{pad[0], pad[1]});
                check_layer<Conv2d, 4>(c.init(ad), f, dt, ad);
            } else if (f.op == "conv3d") {
                Conv3dConfig c{{k(1) * groups, k(0)}, {k(2), k(3), k(4)}};
                c.stride = three(stride);
                c.dilation = three(dil);
                c.groups = groups;
                c.bias = f.has("b");
                c.padding = Explicit3d{pad[0], pad[1], pad[2]};
                check_layer<Conv3d, 5>(c.init(ad), f, dt, ad);
            } else if (f.op == "conv_transpose1d") {
                ConvTranspose1dConfig c{{k(0), k(1) * groups}, k(2)};
                c.stride = stride[0];
                c.dilation = dil[0];
                c.groups = groups;
                c.padding = pad[0];
                c.padding_out = f.sizes("padding_out")[0];
                check_layer<ConvTranspose1d, 3>(c.init(ad), f, dt, ad);
            } else if (f.op == "conv_transpose2d") {
                ConvTranspose2dConfig c{{k(0), k(1) * groups}, {k(2), k(3)}};
                c.stride = two(stride);
                c.dilation = two(dil);
                c.groups = groups;
                c.padding = two(pad);
                c.padding_out = two(f.sizes("padding_out"));
                check_layer<ConvTranspose2d, 4>(c.init(ad), f, dt, ad);
            } else {
                ADD_FAILURE() << "unknown fixture op " << f.op;
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 24);
}

TEST(ConvLayers, FunctionalFormsMatchPyTorch) {
    // The tensor-level functions on a plain (non-autodiff) device, f32.
    const Device cpu = Device::cpu();
    for (const Fixture& f : load_fixtures("conv")) {
        if (f.op != "conv2d" || f.is("padding", "same")) continue;
        ConvOptions<2> o;
        o.stride = two(f.sizes("stride"));
        o.padding = two(f.sizes("padding"));
        o.dilation = two(f.sizes("dilation"));
        o.groups = static_cast<std::size_t>(f.args.at("groups").as_int64());
        std::optional<Tensor<1>> b;
        if (f.has("b")) b = Tensor<1>(f.tensor("b", DType::f32, cpu));
        Tensor<4> y = tensor::module::conv2d(Tensor<4>(f.tensor("x", DType::f32, cpu)),
                                             Tensor<4>(f.tensor("w", DType::f32, cpu)), b, o);
        expect_close(y.handle(), f, "y", DType::f32);
    }
}

TEST(ConvLayers, HalfPrecisionComputesInF32) {
    const Device cpu = Device::cpu();
    for (const Fixture& f : load_fixtures("conv")) {
        if (f.name != "conv2d_3x3_pad1") continue;
        for (DType dt : {DType::f16, DType::bf16}) {
            auto y = ops::conv2d(f.tensor("x", dt, cpu), f.tensor("w", dt, cpu), f.tensor("b", dt, cpu),
                                 ConvOptions<2>{{1, 1}, {1, 1}, {1, 1}, 1, std::nullopt});
            EXPECT_EQ(y.dtype(), dt);
            expect_close(y, f, "y", dt);
        }
    }
}

TEST(ConvLayers, DefaultInitialisationIsPyTorchs) {
    // U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias, fan_in = in / groups * kernel volume.
    auto conv = Conv2dConfig{{8, 16}, {3, 3}}.with_groups(2).init();
    const double bound = 1.0 / std::sqrt(4.0 * 9.0);
    EXPECT_EQ(conv.weight.val().dims(), (Shape<4>{16, 4, 3, 3}));
    for (const auto& t : {conv.weight.val().handle(), conv.bias->val().handle()}) {
        auto v = ops::into_data(ops::cast(t, DType::f64)).to_vec<double>();
        for (double x : v) EXPECT_LE(std::abs(x), bound);
    }
    // 576 weights spread over the range (not a constant, not a narrower distribution).
    auto w = conv.weight.val().to_vec<float>();
    EXPECT_LT(*std::min_element(w.begin(), w.end()), -0.9 * bound);
    EXPECT_GT(*std::max_element(w.begin(), w.end()), 0.9 * bound);
    auto t = ConvTranspose2dConfig{{6, 4}, {2, 2}}.init();
    EXPECT_EQ(t.weight.val().dims(), (Shape<4>{6, 4, 2, 2}));
    auto v = t.weight.val().to_vec<float>();
    const double tb = 1.0 / std::sqrt(4.0 * 4.0);  // PyTorch: fan_in = weight.size(1) * kernel volume
    for (float x : v) EXPECT_LE(std::abs(x), tb);
}

TEST(ConvLayers, ParamsPathsAndCount) {
    auto conv = Conv2dConfig{{3, 8}, {3, 3}}.init();
    EXPECT_EQ(conv.num_params(), 8u * 3 * 9 + 8);
    std::vector<std::string> paths;
    conv.visit_params([&](const std::string& p, const auto&) { paths.push_back(p); });
    EXPECT_EQ(paths, (std::vector<std::string>{"weight", "bias"}));
    auto nobias = Conv1dConfig{4, 2, 3}.with_bias(false).init();
    EXPECT_EQ(nobias.num_params(), 2u * 4 * 3);
    EXPECT_FALSE(nobias.bias.has_value());
    auto c3 = Conv3dConfig{{2, 4}, {1, 2, 3}}.init();
    EXPECT_EQ(c3.num_params(), 4u * 2 * 6 + 4);
}

TEST(ConvLayers, PaddingConfigsRoundTripThroughJson) {
    auto c = Conv2dConfig{{3, 8}, {3, 3}}.with_padding(Explicit2d{1, 2, 3, 4}).with_stride({2, 1});
    auto back = Conv2dConfig::from_json_string(c.to_json_string());
    EXPECT_EQ(back, c);
    EXPECT_NE(c.to_json_string().find("\"type\": \"Explicit\""), std::string::npos) << c.to_json_string();
    auto same = Conv2dConfig{{3, 8}, {3, 3}}.with_padding(Same{});
    EXPECT_NE(same.to_json_string().find("\"type\": \"Same\""), std::string::npos);
    EXPECT_EQ(Conv2dConfig::from_json_string(same.to_json_string()), same);
    auto loaded = Conv1dConfig::from_json_string(
        R"({"channels_in": 2, "channels_out": 4, "kernel_size": 3, "padding": {"type": "Explicit", "value": {"left": 1}}})");
    EXPECT_EQ(std::get<Explicit1d>(loaded.padding).left, 1u);
    EXPECT_FALSE(std::get<Explicit1d>(loaded.padding).right.has_value());
    auto t = ConvTranspose2dConfig{{4, 2}, {3, 3}}.with_padding_out({1, 1}).with_stride({2, 2});
    EXPECT_EQ(ConvTranspose2dConfig::from_json_string(t.to_json_string()), t);
    auto c3 = Conv3dConfig{{1, 2}, {3, 3, 3}}.with_padding(Valid{});
    EXPECT_EQ(Conv3dConfig::from_json_string(c3.to_json_string()), c3);
}

TEST(ConvLayers, PaddingResolution) {
    // Same keeps ceil(in / stride) positions; an odd total puts the extra one at the end.
    auto p = padding_pairs(PaddingConfig2d(Same{}), {5, 6}, {2, 3}, {1, 1}, {1, 2});
    EXPECT_EQ(p[0], (std::pair<std::size_t, std::size_t>{0, 1}));
    EXPECT_EQ(p[1], (std::pair<std::size_t, std::size_t>{2, 2}));
    auto s = padding_pairs(PaddingConfig1d(Same{}), {10}, {3}, {2}, {1});
    EXPECT_EQ(s[0], (std::pair<std::size_t, std::size_t>{0, 1}));  // out 5: (5-1)*2 + 3 - 10 = 1
    auto e = padding_pairs(PaddingConfig2d(Explicit2d{1, 2}), {5, 5}, {3, 3}, {1, 1}, {1, 1});
    EXPECT_EQ(e[0], (std::pair<std::size_t, std::size_t>{1, 1}));
    EXPECT_EQ(e[1], (std::pair<std::size_t, std::size_t>{2, 2}));
    auto v = padding_pairs(PaddingConfig3d(Valid{}), {5, 5, 5}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1});
    EXPECT_EQ(v[2], (std::pair<std::size_t, std::size_t>{0, 0}));
    // Same through a layer with stride 2: output ceil(7 / 2) = 4.
    auto conv = Conv2dConfig{{1, 1}, {4, 3}}.with_stride({2, 2}).with_padding(Same{}).init();
    EXPECT_EQ(conv.forward(Tensor<4>::ones({1, 1, 7, 7})).dims(), (Shape<4>{1, 1, 4, 4}));
}

TEST(ConvLayers, AsymmetricExplicitPadding) {
    // burn's example: top 1, left 2, bottom 3, right 4 on [1, 2, 4, 5] with a 3x3 kernel -> [1, 3, 6, 9].
    auto conv = Conv2dConfig{{2, 3}, {3, 3}}
                    .with_padding(Explicit2d{1, 2, 3, 4})
                    .with_initializer(Initializer::Constant(1.0))
                    .with_bias(false)
                    .init();
    auto y = conv.forward(Tensor<4>::ones({1, 2, 4, 5}));
    EXPECT_EQ(y.dims(), (Shape<4>{1, 3, 6, 9}));
    // Top-left output sees rows -1..1 and columns -2..0: 2 rows x 1 column of ones per channel.
    EXPECT_FLOAT_EQ(y.to_vec<float>()[0], 2.0f * 2.0f);
}

TEST(ConvLayers, ErrorsNameTheLayerAndShapes) {
    auto conv = Conv2dConfig{{5, 3}, {3, 3}}.init();
    std::string e = error_of([&] { conv.forward(Tensor<4>::zeros({1, 4, 10, 10})); });
    EXPECT_NE(e.find("[Conv2d]"), std::string::npos) << e;
    EXPECT_NE(e.find("[1, 4, 10, 10]"), std::string::npos) << e;
    EXPECT_NE(e.find("expected 5"), std::string::npos) << e;
    e = error_of([&] { conv.forward(Tensor<4>::zeros({1, 5, 2, 2})); });
    EXPECT_NE(e.find("[Conv2d]"), std::string::npos) << e;
    EXPECT_NE(e.find("larger than the padded input"), std::string::npos) << e;
    e = error_of([&] { conv.forward_any(ops::full({5, 10, 10}, 0, DType::f32, Device::cpu())); });
    EXPECT_NE(e.find("[Conv2d] expects input [batch, channels, height, width]"), std::string::npos) << e;
    e = error_of([] { Conv2dConfig{{1, 4}, {1, 1}}.with_groups(4).init(); });
    EXPECT_NE(e.find("[Conv2dConfig]"), std::string::npos) << e;
    EXPECT_NE(e.find("divisible by groups"), std::string::npos) << e;
    e = error_of([] { Conv1dConfig{2, 2, 0}.init(); });
    EXPECT_NE(e.find("[Conv1dConfig] kernel_size must be positive"), std::string::npos) << e;
    e = error_of([] { Conv3dConfig{{0, 2}, {1, 1, 1}}.init(); });
    EXPECT_NE(e.find("[Conv3dConfig] channels must be positive"), std::string::npos) << e;
    e = error_of([] { ConvTranspose1dConfig{{2, 2}, 3}.with_padding_out(1).init(); });
    EXPECT_NE(e.find("[ConvTranspose1dConfig] padding_out"), std::string::npos) << e;
    auto t = ConvTranspose2dConfig{{4, 2}, {3, 3}}.init();
    e = error_of([&] { t.forward(Tensor<4>::zeros({1, 2, 5, 5})); });
    EXPECT_NE(e.find("[ConvTranspose2d] input of shape [1, 2, 5, 5] has 2 channels, expected 4"),
              std::string::npos)
        << e;
    auto c1 = Conv1dConfig{3, 2, 3}.init();
    e = error_of([&] { c1.forward(Tensor<3>::zeros({2, 3, 2})); });
    EXPECT_NE(e.find("[Conv1d]"), std::string::npos) << e;
}

TEST(ConvLayers, NonContiguousInputs) {
    // A transposed view and a flipped weight give the same result as their contiguous copies.
    const Device cpu = Device::cpu();
    auto x = ops::random({2, 3, 6, 5}, Distribution::Uniform(-1, 1), DType::f32, cpu);
    auto w = ops::random({4, 3, 3, 3}, Distribution::Uniform(-1, 1), DType::f32, cpu);
    auto xt = ops::swap_dims(ops::contiguous(ops::swap_dims(x, 2, 3)), 2, 3);
    auto wf = ops::flip(ops::contiguous(ops::flip(w, {3})), {3});
    ConvOptions<2> o;
    o.padding = {1, 1};
    auto a = ops::into_data(ops::conv2d(x, w, std::nullopt, o));
    auto b = ops::into_data(ops::conv2d(xt, wf, std::nullopt, o));
    EXPECT_TRUE(a == b);
}

TEST(ConvLayers, EveryInstructionSetVariantMatches) {
    // im2col / col2im and the max pool have AVX2 and AVX-512 variants picked with the GEMM's; the
    // baseline and AVX2 paths must give what the fixtures hold too (on CPUs that have them).
    const Device ad = Device::cpu().autodiff();
    const cpu::GemmIsa saved = cpu::gemm_isa();
    for (cpu::GemmIsa isa : {cpu::GemmIsa::generic, cpu::GemmIsa::avx2}) {
        if (cpu::set_gemm_isa(isa) != isa) continue;
        for (const Fixture& f : load_fixtures("conv")) {
            if (f.op != "conv2d" || f.is("padding", "same")) continue;
            auto c = Conv2dConfig{
                {static_cast<std::size_t>(f.shape("w")[1] * f.args.at("groups").as_int64()),
                 static_cast<std::size_t>(f.shape("w")[0])},
                {static_cast<std::size_t>(f.shape("w")[2]), static_cast<std::size_t>(f.shape("w")[3])}};
            c.stride = two(f.sizes("stride"));
            c.dilation = two(f.sizes("dilation"));
            c.groups = static_cast<std::size_t>(f.args.at("groups").as_int64());
            c.padding = Explicit2d{f.sizes("padding")[0], f.sizes("padding")[1]};
            c.bias = f.has("b");
            check_layer<Conv2d, 4>(c.init(ad), f, DType::f64, ad);
        }
        for (const Fixture& f : load_fixtures("pool")) {
            if (f.op != "max_pool2d") continue;
            auto [v, i] = ops::max_pool2d_with_indices(
                f.tensor("x", DType::f64, Device::cpu()), two(f.sizes("kernel_size")), two(f.sizes("stride")),
                two(f.sizes("padding")), two(f.sizes("dilation")), f.flag("ceil_mode"));
            expect_close(v, f, "y", DType::f64);
            EXPECT_EQ(ops::into_data(ops::cast(i, DType::f64)).to_vec<double>(), f.values("indices"));
        }
    }
    cpu::set_gemm_isa(saved);
}

struct ConvBn {  // PyTorch's nn.Sequential-like Conv2d(2, 4, 3, padding=1) + BatchNorm2d(4)
    Conv2d conv;
    BatchNorm bn;
    BURN_MODULE(ConvBn, conv, bn)
};

TEST(ConvLayers, LoadsPyTorchWeightsAsTheyAre) {
    // The store's fixture (scripts/gen_store_fixtures.py): a torch.save'd Conv2d + BatchNorm2d and
    // the conv's output on a fixed input. PyTorch's names and layouts load without remapping.
    if (!store::PytorchStore::zip_supported())
        GTEST_SKIP() << "built without libzip (convbn.pt is a zip file)";
    const auto dir = fixture_dir().parent_path() / "store";
    ConvBn m{Conv2dConfig{{2, 4}, {3, 3}}.with_padding(Explicit2d{1, 1}).init(), BatchNormConfig{4}.init()};
    store::PytorchStore pt(dir / "convbn.pt");
    store::ApplyResult r = m.load_from(pt);
    EXPECT_TRUE(r.is_success()) << r;
    auto io = store::SafetensorsStore(dir / "convbn_io.safetensors").load_tensors();
    auto y = m.conv.forward(Tensor<4>(io["input"]));
    auto want = ops::into_data(ops::cast(io["conv_output"], DType::f64)).to_vec<double>();
    auto got = ops::into_data(ops::cast(y.handle(), DType::f64)).to_vec<double>();
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i])));
}

TEST(ConvLayers, EmptyBatch) {
    auto conv = Conv2dConfig{{2, 3}, {3, 3}}.with_padding(Same{}).init();
    auto y = conv.forward(Tensor<4>::zeros({0, 2, 5, 5}));
    EXPECT_EQ(y.dims(), (Shape<4>{0, 3, 5, 5}));
}

}  // namespace
}  // namespace burn::nn
