// grid_sample_2d and affine_grid_2d (burn/tensor/grid_sample.hpp), composites: each output pixel's taps
// along x and y (positions and weights, computed elementwise from the grid with PyTorch's coordinate
// rules) pick rows of the input laid out as [N * H * W, C] with select, weighted and summed. Gradients
// reach the input through select and the grid through the weights (floor and round are flat). The ONNX
// importer's GridSample runs this too.
#include "burn/tensor/grid_sample.hpp"

#include <vector>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace grid_sample_impl {  // named, not anonymous: unity builds merge anonymous namespaces

/// One interpolation tap along an axis: the (clamped) integer position and its weight (0 outside).
struct Tap {
    TensorAny pos, weight;
};

/// PyTorch's reflect_coordinates: v reflected into [lo2 / 2, hi2 / 2].
TensorAny reflect(const TensorAny& v, double lo2, double hi2) {
    if (lo2 == hi2) return mul_scalar(v, 0);
    const double lo = lo2 / 2, span = (hi2 - lo2) / 2;
    TensorAny in = abs(add_scalar(v, -lo));
    TensorAny extra = remainder_scalar(in, span);
    TensorAny odd = equal_elem(remainder_scalar(floor(div_scalar(in, span)), 2), 1);
    return where(odd, add_scalar(rsub_scalar(extra, span), lo), add_scalar(extra, lo));
}

/// v (a pixel coordinate) with the padding mode applied: border clamps, reflection reflects then clamps.
TensorAny pad_coord(TensorAny v, GridSamplePaddingMode pad, int64_t size, bool align) {
    const double top = double(size - 1);
    if (pad == GridSamplePaddingMode::border) return clamp(v, 0, top);
    if (pad == GridSamplePaddingMode::reflection)
        return clamp(align ? reflect(v, 0, 2 * top) : reflect(v, -1, 2 * double(size) - 1), 0, top);
    return v;
}

Tap tap(TensorAny v, TensorAny weight, int64_t size) {
    const double top = double(size - 1);
    v = where(is_nan(v), full(Dims{1, 1}, -1, v.dtype(), v.device()), v);  // from infinities
    TensorAny valid = bool_and(greater_equal_elem(v, 0), lower_equal_elem(v, top));
    return {cast(clamp(v, 0, top), DType::i64), mul(weight, cast(valid, weight.dtype()))};
}

/// The taps of normalised coordinates g ([rows, 1]) along an axis of the given size.
std::vector<Tap> taps(TensorAny g, int64_t size, const GridSampleOptions& o) {
    const bool align = o.align_corners;
    const GridSamplePaddingMode pad = o.padding_mode;
    g = where(is_nan(g), full(Dims{1, 1}, -2, g.dtype(), g.device()), g);
    const double sz = double(size);
    TensorAny v = align ? mul_scalar(add_scalar(g, 1), (sz - 1) / 2)
                        : div_scalar(add_scalar(mul_scalar(add_scalar(g, 1), sz), -1), 2);
    std::vector<Tap> t;
    if (o.mode == InterpolateMode::nearest) {
        TensorAny r = round(pad_coord(v, pad, size, align));
        // weight 1 + 0 v: the grid's gradient is defined (zeros, as torch's) rather than absent
        t.push_back(tap(r, add_scalar(mul_scalar(v, 0), 1), size));
    } else if (o.mode == InterpolateMode::bilinear) {
        v = pad_coord(v, pad, size, align);
        TensorAny f = floor(v), frac = sub(v, f);
        t.push_back(tap(f, rsub_scalar(frac, 1), size));
        t.push_back(tap(add_scalar(f, 1), frac, size));
    } else {  // bicubic (A = -0.75); padding applies to each tap's position
        const double a = -0.75;
        TensorAny f = floor(v), frac = sub(v, f), u = rsub_scalar(frac, 1);
        auto near = [a](const TensorAny& s) {  // ((a + 2) s - (a + 3)) s^2 + 1
            return add_scalar(mul(add_scalar(mul_scalar(s, a + 2), -(a + 3)), square(s)), 1);
        };
        auto far = [a](const TensorAny& s) {  // ((a s - 5a) s + 8a) s - 4a
            TensorAny p = mul(add_scalar(mul_scalar(s, a), -5 * a), s);
            return add_scalar(mul(add_scalar(p, 8 * a), s), -4 * a);
        };
        const TensorAny w[4] = {far(add_scalar(frac, 1)), near(frac), near(u), far(add_scalar(u, 1))};
        for (int k = 0; k < 4; ++k)
            t.push_back(tap(pad_coord(add_scalar(f, k - 1), pad, size, align), w[k], size));
    }
    return t;
}

/// The normalised centres of size pixels along an axis, as a column [size, 1] of doubles.
std::vector<double> centres(int64_t size, bool align) {
    std::vector<double> c(static_cast<std::size_t>(size));
    for (int64_t i = 0; i < size; ++i) {
        const double s = static_cast<double>(size);
        c[static_cast<std::size_t>(i)] = size == 1 ? 0.0
                                         : align   ? -1 + 2 * static_cast<double>(i) / (s - 1)
                                                   : (2 * static_cast<double>(i) + 1) / s - 1;
    }
    return c;
}

}  // namespace grid_sample_impl

TensorAny grid_sample_2d(TensorAny x, TensorAny grid, const GridSampleOptions& o) {
    const char* op = "grid_sample_2d";
    check_defined(x, op);
    check_defined(grid, op);
    check_float(x, op);
    check_float(grid, op);
    BURN_CHECK_KIND(x.rank() == 4, shape, "[", op, "] the input must be [N, C, H, W], got ", describe(x));
    BURN_CHECK_KIND(grid.rank() == 4 && grid.shape()[0] == x.shape()[0] && grid.shape()[3] == 2, shape, "[",
                    op, "] the grid must be [N, H_out, W_out, 2] with N = ", x.shape()[0],
                    " (the input's), got ", describe(grid));
    BURN_CHECK_KIND(x.device() == grid.device(), device, "[", op, "] the input is on ", x.device(),
                    ", the grid on ", grid.device());
    BURN_CHECK(o.mode != InterpolateMode::nearest_exact, "[", op,
               "] takes nearest, bilinear or bicubic, not nearest_exact");
    const DType dt = x.dtype();
    const int64_t n = x.shape()[0], ch = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
    const int64_t ho = grid.shape()[1], wo = grid.shape()[2], p = ho * wo;
    if (n * ch * p == 0 || h == 0 || w == 0) return full(Dims{n, ch, ho, wo}, 0, dt, x.device());
    if (grid.dtype() != DType::f64 && grid.dtype() != DType::f32) grid = cast(grid, DType::f32);
    TensorAny g = reshape(grid, Dims{n * p, 2});
    const auto tx = grid_sample_impl::taps(narrow(g, 1, 0, 1), w, o);
    const auto ty = grid_sample_impl::taps(narrow(g, 1, 1, 1), h, o);
    // X as rows [N * H * W, C]; output row (n, p) reads rows n * H * W + y * W + x
    const TensorAny rows = reshape(contiguous(permute(x, Dims{0, 2, 3, 1})), Dims{n * h * w, ch});
    TensorAny base = mul_scalar(arange(0, n, 1, DType::i64, x.device()), double(h * w));
    base = reshape(expand(reshape(base, Dims{n, 1}), Dims{n, p}), Dims{n * p, 1});
    TensorAny acc;
    for (const auto& a : ty) {
        TensorAny row_base = add(base, mul_scalar(a.pos, double(w)));
        for (const auto& b : tx) {
            TensorAny idx = reshape(add(row_base, b.pos), Dims{n * p});
            TensorAny v = mul(select(rows, 0, idx), cast(mul(a.weight, b.weight), dt));
            acc = acc.defined() ? add(acc, v) : v;
        }
    }
    return permute(reshape(acc, Dims{n, ho, wo, ch}), Dims{0, 3, 1, 2});
}

TensorAny affine_grid_2d(TensorAny theta, std::array<int64_t, 4> size, bool align_corners) {
    const char* op = "affine_grid_2d";
    check_defined(theta, op);
    check_float(theta, op);
    const int64_t n = size[0], h = size[2], w = size[3];
    BURN_CHECK_KIND(
        theta.rank() == 3 && theta.shape()[0] == n && theta.shape()[1] == 2 && theta.shape()[2] == 3, shape,
        "[", op, "] theta must be [N, 2, 3] with N = ", n, " (size[0]), got ", describe(theta));
    BURN_CHECK_KIND(n >= 0 && size[1] >= 0 && h >= 1 && w >= 1, shape, "[", op,
                    "] the size [N, C, H, W] needs H and W >= 1, got [", n, ", ", size[1], ", ", h, ", ", w,
                    "]");
    // base [H * W, 3]: rows (x_j, y_i, 1); grid = base theta^T per batch -> [N, H * W, 2]
    const auto xs = grid_sample_impl::centres(w, align_corners),
               ys = grid_sample_impl::centres(h, align_corners);
    std::vector<double> base(static_cast<std::size_t>(h * w * 3));
    for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < w; ++j) {
            double* r = base.data() + (i * w + j) * 3;
            r[0] = xs[static_cast<std::size_t>(j)];
            r[1] = ys[static_cast<std::size_t>(i)];
            r[2] = 1;
        }
    TensorAny b =
        from_data(TensorData(std::move(base), Dims{1, h * w, 3}).convert(theta.dtype()), theta.device());
    TensorAny out = matmul(expand(b, Dims{n, h * w, 3}), swap_dims(theta, 1, 2));
    return reshape(out, Dims{n, h, w, 2});
}

}  // namespace burn::ops
