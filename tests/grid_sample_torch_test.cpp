// grid_sample_2d, affine_grid_2d, nearest-exact and 1-D interpolation against torch 1.13
// (tests/fixtures/nn_layers/sampling.json, written by scripts/gen_sampling_fixtures.py): values and,
// for grid_sample, the gradients for the input and the grid in every mode, padding mode and corner
// alignment. The op database checks the same ops against naive float64 loops on every dtype and device.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

#include "nn/layer_test_util.hpp"

namespace burn::grid_sample_torch_test {

using nn_test::close;
using nn_test::load_fixture;

TEST(GridSampleTorch, ValuesAndGradientsMatchTorch) {
    auto f = load_fixture("sampling");
    const Device d = Device().autodiff();
    const std::pair<const char*, InterpolateMode> modes[] = {{"nearest", InterpolateMode::nearest},
                                                             {"bilinear", InterpolateMode::bilinear},
                                                             {"bicubic", InterpolateMode::bicubic}};
    const std::pair<const char*, GridSamplePaddingMode> pads[] = {
        {"zeros", GridSamplePaddingMode::zeros},
        {"border", GridSamplePaddingMode::border},
        {"reflection", GridSamplePaddingMode::reflection}};
    for (const auto& [mname, mode] : modes)
        for (const auto& [pname, pad] : pads)
            for (bool align : {false, true}) {
                const std::string key = std::string(mname) + "." + pname + "." + (align ? "1" : "0");
                auto x = f.floats<4>("x", d).require_grad();
                auto grid = f.floats<4>("grid", d).require_grad();
                auto y = grid_sample_2d(x, grid, GridSampleOptions{mode, pad, align});
                EXPECT_TRUE(close(y, f.at("y." + key), 1e-5, 1e-4)) << key;
                auto grads = (y * f.floats<4>("r", d)).sum().backward();
                auto gx = x.grad(grads);
                auto gg = grid.grad(grads);
                ASSERT_TRUE(gx.has_value() && gg.has_value()) << key;
                EXPECT_TRUE(close(*gx, f.at("gx." + key), 1e-5, 1e-4)) << key;
                EXPECT_TRUE(close(*gg, f.at("gg." + key), 1e-4, 1e-4)) << key;
            }
}

TEST(GridSampleTorch, AffineGridMatchesTorch) {
    auto f = load_fixture("sampling");
    auto theta = f.floats<3>("theta");
    EXPECT_TRUE(close(affine_grid_2d(theta, {2, 3, 4, 5}), f.at("affine.0")));
    EXPECT_TRUE(close(affine_grid_2d(theta, {2, 3, 4, 5}, true), f.at("affine.1")));
    // the identity map samples the image itself
    auto img = f.floats<4>("x");
    auto id =
        Tensor<3>::from_data(TensorData(std::vector<float>{1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0}, {2, 2, 3}));
    auto same = grid_sample_2d(img, affine_grid_2d(id, {2, 3, 5, 6}));
    EXPECT_TRUE(close(same, img.into_data(), 1e-5, 1e-5));
}

TEST(GridSampleTorch, NearestExactAndOneDimensionalInterpolationMatchTorch) {
    auto f = load_fixture("sampling");
    auto img = f.floats<4>("img");
    const InterpolateOptions exact{InterpolateMode::nearest_exact, false};
    EXPECT_TRUE(close(tensor::module::interpolate(img, {8, 9}, exact), f.at("nearest_exact.up")));
    EXPECT_TRUE(close(tensor::module::interpolate(img, {3, 4}, exact), f.at("nearest_exact.down")));
    auto sig = f.floats<3>("sig");
    const std::tuple<const char*, InterpolateMode, const char*, bool> cases[] = {
        {"nearest", InterpolateMode::nearest, "n", false},
        {"nearest-exact", InterpolateMode::nearest_exact, "n", false},
        {"linear", InterpolateMode::bilinear, "0", false},
        {"linear", InterpolateMode::bilinear, "1", true}};
    for (const auto& [name, mode, akey, align] : cases)
        for (std::size_t size : {11u, 4u}) {
            const std::string key = std::string("i1d.") + name + "." + std::to_string(size) + "." + akey;
            EXPECT_TRUE(
                close(tensor::module::interpolate1d(sig, size, InterpolateOptions{mode, align}), f.at(key)))
                << key;
            auto layer = nn::Interpolate1dConfig{size, std::nullopt, mode, align}.init();
            EXPECT_TRUE(close(layer.forward(sig), f.at(key))) << key << " (Interpolate1d)";
        }
}

}  // namespace burn::grid_sample_torch_test
