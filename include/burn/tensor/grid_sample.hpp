#pragma once
/// Spatial transformers: affine_grid (torch.nn.functional.affine_grid, burn's affine_grid_2d) and
/// grid_sample (F.grid_sample, burn's grid_sample_2d). Composites of elementwise ops, matmul and
/// select: every device runs them, and autodiff differentiates grid_sample with respect to the input
/// and, through the interpolation weights, the grid.
#include <array>
#include <cstdint>

#include "burn/config/config.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn {

/// Where grid_sample reads for a coordinate outside the input: zeros (torch's default), the border
/// pixel, or the input reflected at its edges.
enum class GridSamplePaddingMode { zeros, border, reflection };
BURN_ENUM(GridSamplePaddingMode, zeros, border, reflection)

struct GridSampleOptions {
    /// nearest (rounding half to even, as torch), bilinear (the default) or bicubic (A = -0.75).
    InterpolateMode mode = InterpolateMode::bilinear;
    GridSamplePaddingMode padding_mode = GridSamplePaddingMode::zeros;
    /// true: -1 and 1 are the centres of the corner pixels; false (torch's default): their outer edges.
    bool align_corners = false;
};

namespace ops {

/// x [N, C, H, W] sampled at grid [N, H_out, W_out, 2] (x then y, normalised to [-1, 1]) ->
/// [N, C, H_out, W_out]. x and grid are float tensors on one device. A NaN coordinate reads as outside.
TensorAny grid_sample_2d(TensorAny x, TensorAny grid, const GridSampleOptions& options = {});
/// The sampling grid [N, H, W, 2] of the affine maps theta [N, 2, 3] for an output of size [N, C, H, W]:
/// grid[n, i, j] = theta[n] (x_j, y_i, 1), with x_j and y_i the normalised pixel centres (align_corners
/// as grid_sample's).
TensorAny affine_grid_2d(TensorAny theta, std::array<int64_t, 4> size, bool align_corners = false);

}  // namespace ops

inline Tensor<4> grid_sample_2d(const Tensor<4>& x, const Tensor<4>& grid,
                                const GridSampleOptions& options = {}) {
    return Tensor<4>(ops::grid_sample_2d(x.handle(), grid.handle(), options));
}
inline Tensor<4> affine_grid_2d(const Tensor<3>& theta, std::array<int64_t, 4> size,
                                bool align_corners = false) {
    return Tensor<4>(ops::affine_grid_2d(theta.handle(), size, align_corners));
}

}  // namespace burn

/// The same under burn's module-function path.
namespace burn::tensor::module {
using burn::affine_grid_2d;
using burn::grid_sample_2d;
}  // namespace burn::tensor::module
