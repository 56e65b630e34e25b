// Interpolate2d and PixelShuffle against PyTorch (tests/fixtures/nn/resample.json: nearest, bilinear and
// bicubic with both corner alignments, up and down; outputs and input gradients in f64 and f32).
#include <gtest/gtest.h>

#include "nn/nn_test_util.hpp"

namespace burn::nn {
namespace {

using namespace testing;

TEST(ResampleLayers, MatchPyTorchForwardAndGradients) {
    const Device ad = Device::cpu().autodiff();
    int checked = 0;
    for (const Fixture& f : load_fixtures("resample")) {
        for (DType dt : {DType::f64, DType::f32}) {
            TensorAny x = ops::require_grad(f.tensor("x", dt, ad));
            TensorAny y;
            if (f.op == "pixel_shuffle") {
                y = PixelShuffleConfig{static_cast<std::size_t>(f.args.at("upscale_factor").as_int64())}.init().forward_any(x);
            } else {
                const std::string mode = f.args.at("mode").as_string();
                Interpolate2dConfig c;
                c.output_size = std::array<std::size_t, 2>{f.sizes("output_size")[0], f.sizes("output_size")[1]};
                c.mode = *config::enum_from_name<InterpolateMode>(mode);
                c.align_corners = f.flag("align_corners");
                y = c.init().forward_any(x);
            }
            expect_close(y, f, "y", dt);
            Gradients g = ops::backward(weighted_loss(y, f));
            expect_close(*ops::grad(x, g), f, "gx", dt);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 24);
}

TEST(ResampleLayers, ScaleFactorGivesTheOutputSize) {
    auto up = Interpolate2dConfig{}.with_scale_factor(std::array<float, 2>{2.0f, 1.5f}).init();
    EXPECT_EQ(up.forward(Tensor<4>::ones({1, 1, 4, 4})).dims(), (Shape<4>{1, 1, 8, 6}));
    auto down = Interpolate2dConfig{}.with_scale_factor(std::array<float, 2>{0.5f, 0.5f}).init();
    EXPECT_EQ(down.forward(Tensor<4>::ones({2, 3, 4, 4})).dims(), (Shape<4>{2, 3, 2, 2}));
    // output_size wins over scale_factor.
    auto both = Interpolate2dConfig{std::array<std::size_t, 2>{3, 3}, std::array<float, 2>{2.0f, 2.0f}}.init();
    EXPECT_EQ(both.forward(Tensor<4>::ones({1, 1, 4, 4})).dims(), (Shape<4>{1, 1, 3, 3}));
}

TEST(ResampleLayers, BilinearAlignCornersKeepsTheCorners) {
    auto x = Tensor<4>::from_floats({{{{0, 1}, {2, 3}}}});
    auto y = tensor::module::interpolate(x, {3, 3}, InterpolateOptions{InterpolateMode::bilinear, true});
    EXPECT_EQ(y.to_vec<float>(), (std::vector<float>{0, 0.5f, 1, 1, 1.5f, 2, 2, 2.5f, 3}));
    auto n = tensor::module::interpolate(x, {4, 4}, InterpolateOptions{});
    EXPECT_EQ(n.to_vec<float>(), (std::vector<float>{0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}));
}

TEST(ResampleLayers, PixelShuffleLayout) {
    // Channel c * 4 + i * 2 + j lands at (h * 2 + i, w * 2 + j) of channel c.
    auto x = Tensor<4>(ops::reshape(ops::arange(0, 8, 1, DType::f32, Device::cpu()), Dims{1, 4, 1, 2}));
    auto y = tensor::module::pixel_shuffle(x, 2);
    EXPECT_EQ(y.dims(), (Shape<4>{1, 1, 2, 4}));
    EXPECT_EQ(y.to_vec<float>(), (std::vector<float>{0, 2, 1, 3, 4, 6, 5, 7}));
}

TEST(ResampleLayers, ConfigsRoundTripThroughJson) {
    auto c = Interpolate2dConfig{}.with_output_size(std::array<std::size_t, 2>{4, 5}).with_mode(InterpolateMode::bicubic);
    EXPECT_EQ(Interpolate2dConfig::from_json_string(c.to_json_string()), c);
    EXPECT_NE(c.to_json_string().find("\"bicubic\""), std::string::npos);
    EXPECT_EQ(PixelShuffleConfig::from_json_string(PixelShuffleConfig{3}.to_json_string()).upscale_factor, 3u);
}

TEST(ResampleLayers, Errors) {
    std::string e = error_of([] { Interpolate2dConfig{}.init(); });
    EXPECT_NE(e.find("[Interpolate2dConfig] give output_size or scale_factor"), std::string::npos) << e;
    e = error_of([] {
        Interpolate2dConfig{}.with_scale_factor(std::array<float, 2>{0.1f, 0.1f}).init().forward(Tensor<4>::ones({1, 1, 4, 4}));
    });
    EXPECT_NE(e.find("[Interpolate2d] the output size 0 x 0"), std::string::npos) << e;
    e = error_of([] { PixelShuffleConfig{2}.init().forward(Tensor<4>::ones({1, 6, 2, 2})); });
    EXPECT_NE(e.find("[PixelShuffle] input of shape [1, 6, 2, 2] has 6 channels"), std::string::npos) << e;
    e = error_of([] { ops::pixel_shuffle(ops::full({6, 2}, 0, DType::f32, Device::cpu()), 2); });
    EXPECT_NE(e.find("[pixel_shuffle]"), std::string::npos) << e;
}

}  // namespace
}  // namespace burn::nn
