#pragma once
/// Pooling layers: MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d.
/// As in burn, the stride defaults to 1 (PyTorch's defaults to the kernel size: for the usual
/// "MaxPool2" write `nn::MaxPool2dConfig{{2, 2}, {2, 2}}`).
#include <array>

#include "burn/module/module.hpp"
#include "burn/nn/padding.hpp"

namespace burn::nn {

struct MaxPool1d {
    std::size_t kernel_size = 1;
    std::size_t stride = 1;
    PaddingConfig1d padding = Valid{};
    std::size_t dilation = 1;
    bool ceil_mode = false;

    /// [batch, channels, length] -> [batch, channels, length_out]
    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(MaxPool1d, kernel_size, stride, padding, dilation, ceil_mode)
};

struct MaxPool1dConfig {
    std::size_t kernel_size = 0;
    std::size_t stride = 1;
    PaddingConfig1d padding = Valid{};
    std::size_t dilation = 1;
    bool ceil_mode = false;

    MaxPool1d init() const;

    BURN_CONFIG(MaxPool1dConfig, kernel_size, stride, padding, dilation, ceil_mode)
};

struct MaxPool2d {
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> strides{1, 1};
    PaddingConfig2d padding = Valid{};
    std::array<std::size_t, 2> dilation{1, 1};
    bool ceil_mode = false;

    /// [batch, channels, height, width] -> [batch, channels, height_out, width_out]
    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(MaxPool2d, kernel_size, strides, padding, dilation, ceil_mode)
};

struct MaxPool2dConfig {
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> strides{1, 1};
    PaddingConfig2d padding = Valid{};
    std::array<std::size_t, 2> dilation{1, 1};
    bool ceil_mode = false;

    MaxPool2d init() const;

    BURN_CONFIG(MaxPool2dConfig, kernel_size, strides, padding, dilation, ceil_mode)
};

/// count_include_pad: padded positions count in the divisor (PyTorch's and burn's default).
struct AvgPool1d {
    std::size_t kernel_size = 1;
    std::size_t stride = 1;
    PaddingConfig1d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AvgPool1d, kernel_size, stride, padding, count_include_pad, ceil_mode)
};

struct AvgPool1dConfig {
    std::size_t kernel_size = 0;
    std::size_t stride = 1;
    PaddingConfig1d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    AvgPool1d init() const;

    BURN_CONFIG(AvgPool1dConfig, kernel_size, stride, padding, count_include_pad, ceil_mode)
};

struct AvgPool2d {
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> strides{1, 1};
    PaddingConfig2d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AvgPool2d, kernel_size, strides, padding, count_include_pad, ceil_mode)
};

struct AvgPool2dConfig {
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> strides{1, 1};
    PaddingConfig2d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    AvgPool2d init() const;

    BURN_CONFIG(AvgPool2dConfig, kernel_size, strides, padding, count_include_pad, ceil_mode)
};

/// Mean over the bins [floor(i * in / out), ceil((i + 1) * in / out)): any input size to output_size.
struct AdaptiveAvgPool1d {
    std::size_t output_size = 1;

    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AdaptiveAvgPool1d, output_size)
};

struct AdaptiveAvgPool1dConfig {
    std::size_t output_size = 0;
    AdaptiveAvgPool1d init() const;
    BURN_CONFIG(AdaptiveAvgPool1dConfig, output_size)
};

struct AdaptiveAvgPool2d {
    std::array<std::size_t, 2> output_size{1, 1};

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AdaptiveAvgPool2d, output_size)
};

struct AdaptiveAvgPool2dConfig {
    std::array<std::size_t, 2> output_size{0, 0};
    AdaptiveAvgPool2d init() const;
    BURN_CONFIG(AdaptiveAvgPool2dConfig, output_size)
};

}  // namespace burn::nn
