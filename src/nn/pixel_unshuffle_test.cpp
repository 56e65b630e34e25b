// PixelUnshuffle against torch.nn.functional.pixel_unshuffle (tests/fixtures/nn_layers/modules_extra.json,
// scripts/gen_module_extra_fixtures.py): factors 2 and 3, values and input gradients; the inverse of
// PixelShuffle; errors.
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace pixel_unshuffle_test {

namespace {

TEST(NnPixelUnshuffle, MatchesPyTorch) {
    auto f = nn_test::load_fixture("modules_extra");
    auto dev = Device().autodiff();
    auto x1 = f.floats<4>("unshuffle.x1", dev).require_grad();
    nn_test::expect_output_and_grads(f, "unshuffle.r2", nn::PixelUnshuffleConfig{2}.init().forward(x1),
                                     {{"x", x1.handle()}}, 0, 0);
    auto x2 = f.floats<4>("unshuffle.x2", dev).require_grad();
    nn_test::expect_output_and_grads(f, "unshuffle.r3", nn::PixelUnshuffleConfig{3}.init().forward(x2),
                                     {{"x", x2.handle()}}, 0, 0);
}

TEST(NnPixelUnshuffle, InvertsPixelShuffle) {
    auto x = Tensor<4>::random({2, 8, 3, 5}, Distribution::Normal(0, 1));
    auto back = nn::PixelUnshuffle{2}.forward(nn::PixelShuffle{2}.forward(x));
    EXPECT_TRUE(nn_test::close(back, x.into_data(), 0, 0));
}

TEST(NnPixelUnshuffle, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::PixelUnshuffle{2}.forward(Tensor<4>::zeros({1, 3, 4, 5}));
        },
        {"[PixelUnshuffle]", "[1, 3, 4, 5]", "downscale_factor 2"});
    EXPECT_THROW(nn::PixelUnshuffle{2}.forward(Tensor<4>::zeros({1, 3, 4, 5})), ShapeError);
    EXPECT_THROW(nn::PixelUnshuffleConfig{0}.init(), Error);
}

}  // namespace

}  // namespace pixel_unshuffle_test
