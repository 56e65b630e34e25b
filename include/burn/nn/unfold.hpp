#pragma once
/// Unfold4d (burn's Unfold4d, PyTorch's nn.Unfold): the sliding windows of [batch, channels, height,
/// width] as columns [batch, channels * kh * kw, windows] (im2col), and Fold4d (PyTorch's nn.Fold), its
/// adjoint: columns summed back into [batch, channels, height, width] (col2im). Both are
/// ops::unfold4d / ops::fold4d (burn/tensor/module_ops.hpp), differentiable on autodiff devices.
///
///     auto unfold = nn::Unfold4dConfig{.kernel_size = {3, 3}, .padding = {1, 1}}.init();
///     Tensor<3> cols = unfold.forward(images);                       // [b, c * 9, h * w]
///     auto fold = nn::Fold4dConfig{.output_size = {h, w}, .kernel_size = {3, 3}, .padding = {1, 1}}.init();
///     Tensor<4> back = fold.forward(cols);                           // each pixel times its window count
#include <array>
#include <cstddef>

#include "burn/module/module.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn::nn {

struct Unfold4d {
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::array<std::size_t, 2> padding{0, 0};

    Tensor<3> forward(const Tensor<4>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const {
        return ops::unfold4d(input, kernel_size, UnfoldOptions{stride, padding, dilation});
    }

    BURN_MODULE(Unfold4d, kernel_size, stride, dilation, padding)
};

struct Unfold4dConfig {
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::array<std::size_t, 2> padding{0, 0};

    Unfold4d init() const;

    BURN_CONFIG(Unfold4dConfig, kernel_size, stride, dilation, padding)
};

struct Fold4d {
    std::array<std::size_t, 2> output_size{0, 0};
    std::array<std::size_t, 2> kernel_size{1, 1};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::array<std::size_t, 2> padding{0, 0};

    Tensor<4> forward(const Tensor<3>& columns) const { return Tensor<4>(forward_any(columns.handle())); }
    TensorAny forward_any(const TensorAny& columns) const {
        return ops::fold4d(columns, output_size, kernel_size, UnfoldOptions{stride, padding, dilation});
    }

    BURN_MODULE(Fold4d, output_size, kernel_size, stride, dilation, padding)
};

struct Fold4dConfig {
    std::array<std::size_t, 2> output_size{0, 0};
    std::array<std::size_t, 2> kernel_size{0, 0};
    std::array<std::size_t, 2> stride{1, 1};
    std::array<std::size_t, 2> dilation{1, 1};
    std::array<std::size_t, 2> padding{0, 0};

    Fold4d init() const;

    BURN_CONFIG(Fold4dConfig, output_size, kernel_size, stride, dilation, padding)
};

}  // namespace burn::nn
