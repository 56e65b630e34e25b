// Op-database entries of the spatial transformers (burn/tensor/grid_sample.hpp; composites, `ops` = {}):
// grid_sample_2d in every mode, padding mode and corner alignment, and affine_grid_2d. The references
// follow PyTorch's grid_sampler_2d per output pixel in float64 (unnormalise, pad, interpolate), with
// no tensor op; tests/grid_sample_torch_test.cpp pins them to torch 1.13's numbers.
#include <algorithm>
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_grid {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// Grid coordinates in [-1.3, 1.3] (some outside the image, exercising the padding), from a fixed
/// generator (gradcheck's finite differences would be wrong across a floor; these seeds cross none).
TensorData grid_values(const Dims& shape, DType dt, uint64_t seed) {
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    uint64_t s = seed * 2654435761u + 12345;
    for (auto& x : v) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = -1.3 + 2.6 * static_cast<double>(s >> 11) / 9007199254740992.0;
    }
    return data_of(shape, v, dt);
}

/// PyTorch's reflect_coordinates.
double reflect(double v, double lo2, double hi2) {
    if (lo2 == hi2) return 0;
    const double lo = lo2 / 2, span = (hi2 - lo2) / 2;
    v = std::fabs(v - lo);
    const double extra = std::fmod(v, span);
    const auto flips = static_cast<int64_t>(std::floor(v / span));
    return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

/// A pixel coordinate with the padding applied (0 zeros: unchanged, 1 border, 2 reflection).
double pad_px(double v, int64_t size, int pad, bool align) {
    const double s = static_cast<double>(size);
    if (pad == 1) v = std::clamp(v, 0.0, s - 1);
    if (pad == 2) v = std::clamp(align ? reflect(v, 0, 2 * (s - 1)) : reflect(v, -1, 2 * s - 1), 0.0, s - 1);
    return v;
}

/// The pixel coordinate of normalised g, padded.
double coord(double g, int64_t size, int pad, bool align) {
    const double s = static_cast<double>(size);
    return pad_px(align ? (g + 1) / 2 * (s - 1) : ((g + 1) * s - 1) / 2, size, pad, align);
}

double cubic(double x) {  // A = -0.75
    const double a = -0.75;
    x = std::fabs(x);
    if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    return 0;
}

/// ints: mode (0 nearest, 1 bilinear, 2 bicubic), padding (0 zeros, 1 border, 2 reflection), align.
TensorData grid_sample_ref(In in, A a) {
    ref::Host x = ref::host(in[0]), g = ref::host(in[1]);
    const int mode = static_cast<int>(a.ints[0]), pad = static_cast<int>(a.ints[1]);
    const bool align = a.ints[2] != 0;
    const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
    const int64_t ho = g.shape[1], wo = g.shape[2];
    ref::Host o = ref::filled(Dims{n, c, ho, wo}, 0);
    auto at = [&](int64_t b, int64_t ch, int64_t yy, int64_t xx) {
        if (yy < 0 || yy >= h || xx < 0 || xx >= w) return 0.0;
        return x.v[static_cast<std::size_t>(((b * c + ch) * h + yy) * w + xx)];
    };
    for (int64_t b = 0; b < n; ++b)
        for (int64_t i = 0; i < ho; ++i)
            for (int64_t j = 0; j < wo; ++j) {
                const double gx = g.v[static_cast<std::size_t>(((b * ho + i) * wo + j) * 2)];
                const double gy = g.v[static_cast<std::size_t>(((b * ho + i) * wo + j) * 2 + 1)];
                for (int64_t ch = 0; ch < c; ++ch) {
                    double r = 0;
                    if (mode == 0) {
                        const double ix = std::nearbyint(coord(gx, w, pad, align));
                        const double iy = std::nearbyint(coord(gy, h, pad, align));
                        r = at(b, ch, static_cast<int64_t>(iy), static_cast<int64_t>(ix));
                    } else if (mode == 1) {
                        const double ix = coord(gx, w, pad, align), iy = coord(gy, h, pad, align);
                        const double fx = std::floor(ix), fy = std::floor(iy), tx = ix - fx, ty = iy - fy;
                        const auto x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
                        r = at(b, ch, y0, x0) * (1 - tx) * (1 - ty) + at(b, ch, y0, x0 + 1) * tx * (1 - ty) +
                            at(b, ch, y0 + 1, x0) * (1 - tx) * ty + at(b, ch, y0 + 1, x0 + 1) * tx * ty;
                    } else {  // bicubic: unpadded position, each tap's position padded
                        const double ix = coord(gx, w, 0, align), iy = coord(gy, h, 0, align);
                        const double fx = std::floor(ix), fy = std::floor(iy);
                        for (int dy = -1; dy <= 2; ++dy)
                            for (int dx = -1; dx <= 2; ++dx) {
                                const double px = pad_px(fx + dx, w, pad, align);
                                const double py = pad_px(fy + dy, h, pad, align);
                                r += at(b, ch, static_cast<int64_t>(py), static_cast<int64_t>(px)) *
                                     cubic(ix - (fx + dx)) * cubic(iy - (fy + dy));
                            }
                    }
                    o.v[static_cast<std::size_t>(((b * c + ch) * ho + i) * wo + j)] = r;
                }
            }
    return out(o, in[0].dtype());
}

/// ints: align; inputs theta [N, 2, 3]; the size comes from the sample's reals {C, H, W}.
TensorData affine_grid_ref(In in, A a) {
    ref::Host t = ref::host(in[0]);
    const bool align = a.ints[0] != 0;
    const int64_t n = t.shape[0], h = static_cast<int64_t>(a.reals[1]), w = static_cast<int64_t>(a.reals[2]);
    auto centre = [align](int64_t i, int64_t size) {
        const double s = static_cast<double>(size), d = static_cast<double>(i);
        return size == 1 ? 0.0 : align ? -1 + 2 * d / (s - 1) : (2 * d + 1) / s - 1;
    };
    ref::Host o = ref::filled(Dims{n, h, w, 2}, 0);
    for (int64_t b = 0; b < n; ++b)
        for (int64_t i = 0; i < h; ++i)
            for (int64_t j = 0; j < w; ++j)
                for (int r = 0; r < 2; ++r) {
                    const double* th = t.v.data() + (b * 2 + r) * 3;
                    o.v[static_cast<std::size_t>(((b * h + i) * w + j) * 2 + r)] =
                        th[0] * centre(j, w) + th[1] * centre(i, h) + th[2];
                }
    return out(o, in[0].dtype());
}

Tol grid_tol(DType dt) {
    if (dt == DType::f16) return {1e-2, 2e-2};
    if (dt == DType::bf16) return {3e-2, 8e-2};
    return dt == DType::f32 ? Tol{1e-5, 1e-5} : default_tol(dt);
}

void add_grid_sample(std::vector<OpEntry>& db) {
    OpEntry e = entry("grid_sample_2d", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"grid_sample_2d", dt};
        std::vector<Sample> s;
        uint64_t seed = 1;
        for (int64_t mode = 0; mode < 3; ++mode)
            for (int64_t pad = 0; pad < 3; ++pad)
                for (int64_t align = 0; align < 2; ++align)
                    s.push_back(sample(Tag::basic,
                                       {g({2, 2, 4, 5}), grid_values(Dims{2, 3, 2, 2}, dt, seed++)},
                                       {mode, pad, align}));
        s.push_back(sample(Tag::scalar, {g({1, 1, 1, 1}), grid_values(Dims{1, 1, 1, 2}, dt, 99)}, {1, 0, 0}));
        s.push_back(sample(Tag::empty, {g({1, 2, 3, 3}), grid_values(Dims{1, 0, 2, 2}, dt, 98)}, {1, 0, 0}));
        return s;
    };
    e.forward = [](V in, A a) {
        GridSampleOptions o;
        o.mode = a.ints[0] == 0   ? InterpolateMode::nearest
                 : a.ints[0] == 1 ? InterpolateMode::bilinear
                                  : InterpolateMode::bicubic;
        o.padding_mode = static_cast<GridSamplePaddingMode>(a.ints[1]);
        o.align_corners = a.ints[2] != 0;
        return ops::grid_sample_2d(in[0], in[1], o);
    };
    e.reference = grid_sample_ref;
    e.tol = grid_tol;
    const std::string x = "[grid_sample_2d]";
    e.bad.push_back(bad("input of rank 3", x, [](const Device& d) {
        ops::grid_sample_2d(f32({1, 4, 4}, d), f32({1, 2, 2, 2}, d));
    }));
    e.bad.push_back(bad("grid batch differs", x, [](const Device& d) {
        ops::grid_sample_2d(f32({2, 1, 4, 4}, d), f32({1, 2, 2, 2}, d));
    }));
    e.bad.push_back(bad("grid's last dim 3", x, [](const Device& d) {
        ops::grid_sample_2d(f32({1, 1, 4, 4}, d), f32({1, 2, 2, 3}, d));
    }));
    e.bad.push_back(bad("int input", x, [](const Device& d) {
        ops::grid_sample_2d(ops::full({1, 1, 2, 2}, 1, DType::i32, d), f32({1, 2, 2, 2}, d));
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

void add_affine_grid(std::vector<OpEntry>& db) {
    OpEntry e = entry("affine_grid_2d", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"affine_grid_2d", dt};
        return std::vector<Sample>{sample(Tag::basic, {g({2, 2, 3})}, {0}, {3, 4, 5}),
                                   sample(Tag::basic, {g({1, 2, 3})}, {1}, {1, 3, 2}, "align_corners"),
                                   sample(Tag::scalar, {g({1, 2, 3})}, {0}, {1, 1, 1}),
                                   sample(Tag::empty, {g({0, 2, 3})}, {0}, {1, 2, 2})};
    };
    e.forward = [](V in, A a) {
        const int64_t n = in[0].shape()[0];
        return ops::affine_grid_2d(in[0],
                                   {n, static_cast<int64_t>(a.reals[0]), static_cast<int64_t>(a.reals[1]),
                                    static_cast<int64_t>(a.reals[2])},
                                   a.ints[0] != 0);
    };
    e.reference = affine_grid_ref;
    const std::string x = "[affine_grid_2d]";
    e.bad.push_back(bad("theta [1, 3, 3]", x, [](const Device& d) {
        ops::affine_grid_2d(f32({1, 3, 3}, d), {1, 1, 2, 2});
    }));
    e.bad.push_back(bad("batch differs", x, [](const Device& d) {
        ops::affine_grid_2d(f32({2, 2, 3}, d), {1, 1, 2, 2});
    }));
    e.bad.push_back(bad("empty height", x, [](const Device& d) {
        ops::affine_grid_2d(f32({1, 2, 3}, d), {1, 1, 0, 2});
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

}  // namespace api_grid

void add_api_grid_entries(std::vector<OpEntry>& db) {
    api_grid::add_grid_sample(db);
    api_grid::add_affine_grid(db);
}

}  // namespace burn::opdb
