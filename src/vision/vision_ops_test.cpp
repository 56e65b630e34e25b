// burn::vision's connected components, morphology and NMS against independent references: a
// breadth-first search, a direct loop over a border-extended image, and torchvision.ops.nms
// (scripts/vision_reference.py prints the indices used here).
#include <gtest/gtest.h>

#include <deque>

#include "burn/vision/vision.hpp"

// No file-scope using-directive for burn::vision: in the unity build it would reach the files after
// this one (burn::vision::ops next to burn::ops).
using namespace burn;

namespace vision_ops_test {

using namespace burn::vision;

// A deterministic pseudo-random mask with about `percent` % set.
std::vector<bool> mask(int64_t h, int64_t w, uint32_t seed, int percent) {
    std::vector<bool> m(static_cast<std::size_t>(h * w));
    for (std::size_t i = 0; i < m.size(); ++i) {
        seed = seed * 1664525u + 1013904223u;
        m[i] = (seed >> 16) % 100 < static_cast<uint32_t>(percent);
    }
    return m;
}

// Labels by BFS from each unvisited set pixel in raster order.
std::vector<int32_t> bfs_labels(const std::vector<bool>& m, int64_t h, int64_t w, bool eight) {
    std::vector<int32_t> lab(m.size(), 0);
    int32_t next = 0;
    for (int64_t s = 0; s < h * w; ++s) {
        if (!m[static_cast<std::size_t>(s)] || lab[static_cast<std::size_t>(s)] != 0) continue;
        lab[static_cast<std::size_t>(s)] = ++next;
        std::deque<int64_t> q{s};
        while (!q.empty()) {
            const int64_t p = q.front();
            q.pop_front();
            for (int64_t dy = -1; dy <= 1; ++dy)
                for (int64_t dx = -1; dx <= 1; ++dx) {
                    if ((dy == 0 && dx == 0) || (!eight && dy != 0 && dx != 0)) continue;
                    const int64_t y = p / w + dy, x = p % w + dx;
                    if (y < 0 || y >= h || x < 0 || x >= w) continue;
                    const auto i = static_cast<std::size_t>(y * w + x);
                    if (m[i] && lab[i] == 0) {
                        lab[i] = next;
                        q.push_back(y * w + x);
                    }
                }
        }
    }
    return lab;
}

// The source index of position p along a dim of n under each border rule, written as the periodic
// extension of the index sequence (reflect: 0..n-1, n-1..0; reflect101: 0..n-1, n-2..1); -1: constant.
int64_t extend(int64_t p, int64_t n, BorderType type) {
    if (p >= 0 && p < n) return p;
    if (type == BorderType::constant) return -1;
    if (type == BorderType::replicate) return std::clamp<int64_t>(p, 0, n - 1);
    std::vector<int64_t> seq;
    for (int64_t i = 0; i < n; ++i) seq.push_back(i);
    if (type == BorderType::reflect)
        for (int64_t i = n - 1; i >= 0; --i) seq.push_back(i);
    if (type == BorderType::reflect101)
        for (int64_t i = n - 2; i >= 1; --i) seq.push_back(i);
    const auto period = static_cast<int64_t>(seq.size());
    return seq[static_cast<std::size_t>(((p % period) + period) % period)];
}

// One erode/dilate pass over [h, w, c] values.
std::vector<double> naive_morph(const std::vector<double>& in, int64_t h, int64_t w, int64_t c,
                                const std::vector<bool>& k, int64_t kh, int64_t kw, burn::vision::Point a,
                                bool dilate, BorderType border, double fill) {
    std::vector<double> out(in.size());
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x)
            for (int64_t ch = 0; ch < c; ++ch) {
                std::vector<double> seen;
                for (int64_t i = 0; i < kh; ++i)
                    for (int64_t j = 0; j < kw; ++j) {
                        if (!k[static_cast<std::size_t>(i * kw + j)]) continue;
                        const int64_t yy = extend(y + i - a.y, h, border),
                                      xx = extend(x + j - a.x, w, border);
                        seen.push_back(
                            yy < 0 || xx < 0 ? fill : in[static_cast<std::size_t>((yy * w + xx) * c + ch)]);
                    }
                out[static_cast<std::size_t>((y * w + x) * c + ch)] =
                    dilate ? *std::max_element(seen.begin(), seen.end())
                           : *std::min_element(seen.begin(), seen.end());
            }
    return out;
}

std::vector<double> doubles(const TensorAny& t) {
    return burn::ops::into_data(t).convert(DType::f64).to_vec<double>();
}

}  // namespace vision_ops_test

TEST(VisionConnectedComponents, MatchesABreadthFirstSearchWithStats) {
    using namespace burn::vision;
    using namespace vision_ops_test;
    const int64_t h = 13, w = 17;
    for (uint32_t seed : {1u, 7u, 42u}) {
        const std::vector<bool> m = mask(h, w, seed, 45);
        const auto img = Tensor<2, Bool>::from_data(TensorData(m, Dims{h, w}));
        for (bool eight : {false, true}) {
            const Connectivity conn = eight ? Connectivity::eight : Connectivity::four;
            const std::vector<int32_t> want = bfs_labels(m, h, w, eight);
            EXPECT_EQ(connected_components(img, conn).to_vec<int32_t>(), want)
                << "seed " << seed << " eight " << eight;
            auto [labels, stats] = connected_components_with_stats(img, conn);
            EXPECT_EQ(labels.to_vec<int32_t>(), want);
            const int32_t n = *std::max_element(want.begin(), want.end());
            ASSERT_EQ(stats.max_label.to_vec<int32_t>(), std::vector<int32_t>{n});
            const auto area = stats.area.to_vec<int32_t>(), top = stats.top.to_vec<int32_t>(),
                       left = stats.left.to_vec<int32_t>(), right = stats.right.to_vec<int32_t>(),
                       bottom = stats.bottom.to_vec<int32_t>();
            ASSERT_EQ(area.size(), static_cast<std::size_t>(n) + 1);
            EXPECT_EQ(area[0], 0);
            for (int32_t l = 1; l <= n; ++l) {
                int32_t count = 0, t = 1 << 30, le = 1 << 30, r = -1, b = -1;
                for (int64_t i = 0; i < h * w; ++i)
                    if (want[static_cast<std::size_t>(i)] == l) {
                        ++count;
                        t = std::min<int32_t>(t, static_cast<int32_t>(i / w));
                        b = std::max<int32_t>(b, static_cast<int32_t>(i / w));
                        le = std::min<int32_t>(le, static_cast<int32_t>(i % w));
                        r = std::max<int32_t>(r, static_cast<int32_t>(i % w));
                    }
                const auto u = static_cast<std::size_t>(l);
                EXPECT_EQ(std::vector<int32_t>({area[u], top[u], left[u], right[u], bottom[u]}),
                          std::vector<int32_t>({count, t, le, r, b}))
                    << "label " << l;
            }
        }
    }
    // Diagonal neighbours join under eight-connectivity only.
    const auto diag = Tensor<2, Bool>::from_bool({{true, false}, {false, true}});
    EXPECT_EQ(connected_components(diag, Connectivity::four).to_vec<int32_t>(),
              std::vector<int32_t>({1, 0, 0, 2}));
    EXPECT_EQ(connected_components(diag, Connectivity::eight).to_vec<int32_t>(),
              std::vector<int32_t>({1, 0, 0, 1}));
}

TEST(VisionMorphology, StructuringElementsAreOpenCvs) {
    using namespace burn::vision;
    auto cells = [](KernelShape s, int64_t h, int64_t w,
                    std::optional<burn::vision::Point> a = std::nullopt) {
        std::vector<int> out;
        for (bool b : create_structuring_element(s, h, w, a).to_vec<bool>()) out.push_back(b ? 1 : 0);
        return out;
    };
    // cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)) and (5, 5); MORPH_CROSS (5, 3), anchor (0, 0).
    EXPECT_EQ(cells(KernelShape::ellipse, 7, 7),
              std::vector<int>({0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(cells(KernelShape::ellipse, 5, 5),
              std::vector<int>({0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0}));
    EXPECT_EQ(cells(KernelShape::cross, 3, 5),
              std::vector<int>({0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0}));
    EXPECT_EQ(cells(KernelShape::cross, 3, 5, burn::vision::Point{0, 0}),
              std::vector<int>({1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(cells(KernelShape::rect, 2, 3), std::vector<int>(6, 1));
    EXPECT_THROW(create_structuring_element(KernelShape::rect, 0, 3), ShapeError);
    EXPECT_THROW(create_structuring_element(KernelShape::cross, 3, 3, burn::vision::Point{3, 0}), IndexError);
}

TEST(VisionMorphology, ErodeAndDilateMatchTheDirectLoopForEveryBorder) {
    using namespace burn::vision;
    using namespace vision_ops_test;
    const int64_t h = 6, w = 7, c = 2;
    std::vector<float> vals(static_cast<std::size_t>(h * w * c));
    for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = static_cast<float>((i * 37 + 11) % 23) - 9.5f;
    const auto img = Tensor<3>::from_data(TensorData(vals, Dims{h, w, c}));
    const std::vector<double> in(vals.begin(), vals.end());
    const std::vector<bool> k = {true, false, true, true, true, false, false, true, false, true};  // 2 x 5
    const auto kernel = Tensor<2, Bool>::from_data(TensorData(k, Dims{2, 5}));
    const double inf = std::numeric_limits<double>::infinity();
    for (BorderType border : {BorderType::constant, BorderType::replicate, BorderType::reflect,
                              BorderType::reflect101, BorderType::wrap})
        for (bool dil : {false, true})
            for (burn::vision::Point a : {burn::vision::Point{2, 1}, burn::vision::Point{4, 0}}) {
                MorphOptions o;
                o.anchor = a;
                o.border_type = border;
                const double fill = dil ? -inf : inf;
                std::vector<double> want = naive_morph(in, h, w, c, k, 2, 5, a, dil, border, fill);
                const auto got = dil ? dilate(img, kernel, o) : erode(img, kernel, o);
                EXPECT_EQ(doubles(got.handle()), want)
                    << "border " << static_cast<int>(border) << " dilate " << dil;
                o.iterations = 2;
                want = naive_morph(want, h, w, c, k, 2, 5, a, dil, border, fill);
                EXPECT_EQ(doubles((dil ? dilate(img, kernel, o) : erode(img, kernel, o)).handle()), want);
            }
    // A constant border value, per channel, on an int image; the default anchor is the centre (2, 1).
    MorphOptions o;
    o.border_value = std::vector<double>{-100, 100};
    const auto ints = Tensor<3, Int>::from_data(TensorData(vals, Dims{h, w, c}).convert(DType::i32));
    std::vector<double> want(static_cast<std::size_t>(h * w * c));
    const std::vector<double> in_i = doubles(ints.handle());
    const std::vector<double> ch0 =
        naive_morph(in_i, h, w, c, k, 2, 5, burn::vision::Point{2, 1}, true, BorderType::constant, -100);
    const std::vector<double> ch1 =
        naive_morph(in_i, h, w, c, k, 2, 5, burn::vision::Point{2, 1}, true, BorderType::constant, 100);
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = i % 2 == 0 ? ch0[i] : ch1[i];
    const auto got = dilate(ints, kernel, o);
    EXPECT_EQ(got.dtype(), DType::i32);
    EXPECT_EQ(doubles(got.handle()), want);
    // Bool images: erosion by a 3 x 3 square keeps the pixels whose whole neighbourhood is set.
    const std::vector<bool> m = mask(h, w, 3, 70);
    const auto bimg = Tensor<3, Bool>::from_data(TensorData(m, Dims{h, w, 1}));
    const auto sq = create_structuring_element(KernelShape::rect, 3, 3);
    const std::vector<bool> eroded = erode(bimg, sq).to_vec<bool>();
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
            bool all = true;
            for (int64_t dy = -1; dy <= 1; ++dy)
                for (int64_t dx = -1; dx <= 1; ++dx)
                    if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w)
                        all = all && m[static_cast<std::size_t>((y + dy) * w + x + dx)];
            EXPECT_EQ(eroded[static_cast<std::size_t>(y * w + x)], all) << y << ", " << x;
        }
}

TEST(VisionMorphology, BadInputNamesTheOpAndTheFix) {
    using namespace burn::vision;
    const auto img = Tensor<3>::zeros({4, 4, 1});
    const auto k = create_structuring_element(KernelShape::rect, 3, 3);
    try {
        (void)burn::vision::ops::morphology(img.handle(), Tensor<2>::ones({3, 3}).handle(), true, {});
        FAIL() << "a float kernel";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[dilate] the kernel must be a 2-D bool tensor"),
                  std::string::npos)
            << e.what();
    }
    MorphOptions bad_anchor;
    bad_anchor.anchor = burn::vision::Point{0, 3};
    EXPECT_THROW((void)erode(img, k, bad_anchor), IndexError);
    MorphOptions zero;
    zero.iterations = 0;
    EXPECT_THROW((void)erode(img, k, zero), Error);
    MorphOptions values;
    values.border_value = std::vector<double>{1, 2};
    try {
        (void)erode(img, k, values);
        FAIL() << "two border values for one channel";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[erode] border_value has 2 values"), std::string::npos)
            << e.what();
    }
}

TEST(VisionNms, MatchesTorchvision) {
    using namespace burn::vision;
    const auto boxes = Tensor<2>::from_floats({{0, 0, 10, 10},
                                               {1, 1, 11, 11},
                                               {20, 20, 30, 30},
                                               {21, 19, 31, 29},
                                               {0, 0, 5, 5},
                                               {50, 50, 60, 70},
                                               {52, 55, 61, 72},
                                               {2, 0, 12, 9}});
    const auto scores = Tensor<1>::from_floats({0.9, 0.8, 0.75, 0.95, 0.3, 0.6, 0.65, 0.85});
    auto keep = [&](NmsOptions o) { return nms(boxes, scores, o).to_vec<int32_t>(); };
    // torchvision.ops.nms(boxes, scores, t) for t = 0.6, 0.5, 0.1
    EXPECT_EQ(keep({0.6f, 0.0f, 0}), std::vector<int32_t>({3, 0, 6, 5, 4}));
    EXPECT_EQ(keep({0.5f, 0.0f, 0}), std::vector<int32_t>({3, 0, 6, 4}));
    EXPECT_EQ(keep({0.1f, 0.0f, 0}), std::vector<int32_t>({3, 0, 6}));
    // Scores below 0.7 are dropped first (boxes 4, 5, 6); at most two are kept.
    EXPECT_EQ(keep({0.6f, 0.7f, 0}), std::vector<int32_t>({3, 0}));
    EXPECT_EQ(keep({0.6f, 0.0f, 2}), std::vector<int32_t>({3, 0}));
    EXPECT_EQ(keep({0.6f, 1.0f, 0}), std::vector<int32_t>{});
    try {
        (void)nms(boxes, Tensor<1>::from_floats({0.5, 0.4}));
        FAIL() << "two scores for eight boxes";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[nms]"), std::string::npos) << e.what();
    }
}
