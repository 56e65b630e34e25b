#pragma once
/// Morphology (burn-vision's Morphology trait, OpenCV's erode / dilate): each output pixel is the
/// minimum (erode) or maximum (dilate) of the input pixels under the structuring element's set cells,
/// per channel. The input is [H, W, C] (channels last, as burn's HWC layout); float, int and bool
/// tensors are accepted and the output keeps the input's dtype. Computed on the host in float64
/// (exact for every float and for ints up to 2^53), so not differentiable.
///
///     auto se = vision::create_structuring_element(vision::KernelShape::ellipse, 5, 5);
///     Tensor<3, Bool> opened = vision::dilate(vision::erode(mask, se), se);
#include <cstdint>
#include <optional>
#include <vector>

#include "burn/tensor/tensor.hpp"

namespace burn::vision {

/// A cell of a kernel: x is the column, y the row.
struct Point {
    int64_t x = 0;
    int64_t y = 0;
};

/// The structuring element's shape (OpenCV's MORPH_RECT, MORPH_CROSS, MORPH_ELLIPSE).
enum class KernelShape { rect, cross, ellipse };

/// What lies outside the image (OpenCV's border types). constant uses MorphOptions::border_value, or,
/// without one, a value that never wins (+inf for erode, -inf for dilate).
enum class BorderType {
    constant,
    replicate,   // aaa|abcd|ddd
    reflect,     // cba|abcd|dcb (edge repeated)
    reflect101,  // dcb|abcd|cba (edge not repeated)
    wrap,        // bcd|abcd|abc
};

struct MorphOptions {
    /// The kernel cell placed on the output pixel; the kernel's centre (width / 2, height / 2) when unset.
    std::optional<Point> anchor;
    /// How many times the operation is applied in turn (at least 1).
    int64_t iterations = 1;
    BorderType border_type = BorderType::constant;
    /// For BorderType::constant: one value for every channel, or one per channel.
    std::optional<std::vector<double>> border_value;
};

/// A height x width bool kernel: rect (all set), cross (the anchor's row and column) or ellipse
/// (the ellipse inscribed in the rectangle), drawn as OpenCV's getStructuringElement draws them.
Tensor<2, Bool> create_structuring_element(KernelShape shape, int64_t height, int64_t width,
                                           std::optional<Point> anchor = std::nullopt,
                                           const Device& device = Device());

namespace ops {
/// input [H, W, C] (any dtype), kernel [kH, kW] bool; dilate chooses max, else min.
TensorAny morphology(const TensorAny& input, const TensorAny& kernel, bool dilate,
                     const MorphOptions& options);
}  // namespace ops

/// out[y, x, c] = min over set kernel cells (i, j) of input[y + i - anchor.y, x + j - anchor.x, c].
template <TensorKind K>
Tensor<3, K> erode(const Tensor<3, K>& input, const Tensor<2, Bool>& kernel,
                   const MorphOptions& options = {}) {
    return Tensor<3, K>(ops::morphology(input.handle(), kernel.handle(), false, options));
}
/// The same with max (OpenCV's dilate: the kernel is not mirrored).
template <TensorKind K>
Tensor<3, K> dilate(const Tensor<3, K>& input, const Tensor<2, Bool>& kernel,
                    const MorphOptions& options = {}) {
    return Tensor<3, K>(ops::morphology(input.handle(), kernel.handle(), true, options));
}

}  // namespace burn::vision
