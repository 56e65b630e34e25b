#pragma once
/// 3-D pools on [batch, channels, depth, height, width]: MaxPool3d, AvgPool3d, AdaptiveAvgPool3d
/// (PyTorch's MaxPool3d / AvgPool3d / AdaptiveAvgPool3d; burn has none yet). Box windows factor per
/// dimension, so each runs as the 2-D pool over (height, width) followed by the 1-D pool over depth:
/// exact for max, and for averages too (the divisor, with or without padded positions, is a product
/// of per-dimension counts). Gradients come from the 2-D / 1-D pools' rules.
///
///     auto pool = nn::MaxPool3dConfig{{2, 2, 2}}.with_strides({2, 2, 2}).init();
///     Tensor<5> y = pool.forward(x);  // [b, c, d / 2, h / 2, w / 2]
#include <array>
#include <cstddef>

#include "burn/module/module.hpp"
#include "burn/nn/padding.hpp"

namespace burn::nn {

struct MaxPool3d {
    std::array<std::size_t, 3> kernel_size{1, 1, 1};
    std::array<std::size_t, 3> strides{1, 1, 1};
    PaddingConfig3d padding = Valid{};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    bool ceil_mode = false;

    Tensor<5> forward(const Tensor<5>& input) const { return Tensor<5>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(MaxPool3d, kernel_size, strides, padding, dilation, ceil_mode)
};

/// strides default to 1 (burn's convention for MaxPool2dConfig; PyTorch defaults them to the kernel).
struct MaxPool3dConfig {
    std::array<std::size_t, 3> kernel_size{0, 0, 0};
    std::array<std::size_t, 3> strides{1, 1, 1};
    PaddingConfig3d padding = Valid{};
    std::array<std::size_t, 3> dilation{1, 1, 1};
    bool ceil_mode = false;

    MaxPool3d init() const;

    BURN_CONFIG(MaxPool3dConfig, kernel_size, strides, padding, dilation, ceil_mode)
};

struct AvgPool3d {
    std::array<std::size_t, 3> kernel_size{1, 1, 1};
    std::array<std::size_t, 3> strides{1, 1, 1};
    PaddingConfig3d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    Tensor<5> forward(const Tensor<5>& input) const { return Tensor<5>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AvgPool3d, kernel_size, strides, padding, count_include_pad, ceil_mode)
};

struct AvgPool3dConfig {
    std::array<std::size_t, 3> kernel_size{0, 0, 0};
    std::array<std::size_t, 3> strides{1, 1, 1};
    PaddingConfig3d padding = Valid{};
    bool count_include_pad = true;
    bool ceil_mode = false;

    AvgPool3d init() const;

    BURN_CONFIG(AvgPool3dConfig, kernel_size, strides, padding, count_include_pad, ceil_mode)
};

/// Mean over the bins [floor(i * in / out), ceil((i + 1) * in / out)) of each spatial dim.
struct AdaptiveAvgPool3d {
    std::array<std::size_t, 3> output_size{1, 1, 1};

    Tensor<5> forward(const Tensor<5>& input) const { return Tensor<5>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(AdaptiveAvgPool3d, output_size)
};

struct AdaptiveAvgPool3dConfig {
    std::array<std::size_t, 3> output_size{0, 0, 0};
    AdaptiveAvgPool3d init() const;
    BURN_CONFIG(AdaptiveAvgPool3dConfig, output_size)
};

}  // namespace burn::nn

/// The functional form (burn's tensor::module::adaptive_avg_pool3d): x [N, C, D, H, W] ->
/// [N, C, od, oh, ow], each output the mean of its window [floor(i * in / out), ceil((i + 1) * in / out))
/// per dim, as PyTorch's adaptive_avg_pool3d. Differentiable.
namespace burn::tensor::module {
inline Tensor<5> adaptive_avg_pool3d(const Tensor<5>& x, std::array<std::size_t, 3> output_size) {
    return nn::AdaptiveAvgPool3dConfig{output_size}.init().forward(x);
}
}  // namespace burn::tensor::module
