// nn::MaxPool3d, AvgPool3d and AdaptiveAvgPool3d against torch.nn's (tests/fixtures/nn_layers/pool3d*.json,
// written by scripts/gen_conv3d_fixtures.py): forward and input gradients with stride, padding, dilation,
// ceil_mode, count_include_pad; non-contiguous input; f64; config and input errors.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

std::array<std::size_t, 3> triple(const config::Value& v) {
    const auto& a = v.as_array();
    return {static_cast<std::size_t>(a.at(0).as_uint64()), static_cast<std::size_t>(a.at(1).as_uint64()),
            static_cast<std::size_t>(a.at(2).as_uint64())};
}

TensorAny run(const nn_test::Fixture& f, const TensorAny& x) {
    const auto& c = f.config;
    const std::string layer = c.at("layer").as_string();
    if (layer == "adaptive")
        return nn::AdaptiveAvgPool3dConfig{triple(c.at("output_size"))}.init().forward_any(x);
    auto p = triple(c.at("padding"));
    nn::PaddingConfig3d padding = nn::Explicit3d{p[0], p[1], p[2]};
    if (layer == "max")
        return nn::MaxPool3dConfig{triple(c.at("kernel_size"))}
            .with_strides(triple(c.at("stride")))
            .with_padding(padding)
            .with_dilation(triple(c.at("dilation")))
            .with_ceil_mode(c.at("ceil_mode").as_bool())
            .init()
            .forward_any(x);
    return nn::AvgPool3dConfig{triple(c.at("kernel_size"))}
        .with_strides(triple(c.at("stride")))
        .with_padding(padding)
        .with_count_include_pad(c.at("count_include_pad").as_bool())
        .with_ceil_mode(c.at("ceil_mode").as_bool())
        .init()
        .forward_any(x);
}

TEST(NnPool3d, MatchesPyTorch) {
    for (const char* name :
         {"pool3d_max", "pool3d_max_ceil", "pool3d_avg", "pool3d_avg_exclude_ceil", "pool3d_adaptive"}) {
        SCOPED_TRACE(name);
        auto f = nn_test::load_fixture(name);
        auto dev = Device().autodiff();
        for (DType dtype : {DType::f32, DType::f64}) {
            auto x = Tensor<5>::from_data(f.at("x").convert(dtype), dev).require_grad();
            Tensor<5> y(run(f, x.handle()));
            EXPECT_TRUE(close(y, f.at("y")));
            auto grads = (y * Tensor<5>::from_data(f.at("r").convert(dtype), dev)).sum().backward();
            EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x")));
        }
        // A non-contiguous input (a transposed view of the same values) gives the same result.
        TensorAny x0 = ops::from_data(f.at("x"), Device());
        TensorAny xt = ops::swap_dims(ops::contiguous(ops::swap_dims(x0, 3, 4)), 3, 4);
        EXPECT_TRUE(close(Tensor<5>(run(f, xt)), f.at("y")));
    }
}

TEST(NnPool3d, ShapesConfigsAndErrors) {
    auto x = Tensor<5>::zeros({2, 3, 4, 6, 8});
    auto max = nn::MaxPool3dConfig{{2, 2, 2}}.with_strides({2, 2, 2}).init();
    auto avg = nn::AvgPool3dConfig{{3, 3, 3}}.with_padding(nn::Same{}).init();
    auto adaptive = nn::AdaptiveAvgPool3dConfig{{1, 1, 1}}.init();
    EXPECT_EQ(max.forward(x).dims(), (Shape<5>{2, 3, 2, 3, 4}));
    EXPECT_EQ(avg.forward(x).dims(), (Shape<5>{2, 3, 4, 6, 8}));
    EXPECT_EQ(adaptive.forward(x).dims(), (Shape<5>{2, 3, 1, 1, 1}));
    EXPECT_THROW((nn::MaxPool3dConfig{{0, 2, 2}}.init()), Error);
    EXPECT_THROW((nn::AvgPool3dConfig{{2, 2, 2}}.with_strides({1, 0, 1}).init()), Error);
    EXPECT_THROW((nn::AdaptiveAvgPool3dConfig{{1, 0, 1}}.init()), Error);
    try {
        nn::MaxPool3dConfig{{2, 2, 2}}.init().forward_any(ops::full({2, 3, 4, 4}, 0.0, DType::f32, Device()));
        ADD_FAILURE() << "rank 4 accepted";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[MaxPool3d]"), std::string::npos) << e.what();
    }
    auto cfg = nn::MaxPool3dConfig{{2, 3, 1}}.with_padding(nn::Explicit3d{1, 1, 0});
    auto back = nn::MaxPool3dConfig::from_json(cfg.to_json());
    EXPECT_EQ(back.kernel_size, cfg.kernel_size);
    EXPECT_TRUE(std::holds_alternative<nn::Explicit3d>(back.padding));
}

}  // namespace
