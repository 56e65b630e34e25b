// Frontend of the pools, interpolate and pixel_shuffle. 1-D pools run the 2-D rows on [N, C, 1, L].
#include <climits>
#include <sstream>

#include "ops/infer.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn::ops {

namespace detail {

namespace {

void check_planes(const TensorAny& x, const char* op, int rank = 4) {
    check_float(x, op);
    BURN_CHECK_KIND(
        x.rank() == rank, shape, "[", op, "] input must be ",
        rank == 4 ? "[batch, channels, height, width] (rank 4)" : "[batch, channels, length] (rank 3)",
        ", got ", describe(x));
}

void check_pool_spec(const PoolSpec& p, const char* op) {
    for (int i = 0; i < 2; ++i) {
        BURN_CHECK(p.kernel[i] >= 1, "[", op, "] kernel_size must be at least 1, got ", p.kernel[0], " x ",
                   p.kernel[1]);
        BURN_CHECK(p.stride[i] >= 1, "[", op, "] stride must be at least 1, got ", p.stride[0], " x ",
                   p.stride[1]);
        BURN_CHECK(p.dilation[i] >= 1, "[", op, "] dilation must be at least 1");
        const wide half = (wide(p.dilation[i]) * (p.kernel[i] - 1) + 1) / 2;
        BURN_CHECK(p.pad_begin[i] >= 0 && p.pad_end[i] >= 0 && p.pad_begin[i] <= half && p.pad_end[i] <= half,
                   "[", op, "] padding must be between 0 and half the (dilated) kernel size; got padding ",
                   p.pad_begin[i], " for kernel size ", p.kernel[i]);
    }
}

Dims pool_out_shape(const TensorAny& x, const PoolSpec& p, const char* op) {
    Dims out = x.shape();
    for (int i = 0; i < 2; ++i) {
        out[i + 2] = pool_out_size(x.shape()[i + 2], p.kernel[i], p.stride[i], p.pad_begin[i], p.pad_end[i],
                                   p.dilation[i], p.ceil_mode);
        BURN_CHECK_KIND(out[i + 2] >= 1, shape, "[", op, "] the window (kernel ", p.kernel[0], " x ",
                        p.kernel[1], ", dilation ", p.dilation[0], " x ", p.dilation[1],
                        ") does not fit the padded input ", describe(x));
    }
    return out;
}

void check_same_planes(const Dims& x_shape, const TensorAny& g, const char* op) {
    BURN_CHECK_KIND(x_shape.rank() == 4 && x_shape[0] == g.shape()[0] && x_shape[1] == g.shape()[1], shape,
                    "[", op, "] gradient ", describe(g), " does not fit the input shape ", x_shape);
    for (int i = 2; i < 4; ++i)
        BURN_CHECK_KIND(x_shape[i] >= 0, shape, "[", op, "] invalid input shape ", x_shape);
}

}  // namespace

int64_t pool_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, int64_t dilation,
                      bool ceil_mode) {
    const wide span = wide(in) + pb + pe - wide(dilation) * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    if (span < 0) return 0;
    wide out = span / stride + 1;
    // The last window must start inside the input or the leading padding.
    if (ceil_mode && (out - 1) * stride >= wide(in) + pb) --out;
    return fit_size(out, "pool", "the output size");
}

std::pair<TensorAny, TensorAny> max_pool2d_call(TensorAny x, const attrs::MaxPool2d& a) {
    check_planes(x, "max_pool2d");
    auto c = make(OpId::max_pool2d, a, metas(x));
    TensorRefs out = run(c, take(std::move(x)));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1]))};
}

std::pair<TensorAny, TensorAny> max_pool2d_nd(TensorAny x, const PoolSpec& p, const char* op) {
    check_planes(x, op);
    check_pool_spec(p, op);
    Dims out = pool_out_shape(x, p, op);
    const attrs::PoolWindow w{{p.kernel[0], p.kernel[1]},
                              {p.stride[0], p.stride[1]},
                              {p.pad_begin[0], p.pad_begin[1]},
                              {p.dilation[0], p.dilation[1]}};
    return max_pool2d_call(std::move(x), attrs::MaxPool2d{w, out});
}

TensorAny max_pool2d_backward(TensorAny g, TensorAny indices, const attrs::MaxPool2dBackward& a) {
    const char* op = "max_pool2d_backward";
    check_planes(g, op);
    check_int(indices, op, "indices");
    check_same_planes(a.shape, g, op);
    auto c = make(OpId::max_pool2d_backward, a, metas(g, indices));
    return run1(c, take(std::move(g), std::move(indices)));
}

TensorAny avg_pool2d_call(TensorAny x, const attrs::AvgPool2d& a) {
    check_planes(x, "avg_pool2d");
    auto c = make(OpId::avg_pool2d, a, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny avg_pool2d_nd(TensorAny x, const PoolSpec& p, const char* op) {
    check_planes(x, op);
    BURN_CHECK(p.dilation[0] == 1 && p.dilation[1] == 1, "[", op, "] avg pools have no dilation");
    check_pool_spec(p, op);
    Dims out = pool_out_shape(x, p, op);
    return avg_pool2d_call(std::move(x), attrs::AvgPool2d{{p.kernel[0], p.kernel[1]},
                                                          {p.stride[0], p.stride[1]},
                                                          {p.pad_begin[0], p.pad_begin[1]},
                                                          {p.pad_end[0], p.pad_end[1]},
                                                          p.count_include_pad,
                                                          out});
}

TensorAny avg_pool2d_backward(TensorAny g, const attrs::AvgPool2d& a) {
    const char* op = "avg_pool2d_backward";
    check_planes(g, op);
    check_same_planes(a.shape, g, op);
    auto c = make(OpId::avg_pool2d_backward, a, metas(g));
    return run1(c, take(std::move(g)));
}

TensorAny adaptive_avg_pool2d_call(TensorAny x, const Dims& out_shape, const char* op) {
    check_planes(x, op);
    BURN_CHECK_KIND(x.shape()[2] >= 1 && x.shape()[3] >= 1, shape, "[", op,
                    "] the input's spatial dims must not be empty, got ", describe(x));
    BURN_CHECK_KIND(out_shape.rank() == 4 && out_shape[0] == x.shape()[0] && out_shape[1] == x.shape()[1] &&
                        out_shape[2] >= 1 && out_shape[3] >= 1,
                    shape, "[", op, "] output size must be at least 1 x 1, got ", out_shape[2], " x ",
                    out_shape[3]);
    auto c = make(OpId::adaptive_avg_pool2d, attrs::OutShape{out_shape}, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny adaptive_avg_pool2d_backward(TensorAny g, const Dims& x_shape) {
    const char* op = "adaptive_avg_pool2d_backward";
    check_planes(g, op);
    check_same_planes(x_shape, g, op);
    BURN_CHECK_KIND(x_shape[2] >= 1 && x_shape[3] >= 1, shape, "[", op, "] invalid input shape ", x_shape);
    auto c = make(OpId::adaptive_avg_pool2d_backward, attrs::OutShape{x_shape}, metas(g));
    return run1(c, take(std::move(g)));
}

TensorAny interpolate_call(TensorAny x, const attrs::Interpolate& a, const char* op) {
    check_planes(x, op);
    BURN_CHECK(a.mode >= 0 && a.mode <= 3, "[", op, "] unknown interpolate mode");
    const Dims& out_shape = a.shape;
    BURN_CHECK_KIND(x.shape()[2] >= 1 && x.shape()[3] >= 1, shape, "[", op,
                    "] the input's spatial dims must not be empty, got ", describe(x));
    BURN_CHECK_KIND(out_shape.rank() == 4 && out_shape[0] == x.shape()[0] && out_shape[1] == x.shape()[1] &&
                        out_shape[2] >= 1 && out_shape[3] >= 1,
                    shape, "[", op, "] output size must be at least 1 x 1, got ", out_shape[2], " x ",
                    out_shape[3]);
    auto c = make(OpId::interpolate, a, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny interpolate_backward(TensorAny g, const attrs::Interpolate& a) {
    const char* op = "interpolate_backward";
    check_planes(g, op);
    check_same_planes(a.shape, g, op);
    BURN_CHECK(a.mode >= 0 && a.mode <= 3, "[", op, "] unknown interpolate mode");
    BURN_CHECK_KIND(a.shape[2] >= 1 && a.shape[3] >= 1, shape, "[", op, "] invalid input shape ", a.shape);
    auto c = make(OpId::interpolate_backward, a, metas(g));
    return run1(c, take(std::move(g)));
}

}  // namespace detail

using namespace detail;

namespace {

PoolSpec pool2(std::array<std::size_t, 2> k, std::array<std::size_t, 2> s, std::array<std::size_t, 2> p,
               std::array<std::size_t, 2> d, bool ceil_mode) {
    PoolSpec spec;
    for (int i = 0; i < 2; ++i) {
        spec.kernel[i] = static_cast<int64_t>(k[static_cast<std::size_t>(i)]);
        spec.stride[i] = static_cast<int64_t>(s[static_cast<std::size_t>(i)]);
        spec.pad_begin[i] = spec.pad_end[i] = static_cast<int64_t>(p[static_cast<std::size_t>(i)]);
        spec.dilation[i] = static_cast<int64_t>(d[static_cast<std::size_t>(i)]);
    }
    spec.ceil_mode = ceil_mode;
    return spec;
}

/// [N, C, L] -> [N, C, 1, L] after checking the 1-D layout.
TensorAny as_plane(TensorAny x, const char* op) {
    check_planes(x, op, 3);
    return unsqueeze_dim(std::move(x), 2);
}

}  // namespace

TensorAny max_pool1d(TensorAny x, std::size_t kernel_size, std::size_t stride, std::size_t padding,
                     std::size_t dilation, bool ceil_mode) {
    return max_pool1d_with_indices(std::move(x), kernel_size, stride, padding, dilation, ceil_mode).first;
}

std::pair<TensorAny, TensorAny> max_pool1d_with_indices(TensorAny x, std::size_t kernel_size,
                                                        std::size_t stride, std::size_t padding,
                                                        std::size_t dilation, bool ceil_mode) {
    TensorAny x2 = as_plane(std::move(x), "max_pool1d");
    auto [v, i] = max_pool2d_nd(std::move(x2),
                                pool2({1, kernel_size}, {1, stride}, {0, padding}, {1, dilation}, ceil_mode),
                                "max_pool1d");
    return {squeeze_dim(std::move(v), 2), squeeze_dim(std::move(i), 2)};
}

TensorAny max_pool2d(TensorAny x, std::array<std::size_t, 2> kernel_size, std::array<std::size_t, 2> stride,
                     std::array<std::size_t, 2> padding, std::array<std::size_t, 2> dilation,
                     bool ceil_mode) {
    return max_pool2d_nd(std::move(x), pool2(kernel_size, stride, padding, dilation, ceil_mode), "max_pool2d")
        .first;
}

std::pair<TensorAny, TensorAny> max_pool2d_with_indices(TensorAny x, std::array<std::size_t, 2> kernel_size,
                                                        std::array<std::size_t, 2> stride,
                                                        std::array<std::size_t, 2> padding,
                                                        std::array<std::size_t, 2> dilation, bool ceil_mode) {
    return max_pool2d_nd(std::move(x), pool2(kernel_size, stride, padding, dilation, ceil_mode),
                         "max_pool2d_with_indices");
}

TensorAny avg_pool1d(TensorAny x, std::size_t kernel_size, std::size_t stride, std::size_t padding,
                     bool count_include_pad, bool ceil_mode) {
    TensorAny x2 = as_plane(std::move(x), "avg_pool1d");
    PoolSpec spec = pool2({1, kernel_size}, {1, stride}, {0, padding}, {1, 1}, ceil_mode);
    spec.count_include_pad = count_include_pad;
    return squeeze_dim(avg_pool2d_nd(std::move(x2), spec, "avg_pool1d"), 2);
}

TensorAny avg_pool2d(TensorAny x, std::array<std::size_t, 2> kernel_size, std::array<std::size_t, 2> stride,
                     std::array<std::size_t, 2> padding, bool count_include_pad, bool ceil_mode) {
    PoolSpec spec = pool2(kernel_size, stride, padding, {1, 1}, ceil_mode);
    spec.count_include_pad = count_include_pad;
    return avg_pool2d_nd(std::move(x), spec, "avg_pool2d");
}

TensorAny adaptive_avg_pool1d(TensorAny x, std::size_t output_size) {
    TensorAny x2 = as_plane(std::move(x), "adaptive_avg_pool1d");
    Dims out = x2.shape();
    out[3] = static_cast<int64_t>(output_size);
    return squeeze_dim(adaptive_avg_pool2d_call(std::move(x2), out, "adaptive_avg_pool1d"), 2);
}

TensorAny adaptive_avg_pool2d(TensorAny x, std::array<std::size_t, 2> output_size) {
    check_planes(x, "adaptive_avg_pool2d");
    Dims out = x.shape();
    out[2] = static_cast<int64_t>(output_size[0]);
    out[3] = static_cast<int64_t>(output_size[1]);
    return adaptive_avg_pool2d_call(std::move(x), out, "adaptive_avg_pool2d");
}

TensorAny interpolate(TensorAny x, std::array<std::size_t, 2> output_size,
                      const InterpolateOptions& options) {
    check_planes(x, "interpolate");
    Dims out = x.shape();
    out[2] = static_cast<int64_t>(output_size[0]);
    out[3] = static_cast<int64_t>(output_size[1]);
    return interpolate_call(
        std::move(x), attrs::Interpolate{static_cast<int64_t>(options.mode), options.align_corners, out},
        "interpolate");
}

TensorAny interpolate1d(TensorAny x, std::size_t output_size, const InterpolateOptions& options) {
    check_defined(x, "interpolate1d");
    BURN_CHECK_KIND(x.rank() == 3, shape, "[interpolate1d] the input must be [N, C, L], got ", describe(x));
    BURN_CHECK_KIND(x.shape()[2] >= 1 && output_size >= 1, shape,
                    "[interpolate1d] needs a non-empty input and ", "output length, got ", describe(x),
                    " to ", output_size);
    Dims out = x.shape();
    out[2] = static_cast<int64_t>(output_size);
    TensorAny y = interpolate(unsqueeze_dim(std::move(x), 2), {1, output_size}, options);
    return reshape(std::move(y), out);
}

TensorAny pixel_shuffle(TensorAny x, std::size_t upscale_factor) {
    const char* op = "pixel_shuffle";
    check_defined(x, op);
    BURN_CHECK(upscale_factor >= 1, "[", op, "] upscale_factor must be at least 1");
    BURN_CHECK_KIND(x.rank() >= 3, shape, "[", op,
                    "] input must be [..., channels, height, width] (rank >= 3), got ", describe(x));
    const int r = x.rank();
    const int64_t f = static_cast<int64_t>(upscale_factor), c = x.shape()[r - 3];
    BURN_CHECK_KIND(f <= (int64_t(1) << 31), shape, "[", op, "] upscale_factor ", f,
                    " is too large (at most 2^31); input ", describe(x));
    BURN_CHECK_KIND(c % (f * f) == 0, shape, "[", op, "] the channels (", c,
                    ") must divide by upscale_factor^2 = ", f * f, "; input ", describe(x));
    const int64_t h = x.shape()[r - 2], w = x.shape()[r - 1];
    // [..., C, f, f, H, W] -> [..., C, H, f, W, f] -> [..., C, H * f, W * f]
    Dims split = x.shape();
    split.resize(r - 3);
    Dims out = split;
    for (int64_t v : {c / (f * f), f, f, h, w}) split.push_back(v);
    for (int64_t v : {c / (f * f), mul_size(h, f, op, "the height"), mul_size(w, f, op, "the width")})
        out.push_back(v);
    Dims axes;
    for (int i = 0; i < r - 3; ++i) axes.push_back(i);
    const int b = r - 3;
    for (int v : {b, b + 3, b + 1, b + 4, b + 2}) axes.push_back(v);
    return reshape(permute(reshape(std::move(x), split), axes), out);
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of max_pool2d, max_pool2d_backward, avg_pool2d,
// avg_pool2d_backward, adaptive_avg_pool2d, adaptive_avg_pool2d_backward, interpolate, interpolate_backward

namespace burn::op_infer {

namespace {

/// The 2-D pools' input or gradient: float [N, C, H, W]; shape (the other side's) fits its N and C.
void check_planes(const OpCall& c, const TensorMeta& x, const Dims& shape) {
    check_float(c, x);
    BURN_CHECK_KIND(x.shape.rank() == 4, shape, "[", c.op,
                    "] input must be [batch, channels, height, width] (rank 4), got ", describe(x));
    check_extent(c, shape, 4, "shape");
    BURN_CHECK_KIND(shape[0] == x.shape[0] && shape[1] == x.shape[1], shape, "[", c.op, "] shape ", shape,
                    " does not fit ", describe(x), " (batch and channels must match)");
}

void check_nonempty_planes(const OpCall& c, const Dims& a, const Dims& b) {
    BURN_CHECK_KIND(a[2] >= 1 && a[3] >= 1 && b[2] >= 1 && b[3] >= 1, shape, "[", c.op,
                    "] spatial dims must not be empty: ", a, " and ", b);
}

}  // namespace

Outs infer_max_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::MaxPool2d>();
    const TensorMeta& x = in[0];
    check_planes(c, x, v.shape);
    BURN_CHECK_KIND(wide(x.shape[2]) * x.shape[3] <= INT32_MAX, shape, "[max_pool2d] the input plane ",
                    x.shape[2], " x ", x.shape[3], " is too large for i32 indices");
    for (std::size_t i = 0; i < 2; ++i)
        BURN_CHECK(v.window.kernel[i] >= 1 && v.window.stride[i] >= 1 && v.window.dilation[i] >= 1 &&
                       v.window.pad[i] >= 0,
                   "[max_pool2d] kernel, stride and dilation must be at least 1 and padding not negative");
    return {{x.dtype, v.shape}, {DType::i32, v.shape}};
}

Outs infer_max_pool2d_backward(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const auto v = c.attrs<attrs::MaxPool2dBackward>();
    const TensorMeta &g = in[0], &indices = in[1];
    check_planes(c, g, v.shape);
    check_int(c, indices, "indices");
    BURN_CHECK_KIND(indices.shape == g.shape, shape, "[max_pool2d_backward] indices ", describe(indices),
                    " must have the gradient's shape ", g.shape);
    return {{g.dtype, v.shape}};
}

Outs infer_avg_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::AvgPool2d>();
    check_planes(c, in[0], v.shape);
    for (std::size_t i = 0; i < 2; ++i)
        BURN_CHECK(v.kernel[i] >= 1 && v.stride[i] >= 1 && v.pad_begin[i] >= 0 && v.pad_end[i] >= 0, "[",
                   c.op, "] kernel and stride must be at least 1 and padding not negative");
    return {{in[0].dtype, v.shape}};
}

Outs infer_avg_pool2d_backward(const OpCall& c, Metas in) {
    return infer_avg_pool2d(c, in);
}

Outs infer_adaptive_avg_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    check_planes(c, in[0], shape);
    check_nonempty_planes(c, in[0].shape, shape);
    return {{in[0].dtype, shape}};
}

Outs infer_adaptive_avg_pool2d_backward(const OpCall& c, Metas in) {
    return infer_adaptive_avg_pool2d(c, in);
}

Outs infer_interpolate(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::Interpolate>();
    BURN_CHECK(v.mode >= 0 && v.mode <= 3, "[", c.op, "] unknown interpolate mode ", v.mode,
               " (0 nearest, 1 bilinear, 2 bicubic, 3 nearest_exact)");
    check_planes(c, in[0], v.shape);
    check_nonempty_planes(c, in[0].shape, v.shape);
    return {{in[0].dtype, v.shape}};
}

Outs infer_interpolate_backward(const OpCall& c, Metas in) {
    return infer_interpolate(c, in);
}

}  // namespace burn::op_infer
