#pragma once
/// filter2d (burn-vision's filter2d, OpenCV's filter2D): every channel of an image batch correlated
/// with one 2-D kernel, the border filled by a PadMode. A composite of pad and a depthwise conv2d:
/// any device, differentiable with respect to the images and the kernel.
///
///     Tensor<4> blurred = vision::filter2d(images, Tensor<2>::full({3, 3}, 1.0 / 9), PadMode::Reflect());
#include "burn/tensor/pad_mode.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::vision {

/// images [N, C, H, W], kernel [kH, kW] -> [N, C, H, W]:
/// out[n, c, y, x] = sum_ij kernel[i, j] * padded[n, c, y + i, x + j], the input padded by kH / 2 rows
/// above and (kH - 1) / 2 below (kW / 2 and (kW - 1) / 2 columns left and right), so the output keeps
/// the input's size (an even kernel's anchor is the cell after its middle). The kernel is cast to the
/// images' dtype. Reflect padding needs kH / 2 < H and kW / 2 < W.
Tensor<4> filter2d(const Tensor<4>& images, const Tensor<2>& kernel,
                   const PadMode& border = PadMode::Reflect());

}  // namespace burn::vision
