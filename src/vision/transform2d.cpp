// Transform2D: 2 x 3 affine matrices, composed on the host and applied with affine_grid_2d +
// grid_sample_2d.
#include "burn/vision/transform2d.hpp"

#include <cmath>

#include "burn/core/error.hpp"

namespace burn::vision {

Transform2D Transform2D::rotation(float theta, float cx, float cy) {
    const float c = std::cos(theta), s = std::sin(theta);
    return Transform2D(Matrix{{{c, -s, cx - c * cx + s * cy}, {s, c, cy - s * cx - c * cy}}});
}

Transform2D Transform2D::scale(float sx, float sy, float cx, float cy) {
    return Transform2D(Matrix{{{sx, 0.0f, cx - sx * cx}, {0.0f, sy, cy - sy * cy}}});
}

Transform2D Transform2D::translation(float tx, float ty) {
    return Transform2D(Matrix{{{1.0f, 0.0f, tx}, {0.0f, 1.0f, ty}}});
}

Transform2D Transform2D::shear(float shx, float shy, float cx, float cy) {
    return Transform2D(Matrix{{{1.0f, shx, -shx * cy}, {shy, 1.0f, -shy * cx}}});
}

Transform2D Transform2D::then_after(const Transform2D& other) const {
    const Matrix& a = m_;
    const Matrix& b = other.m_;
    Matrix r{};
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        r[i][2] += a[i][2];
    }
    return Transform2D(r);
}

Transform2D Transform2D::composed(const std::vector<Transform2D>& transforms) {
    Transform2D out;
    for (const Transform2D& t : transforms) out = out.then_after(t);
    return out;
}

Tensor<4> Transform2D::transform(const Tensor<4>& images, const GridSampleOptions& options) const {
    const Dims& s = images.handle().shape();
    std::vector<float> theta;
    theta.reserve(static_cast<std::size_t>(s[0]) * 6);
    for (int64_t n = 0; n < s[0]; ++n)
        for (const auto& row : m_) theta.insert(theta.end(), row.begin(), row.end());
    const Tensor<3> t =
        Tensor<3>::from_data(TensorData(theta, Dims{s[0], 2, 3}), images.device()).cast(images.dtype());
    const Tensor<4> grid = affine_grid_2d(t, {s[0], s[1], s[2], s[3]}, options.align_corners);
    return grid_sample_2d(images, grid, options);
}

}  // namespace burn::vision
