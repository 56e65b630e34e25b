#pragma once
/// Colour-space conversions of image batches [N, C, H, W] (burn-vision's ColorConversion trait; the
/// formulas are OpenCV's for float images). Values are in [0, 1]; hue is in degrees, [0, 360).
///
///     Tensor<4> grey = vision::rgb2gray(rgb);   // [N, 1, H, W]
///     Tensor<4> hsv = vision::rgb2hsv(rgb);     // [N, 3, H, W]: hue, saturation, value
#include "burn/tensor/tensor.hpp"

namespace burn::vision {

/// [N, 3, H, W] -> [N, 1, H, W]: 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601). A composite of tensor
/// ops: any device, differentiable.
Tensor<4> rgb2gray(const Tensor<4>& images);
/// [N, 1, H, W] -> [N, 3, H, W]: the grey channel repeated (differentiable).
Tensor<4> gray2rgb(const Tensor<4>& images);
/// [N, 3, H, W] RGB -> HSV: V = max, S = (V - min) / V (0 where V = 0), H from whichever of R, G, B
/// is the maximum (R first on ties, then G), 0 for greys. Computed on the host in float64.
Tensor<4> rgb2hsv(const Tensor<4>& images);
/// [N, 3, H, W] HSV (hue in degrees, taken modulo 360) -> RGB. Computed on the host in float64.
Tensor<4> hsv2rgb(const Tensor<4>& images);

}  // namespace burn::vision
