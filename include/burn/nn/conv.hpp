#pragma once
/// Convolution layers: Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d. Weights use PyTorch's
/// layouts (so PyTorch weights load as they are): convolution [out, in / groups, k...], transposed
/// convolution [in, out / groups, k...]; the bias is [out]. The default initialiser is PyTorch's
/// (uniform in +-1/sqrt(fan_in) for weight and bias).
///
///     auto conv = nn::Conv2dConfig{{1, 32}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device);
///     Tensor<4> y = conv.forward(x);  // [batch, 1, 28, 28] -> [batch, 32, 28, 28]
#include <array>
#include <optional>

#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/padding.hpp"

namespace burn::nn {

struct Conv1d {
    Param<Tensor<3>> weight;               // [channels_out, channels_in / groups, kernel_size]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::size_t stride = 1;
    std::size_t kernel_size = 1;
    std::size_t dilation = 1;
    std::size_t groups = 1;
    PaddingConfig1d padding = Valid{};

    /// [batch, channels_in, length] -> [batch, channels_out, length_out]
    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Conv1d, weight, bias, stride, kernel_size, dilation, groups, padding)
};

struct Conv1dConfig {
    std::size_t channels_in = 0;
    std::size_t channels_out = 0;
    std::size_t kernel_size = 0;
    std::size_t stride = 1;
    std::size_t dilation = 1;
    std::size_t groups = 1;
    PaddingConfig1d padding = Valid{};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    Conv1d init(const Device& device = Device()) const;

    BURN_CONFIG(Conv1dConfig, channels_in, channels_out, kernel_size, stride, dilation, groups, padding, bias,
                initializer)
};

struct Conv2d {
    Param<Tensor<4>> weight;               // [channels_out, channels_in / groups, kernel_h, kernel_w]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t groups = 1;
    PaddingConfig2d padding = Valid{};

    /// [batch, channels_in, height, width] -> [batch, channels_out, height_out, width_out]
    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Conv2d, weight, bias, stride, kernel_size, dilation, groups, padding)
};

struct Conv2dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t groups = 1;
    PaddingConfig2d padding = Valid{};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    Conv2d init(const Device& device = Device()) const;

    BURN_CONFIG(Conv2dConfig, channels, kernel_size, stride, dilation, groups, padding, bias, initializer)
};

struct Conv3d {
    Param<Tensor<5>> weight;               // [channels_out, channels_in / groups, kd, kh, kw]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::array<std::size_t, 3> stride{1, 1, 1};
    std::array<std::size_t, 3> kernel_size{1, 1, 1};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    std::size_t groups = 1;
    PaddingConfig3d padding = Valid{};

    /// [batch, channels_in, depth, height, width] -> [batch, channels_out, d_out, h_out, w_out]
    Tensor<5> forward(const Tensor<5>& input) const { return Tensor<5>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Conv3d, weight, bias, stride, kernel_size, dilation, groups, padding)
};

struct Conv3dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::array<std::size_t, 3> kernel_size{0, 0, 0};
    std::array<std::size_t, 3> stride{1, 1, 1};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    std::size_t groups = 1;
    PaddingConfig3d padding = Valid{};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    Conv3d init(const Device& device = Device()) const;

    BURN_CONFIG(Conv3dConfig, channels, kernel_size, stride, dilation, groups, padding, bias, initializer)
};

/// Output length: (in - 1) * stride - 2 * padding + dilation * (kernel_size - 1) + padding_out + 1.
struct ConvTranspose1d {
    Param<Tensor<3>> weight;               // [channels_in, channels_out / groups, kernel_size]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::size_t stride = 1;
    std::size_t kernel_size = 1;
    std::size_t dilation = 1;
    std::size_t groups = 1;
    std::size_t padding = 0;
    std::size_t padding_out = 0;

    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(ConvTranspose1d, weight, bias, stride, kernel_size, dilation, groups, padding, padding_out)
};

struct ConvTranspose1dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::size_t kernel_size = 0;
    std::size_t stride = 1;
    std::size_t dilation = 1;
    std::size_t groups = 1;
    std::size_t padding = 0;
    std::size_t padding_out = 0;
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    ConvTranspose1d init(const Device& device = Device()) const;

    BURN_CONFIG(ConvTranspose1dConfig, channels, kernel_size, stride, dilation, groups, padding, padding_out,
                bias, initializer)
};

struct ConvTranspose2d {
    Param<Tensor<4>> weight;               // [channels_in, channels_out / groups, kernel_h, kernel_w]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t groups = 1;
    std::array<std::size_t, 2> padding{0, 0};
    std::array<std::size_t, 2> padding_out{0, 0};

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(ConvTranspose2d, weight, bias, stride, kernel_size, dilation, groups, padding, padding_out)
};

struct ConvTranspose2dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::size_t groups = 1;
    std::array<std::size_t, 2> padding{0, 0};
    std::array<std::size_t, 2> padding_out{0, 0};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    ConvTranspose2d init(const Device& device = Device()) const;

    BURN_CONFIG(ConvTranspose2dConfig, channels, kernel_size, stride, dilation, groups, padding, padding_out,
                bias, initializer)
};

struct ConvTranspose3d {
    Param<Tensor<5>> weight;  // [channels_in, channels_out / groups, kernel_d, kernel_h, kernel_w]
    std::optional<Param<Tensor<1>>> bias;  // [channels_out]
    std::array<std::size_t, 3> stride{1, 1, 1};
    std::array<std::size_t, 3> kernel_size{1, 1, 1};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    std::size_t groups = 1;
    std::array<std::size_t, 3> padding{0, 0, 0};
    std::array<std::size_t, 3> padding_out{0, 0, 0};

    /// [batch, channels_in, d, h, w] -> [batch, channels_out, d_out, h_out, w_out]
    Tensor<5> forward(const Tensor<5>& input) const { return Tensor<5>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(ConvTranspose3d, weight, bias, stride, kernel_size, dilation, groups, padding, padding_out)
};

struct ConvTranspose3dConfig {
    std::array<std::size_t, 2> channels{0, 0};  // {in, out}
    std::array<std::size_t, 3> kernel_size{0, 0, 0};
    std::array<std::size_t, 3> stride{1, 1, 1};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    std::size_t groups = 1;
    std::array<std::size_t, 3> padding{0, 0, 0};
    std::array<std::size_t, 3> padding_out{0, 0, 0};
    bool bias = true;
    Initializer initializer = default_layer_initializer();

    ConvTranspose3d init(const Device& device = Device()) const;

    BURN_CONFIG(ConvTranspose3dConfig, channels, kernel_size, stride, dilation, groups, padding, padding_out,
                bias, initializer)
};

}  // namespace burn::nn
