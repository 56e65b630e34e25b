// burn::vision's colour conversions, filter2d, Transform2D and save_tensor_as_image against
// independent references: colorsys and torch's conv2d (scripts/vision_reference.py prints the values
// used here), a float64 bilinear sampler written here, and the pixels read back with read_image.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "burn/data/image.hpp"
#include "burn/vision/vision.hpp"

// No file-scope using-directive for burn::vision: in the unity build it would reach the files after
// this one (burn::vision::ops next to burn::ops).
using namespace burn;

namespace vision_image_test {

using namespace burn::vision;

std::vector<double> doubles(const TensorAny& t) {
    return burn::ops::into_data(t).convert(DType::f64).to_vec<double>();
}

// [1, 3, 1, P] images of the given pixels (channels first).
Tensor<4> pixels(const std::vector<std::array<double, 3>>& px) {
    std::vector<double> v(px.size() * 3);
    for (std::size_t i = 0; i < px.size(); ++i)
        for (std::size_t c = 0; c < 3; ++c) v[c * px.size() + i] = px[i][c];
    return Tensor<4>::from_data(TensorData(v, Dims{1, 3, 1, static_cast<int64_t>(px.size())}));
}

// grid_sample's bilinear read with border padding, align_corners, of one [H, W] plane in float64.
double sample(const std::vector<double>& img, int64_t h, int64_t w, double xn, double yn) {
    const double px = std::clamp((xn + 1) / 2 * static_cast<double>(w - 1), 0.0, static_cast<double>(w - 1));
    const double py = std::clamp((yn + 1) / 2 * static_cast<double>(h - 1), 0.0, static_cast<double>(h - 1));
    const auto x0 = static_cast<int64_t>(std::floor(px)), y0 = static_cast<int64_t>(std::floor(py));
    const int64_t x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
    const double fx = px - static_cast<double>(x0), fy = py - static_cast<double>(y0);
    auto at = [&](int64_t y, int64_t x) { return img[static_cast<std::size_t>(y * w + x)]; };
    return (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
           fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
}

// A per-process folder name, so that test binaries of several build trees can run at once.
std::string process_tag() {
    static const std::string tag = std::to_string(std::random_device()());
    return tag;
}

std::filesystem::path temp_png(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("burn_vision_test_" + process_tag() + "_" + name) /
           "out.png";
}

}  // namespace vision_image_test

TEST(VisionColor, HsvMatchesColorsysAndRoundTrips) {
    using namespace burn::vision;
    using namespace vision_image_test;
    const std::vector<std::array<double, 3>> rgb = {{0.2, 0.6, 0.9}, {0.78, 0.0, 0.45}, {0.5, 0.5, 0.5},
                                                    {1.0, 0.0, 0.0}, {0.1, 0.9, 0.9},   {0.3, 0.3, 0.7},
                                                    {0.9, 0.9, 0.1}, {0.0, 0.0, 0.0},   {0.25, 0.75, 0.25}};
    // colorsys.rgb_to_hsv, hue scaled to degrees
    const std::vector<std::array<double, 3>> hsv = {{205.7142857, 0.7777777778, 0.9},
                                                    {325.3846154, 1, 0.78},
                                                    {0, 0, 0.5},
                                                    {0, 1, 1},
                                                    {180, 0.8888888889, 0.9},
                                                    {240, 0.5714285714, 0.7},
                                                    {60, 0.8888888889, 0.9},
                                                    {0, 0, 0},
                                                    {120, 0.6666666667, 0.75}};
    const Tensor<4> x = pixels(rgb);
    rgb2hsv(x).to_data().assert_approx_eq(pixels(hsv).to_data(), 1e-5, 1e-4);
    hsv2rgb(pixels(hsv)).to_data().assert_approx_eq(x.to_data(), 1e-5, 1e-5);
    hsv2rgb(rgb2hsv(x)).to_data().assert_approx_eq(x.to_data(), 1e-5, 1e-5);
    // Hue is taken modulo 360.
    hsv2rgb(pixels({{360 + 205.7142857, 0.7777777778, 0.9}}))
        .to_data()
        .assert_approx_eq(pixels({rgb[0]}).to_data(), 1e-5, 1e-5);
    // BT.601 luma; grey -> RGB -> grey is the identity.
    const std::vector<double> grey = doubles(rgb2gray(x).handle());
    ASSERT_EQ(grey.size(), rgb.size());
    for (std::size_t i = 0; i < rgb.size(); ++i)
        EXPECT_NEAR(grey[i], 0.299 * rgb[i][0] + 0.587 * rgb[i][1] + 0.114 * rgb[i][2], 1e-6);
    const Tensor<4> g = rgb2gray(x);
    EXPECT_EQ(gray2rgb(g).dims(), (Shape<4>{1, 3, 1, 9}));
    rgb2gray(gray2rgb(g)).to_data().assert_approx_eq(g.to_data(), 1e-6, 1e-6);
    try {
        (void)rgb2hsv(g);
        FAIL() << "one channel is not RGB";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[rgb2hsv] expects [N, 3, H, W]"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)gray2rgb(x), ShapeError);
}

TEST(VisionFilter, Filter2dMatchesTorchConv2d) {
    using namespace burn::vision;
    std::vector<double> v(40);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7) % 11) - 3;
    const auto img = Tensor<4>::from_data(TensorData(v, Dims{1, 2, 4, 5}).convert(DType::f32));
    const auto k33 = Tensor<2>::from_floats({{1, 2, 0}, {-1, 3, 1}, {0.5, 0, -2}});
    const auto k24 = Tensor<2>::from_floats({{1, 0, -1, 2}, {0.5, 1, 1, -1}});
    // F.conv2d(F.pad(img, (kw // 2, (kw - 1) // 2, kh // 2, (kh - 1) // 2), mode), k, groups=2)
    const std::vector<float> reflect33 = {-14,  21.5, 20,    13,   20,   -0.5, 18.5,  0.5,  -1,    28,
                                          8.5,  -5.5, 20.5,  8,    26,   12.5, -12.5, 24.5, -10,   8,
                                          27.5, 13.5, -15.5, 21.5, 1,    24.5, 5,     3.5,  18.5,  14.5,
                                          0.5,  25,   1.5,   -5.5, 23.5, -6.5, 29,    16.5, -12.5, 27.5};
    const std::vector<float> edge24 = {-3.5, -7.5, 6.5,  9,    10,   -0.5, -4.5, 20.5, 1,    2,
                                       17.5, -8.5, -5.5, 13.5, 9,    2.5,  9.5,  1.5,  20.5, 16,
                                       13.5, 9.5,  12.5, -1.5, -0.5, 16.5, 12.5, 15.5, 1.5,  2.5,
                                       -4,   3,    28,   -2.5, -1.5, 3,    -1,   2,    15.5, 5.5};
    filter2d(img, k33, PadMode::Reflect())
        .to_data()
        .assert_approx_eq(TensorData(reflect33, Dims{1, 2, 4, 5}));
    filter2d(img, k24, PadMode::Edge()).to_data().assert_approx_eq(TensorData(edge24, Dims{1, 2, 4, 5}));
    // A 1 x 1 kernel scales; zero padding of a 3 x 3 ones kernel sums each neighbourhood.
    filter2d(img, Tensor<2>::from_floats({{2}})).to_data().assert_approx_eq((img * 2.0).to_data());
    const auto ones = Tensor<4>::ones({1, 1, 3, 3});
    filter2d(ones, Tensor<2>::ones({3, 3}), PadMode::Constant(0))
        .to_data()
        .assert_approx_eq(TensorData(std::vector<float>{4, 6, 4, 6, 9, 6, 4, 6, 4}, Dims{1, 1, 3, 3}));
    try {
        (void)filter2d(ones, Tensor<2>::ones({7, 7}), PadMode::Reflect());
        FAIL() << "reflect padding wider than the image";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[filter2d] reflect padding"), std::string::npos) << e.what();
    }
}

TEST(VisionTransform2D, MatricesComposeAndResampleLikeABilinearLoop) {
    using namespace burn::vision;
    using namespace vision_image_test;
    using M = Transform2D::Matrix;
    auto near = [](const M& a, const M& b) {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j) EXPECT_NEAR(a[i][j], b[i][j], 1e-6) << i << ", " << j;
    };
    const float pi = 3.14159265358979f;
    // rotation about (cx, cy) = translate(c) * rotate * translate(-c)
    near(Transform2D::rotation(pi / 2, 1, -1).matrix(), M{{{0, -1, 0}, {1, 0, -2}}});
    near(Transform2D::scale(0.5f, 2, 1, -1).matrix(), M{{{0.5f, 0, 0.5f}, {0, 2, 1}}});
    near(Transform2D::shear(0.5f, 0.25f, 2, 4).matrix(), M{{{1, 0.5f, -2}, {0.25f, 1, -0.5f}}});
    near(Transform2D::composed({Transform2D::translation(1, 2), Transform2D::scale(2, 3, 0, 0)}).matrix(),
         M{{{2, 0, 1}, {0, 3, 2}}});
    near(Transform2D::composed({}).matrix(), Transform2D::identity().matrix());
    // burn's own cases: translation, 90-degree rotation and a composition on [[1, 2], [3, 4]].
    const auto small = Tensor<4>::from_floats({{{{1, 2}, {3, 4}}}});
    Transform2D::translation(1, 1).transform(small).to_data().assert_approx_eq(
        Tensor<4>::from_floats({{{{2.5, 3}, {3.5, 4}}}}).to_data());
    Transform2D::rotation(pi / 2, 0, 0)
        .transform(small)
        .to_data()
        .assert_approx_eq(Tensor<4>::from_floats({{{{2, 4}, {1, 3}}}}).to_data(), 1e-5, 1e-5);
    Transform2D::composed({Transform2D::translation(0.2f, -0.5f), Transform2D::rotation(pi / 3, 0, 0)})
        .transform(small)
        .to_data()
        .assert_approx_eq(
            Tensor<4>::from_floats({{{{1.7830127, 2.8660254}, {1.1339746, 3.2830124}}}}).to_data(), 1e-5,
            1e-5);
    // A composed map on a 2 x 2 x 5 x 6 batch against the float64 sampler.
    const int64_t h = 5, w = 6;
    std::vector<double> v(static_cast<std::size_t>(2 * 2 * h * w));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.7 * static_cast<double>(i)) * 3;
    const auto imgs = Tensor<4>::from_data(TensorData(v, Dims{2, 2, h, w}).convert(DType::f32));
    const Transform2D t = Transform2D::composed({Transform2D::rotation(0.4f, 0.1f, -0.2f),
                                                 Transform2D::shear(0.3f, -0.1f, 0, 0),
                                                 Transform2D::scale(0.8f, 1.1f, 0.2f, 0)});
    const M& m = t.matrix();
    std::vector<double> want(v.size());
    for (int64_t p = 0; p < 4; ++p) {
        const std::vector<double> plane(v.begin() + p * h * w, v.begin() + (p + 1) * h * w);
        for (int64_t i = 0; i < h; ++i)
            for (int64_t j = 0; j < w; ++j) {
                const double xn = -1 + 2.0 * static_cast<double>(j) / static_cast<double>(w - 1);
                const double yn = -1 + 2.0 * static_cast<double>(i) / static_cast<double>(h - 1);
                want[static_cast<std::size_t>(p * h * w + i * w + j)] =
                    sample(plane, h, w, m[0][0] * xn + m[0][1] * yn + m[0][2],
                           m[1][0] * xn + m[1][1] * yn + m[1][2]);
            }
    }
    t.transform(imgs)
        .to_data()
        .convert(DType::f64)
        .assert_approx_eq(TensorData(want, Dims{2, 2, h, w}), 1e-4, 1e-4);
}

TEST(VisionSave, TensorsBecomePngPixels) {
    using namespace burn::vision;
    using namespace vision_image_test;
    if (!data::png_available())
        GTEST_SKIP() << "this build has no libpng (BURN_PNG): PNG encoding is unavailable";
    // [N=2, C=2, H=2, W=3] values 0..23: scaled by 1/23, upsampled x2 (nearest), tiled top to bottom;
    // channel 0 red, channel 1 green, blue 0.
    std::vector<float> v(24);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 3;
    const auto x = Tensor<4>::from_data(TensorData(v, Dims{2, 2, 2, 3}));
    const auto path = temp_png("tiled");
    TensorDisplayOptions o;
    o.batch = BatchDisplay::tiled;
    o.width_out = 6;
    o.height_out = 4;
    save_tensor_as_image(x, o, path);
    const data::Image img = data::read_image(path);
    ASSERT_EQ(std::vector<int>({img.height, img.width, img.channels}), std::vector<int>({8, 6, 3}));
    for (int y = 0; y < 8; ++y)
        for (int xx = 0; xx < 6; ++xx) {
            const int n = y / 4, sy = (y % 4) / 2, sx = xx / 2;
            for (int c = 0; c < 3; ++c) {
                const int want =
                    c == 2 ? 0
                           : static_cast<int>(std::floor(255.0 * (((n * 2 + c) * 2 + sy) * 3 + sx) / 23.0));
                EXPECT_EQ(img.at(y, xx, c), want) << y << ", " << xx << ", " << c;
            }
        }
    // [H, W] in monochrome from blue (the minimum) to white (the maximum), at the tensor's size.
    const auto hw = Tensor<2>::from_floats({{-1, 0, 3}});
    TensorDisplayOptions mono;
    mono.dim_order = ImageDimOrder::hw;
    mono.color = ColorDisplay::monochrome({0, 0, 1}, {1, 1, 1});
    save_tensor_as_image(hw, mono, path);
    const data::Image m = data::read_image(path);
    ASSERT_EQ(std::vector<int>({m.height, m.width}), std::vector<int>({1, 3}));
    EXPECT_EQ(m.pixels, std::vector<uint8_t>({0, 0, 255, 63, 63, 255, 255, 255, 255}));
    std::filesystem::remove_all(path.parent_path());
    try {
        save_tensor_as_image(Tensor<4>::zeros({1, 4, 2, 2}), {}, path);
        FAIL() << "four channels as RGB";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[save_tensor_as_image] RGB display takes 1 to 3 channels"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(save_tensor_as_image(Tensor<3>::zeros({2, 2, 2}), {}, path), ShapeError);
}
