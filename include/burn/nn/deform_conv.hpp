#pragma once
/// DeformConv2d (burn's DeformConv2d, torchvision.ops.DeformConv2d): a 2-D convolution whose kernel taps
/// read the input at learned fractional offsets (bilinear, zero outside the image), each tap optionally
/// scaled by a mask (DCNv2). ops::deform_conv2d is the function (torchvision.ops.deform_conv2d): a
/// composite of grid_sample_2d, products and a grouped matmul, so every device runs it and autodiff
/// differentiates it with respect to the input, the offsets, the mask, the weight and the bias.
///
///     auto conv = nn::DeformConv2dConfig{.channels = {16, 32}, .kernel_size = {3, 3},
///                                        .padding = nn::Explicit2d{1, 1}}.init();
///     // offset [batch, 2 * offset_groups * 3 * 3, h, w]: (dy, dx) per tap; mask [batch, 9, h, w]
///     Tensor<4> y = conv.forward(x, offset, mask);
#include <array>
#include <cstddef>
#include <optional>

#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/padding.hpp"

namespace burn {

struct DeformConvOptions {
    std::array<std::size_t, 2> stride{1, 1};
    /// (begin, end) rows and columns of zeros around the image.
    std::array<std::pair<std::size_t, std::size_t>, 2> padding{};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t weight_groups = 1;  // channels split into groups convolved separately (Conv2d's groups)
    std::size_t offset_groups = 1;  // channels split into groups that share one set of offsets
};

namespace ops {

/// x [N, C, H, W], offset [N, 2 * offset_groups * kh * kw, Ho, Wo] (for each offset group and tap
/// (i, j) in row-major order, the row offset then the column offset), weight [C_out, C / weight_groups,
/// kh, kw], mask [N, offset_groups * kh * kw, Ho, Wo] or undefined, bias [C_out] or undefined ->
/// [N, C_out, Ho, Wo]. Tap (i, j) of output (ho, wo) reads x at row ho * stride - pad_top + i * dilation
/// + dy and column wo * stride - pad_left + j * dilation + dx, as torchvision.ops.deform_conv2d.
TensorAny deform_conv2d(const TensorAny& x, const TensorAny& offset, const TensorAny& weight,
                        const TensorAny& mask, const TensorAny& bias, const DeformConvOptions& options);

}  // namespace ops

namespace nn {

struct DeformConv2d {
    Param<Tensor<4>> weight;               // [channels_out, channels_in / weight_groups, kernel_h, kernel_w]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t weight_groups = 1;
    std::size_t offset_groups = 1;
    PaddingConfig2d padding = Valid{};

    /// input [batch, channels_in, height, width], offset [batch, 2 * offset_groups * kh * kw, h_out,
    /// w_out], mask [batch, offset_groups * kh * kw, h_out, w_out] -> [batch, channels_out, h_out, w_out]
    Tensor<4> forward(const Tensor<4>& input, const Tensor<4>& offset,
                      const std::optional<Tensor<4>>& mask = std::nullopt) const;

    BURN_MODULE(DeformConv2d, weight, bias, stride, kernel_size, dilation, weight_groups, offset_groups,
                padding)
};

struct DeformConv2dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t weight_groups = 1;
    std::size_t offset_groups = 1;
    PaddingConfig2d padding = Valid{};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    DeformConv2d init(const Device& device = Device()) const;

    BURN_CONFIG(DeformConv2dConfig, channels, kernel_size, stride, dilation, weight_groups, offset_groups,
                padding, bias, initializer)
};

}  // namespace nn

}  // namespace burn
