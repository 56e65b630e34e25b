#pragma once
/// Transform2D (burn-vision's Transform2D): a 2-D affine map as a 2 x 3 matrix acting on column
/// vectors (x, y, 1) in the normalised coordinates of affine_grid_2d ([-1, 1] from the first pixel
/// centre to the last). transform() resamples images through it: output pixel p reads the input at
/// matrix * p (affine_grid_2d, then grid_sample_2d).
///
///     auto t = vision::Transform2D::composed({vision::Transform2D::rotation(0.3f, 0, 0),
///                                             vision::Transform2D::scale(1.2f, 1.2f, 0, 0)});
///     Tensor<4> out = t.transform(images);   // [N, C, H, W]
#include <array>
#include <vector>

#include "burn/tensor/grid_sample.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::vision {

class Transform2D {
  public:
    using Matrix = std::array<std::array<float, 3>, 2>;

    /// x -> x.
    Transform2D() = default;
    explicit Transform2D(const Matrix& matrix) : m_(matrix) {}

    static Transform2D identity() { return Transform2D(); }
    /// Rotation by theta radians about (cx, cy).
    static Transform2D rotation(float theta, float cx, float cy);
    /// Scaling by sx, sy about (cx, cy).
    static Transform2D scale(float sx, float sy, float cx, float cy);
    static Transform2D translation(float tx, float ty);
    /// x' = x + shx * (y - cy), y' = y + shy * (x - cx).
    static Transform2D shear(float shx, float shy, float cx, float cy);
    /// The product t[0] * t[1] * ... (t.back() acts first on a point).
    static Transform2D composed(const std::vector<Transform2D>& transforms);

    /// this * other: other acts first.
    Transform2D then_after(const Transform2D& other) const;
    const Matrix& matrix() const { return m_; }

    /// images [N, C, H, W] resampled through the matrix, the same shape. The defaults are burn's:
    /// bilinear, border padding, align_corners (the corner pixels' centres at -1 and 1).
    Tensor<4> transform(const Tensor<4>& images,
                        const GridSampleOptions& options = {InterpolateMode::bilinear,
                                                            GridSamplePaddingMode::border, true}) const;

  private:
    Matrix m_{{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}};
};

}  // namespace burn::vision
