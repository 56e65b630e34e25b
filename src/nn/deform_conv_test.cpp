// DeformConv2d against torchvision.ops.deform_conv2d (tests/fixtures/nn_layers/deform_conv.json,
// scripts/gen_deform_conv_fixtures.py): values and the gradients of the input, offsets, mask, weight and
// bias, with padding, and with stride, dilation, weight and offset groups and a mask that differ per dim;
// zero offsets against Conv2d; the module's forward; errors.
#include "burn/nn/deform_conv.hpp"

#include "burn/nn/conv.hpp"
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace deform_conv_test {

namespace {

DeformConvOptions full_options() {
    DeformConvOptions o;
    o.stride = {2, 1};
    o.padding = {{{2, 2}, {1, 1}}};
    o.dilation = {1, 2};
    o.weight_groups = 2;
    o.offset_groups = 2;
    return o;
}

TEST(NnDeformConv2d, MatchesTorchvision) {
    auto f = nn_test::load_fixture("deform_conv");
    auto dev = Device().autodiff();
    auto x1 = f.floats<4>("deform.x1", dev).require_grad();
    auto o1 = f.floats<4>("deform.o1", dev).require_grad();
    auto w1 = f.floats<4>("deform.w1", dev).require_grad();
    auto b1 = f.floats<1>("deform.b1", dev).require_grad();
    DeformConvOptions basic;
    basic.padding = {{{1, 1}, {1, 1}}};
    Tensor<4> y1(ops::deform_conv2d(x1.handle(), o1.handle(), w1.handle(), TensorAny(), b1.handle(), basic));
    nn_test::expect_output_and_grads(
        f, "deform.basic", y1,
        {{"x", x1.handle()}, {"o", o1.handle()}, {"w", w1.handle()}, {"b", b1.handle()}});

    auto x2 = f.floats<4>("deform.x2", dev).require_grad();
    auto o2 = f.floats<4>("deform.o2", dev).require_grad();
    auto w2 = f.floats<4>("deform.w2", dev).require_grad();
    auto m2 = f.floats<4>("deform.m2", dev).require_grad();
    Tensor<4> y2(
        ops::deform_conv2d(x2.handle(), o2.handle(), w2.handle(), m2.handle(), TensorAny(), full_options()));
    nn_test::expect_output_and_grads(
        f, "deform.full", y2,
        {{"x", x2.handle()}, {"o", o2.handle()}, {"w", w2.handle()}, {"m", m2.handle()}});
}

TEST(NnDeformConv2d, ModuleForwardUsesItsWeightPaddingAndMask) {
    auto f = nn_test::load_fixture("deform_conv");
    auto m = nn::DeformConv2dConfig{.channels = {4, 6},
                                    .kernel_size = {2, 3},
                                    .stride = {2, 1},
                                    .dilation = {1, 2},
                                    .weight_groups = 2,
                                    .offset_groups = 2,
                                    .padding = nn::Explicit2d{2, 1},
                                    .bias = false}
                 .init();
    EXPECT_EQ(m.weight.val().dims(), (std::array<std::size_t, 4>{6, 2, 2, 3}));
    EXPECT_FALSE(m.bias.has_value());
    m.weight = Param<Tensor<4>>(f.floats<4>("deform.w2", Device()));
    Tensor<4> y = m.forward(f.floats<4>("deform.x2", Device()), f.floats<4>("deform.o2", Device()),
                            f.floats<4>("deform.m2", Device()));
    EXPECT_TRUE(nn_test::close(y, f.at("deform.full")));
}

// With zero offsets and no mask every tap reads its pixel: a convolution, whatever the settings.
TEST(NnDeformConv2d, ZeroOffsetsIsAConvolution) {
    auto conv = nn::Conv2dConfig{
        .channels = {4, 6},
        .kernel_size = {3, 2},
        .stride = {1, 2},
        .dilation = {2, 1},
        .groups = 2,
        .padding = nn::Explicit2d{
            1, 2}}.init();
    auto deform = nn::DeformConv2dConfig{
        .channels = {4, 6},
        .kernel_size = {3, 2},
        .stride = {1, 2},
        .dilation = {2, 1},
        .weight_groups = 2,
        .offset_groups = 4,
        .padding = nn::Explicit2d{
            1, 2}}.init();
    deform.weight = conv.weight;
    deform.bias = conv.bias;
    auto x = Tensor<4>::random({2, 4, 7, 6}, Distribution::Normal(0, 1));
    Tensor<4> want = conv.forward(x);
    const auto d = want.dims();
    auto offset = Tensor<4>::zeros({d[0], 2 * 4 * 6, d[2], d[3]});
    EXPECT_TRUE(nn_test::close(deform.forward(x, offset), want.into_data(), 1e-5, 1e-5));
    // a mask of ones changes nothing; a mask of zeros leaves the bias
    auto ones = Tensor<4>::ones({d[0], 4 * 6, d[2], d[3]});
    EXPECT_TRUE(nn_test::close(deform.forward(x, offset, ones), want.into_data(), 1e-5, 1e-5));
    Tensor<4> only_bias = deform.forward(x, offset, Tensor<4>::zeros({d[0], 4 * 6, d[2], d[3]}));
    Tensor<4> bias = deform.bias->val().reshape<4>({1, 6, 1, 1}).expand(Shape<4>{d[0], 6, d[2], d[3]});
    EXPECT_TRUE(nn_test::close(only_bias, bias.into_data(), 1e-6, 0));
}

TEST(NnDeformConv2d, Errors) {
    auto m = nn::DeformConv2dConfig{.channels = {2, 3}, .kernel_size = {3, 3}}.init();
    nn_test::expect_error_mentions(
        [&] {
            m.forward(Tensor<4>::zeros({1, 2, 5, 5}), Tensor<4>::zeros({1, 18, 2, 3}));
        },
        {"[deform_conv2d]", "offset of shape [1, 18, 2, 3]", "expected [1, 18, 3, 3]"});
    nn_test::expect_error_mentions(
        [&] {
            m.forward(Tensor<4>::zeros({1, 3, 5, 5}), Tensor<4>::zeros({1, 18, 3, 3}));
        },
        {"[deform_conv2d]", "3 channels", "expects 2"});
    nn_test::expect_error_mentions(
        [&] {
            m.forward(Tensor<4>::zeros({1, 2, 5, 5}), Tensor<4>::zeros({1, 18, 3, 3}),
                      Tensor<4>::zeros({1, 8, 3, 3}));
        },
        {"[deform_conv2d]", "mask of shape [1, 8, 3, 3]", "expected [1, 9, 3, 3]"});
    EXPECT_THROW(
        (nn::DeformConv2dConfig{.channels = {3, 4}, .kernel_size = {3, 3}, .offset_groups = 2}.init()),
        Error);
}

}  // namespace

}  // namespace deform_conv_test
