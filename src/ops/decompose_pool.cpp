// Decompositions of the pools and interpolate with their adjoints (backends/cpu/pool.cpp,
// interpolate.cpp). A window op becomes one strided slice of the padded input per kernel tap
// (taps in PyTorch's order: rows, then columns), so max_pool2d keeps the kernel's rules (first maximum
// wins, the last NaN wins, padding never wins); the adjoints add each tap's share back with
// slice_assign or scatter_add. interpolate uses the kernels' own tap tables (interpolate_taps.hpp).
#include <algorithm>
#include <limits>

#include "backends/common/interpolate_taps.hpp"
#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;
const std::vector<int> kHW = {2, 3};

/// The extent a padded axis needs so that every tap's strided slice stays inside it.
int64_t pad_after(int64_t in, int64_t pad_before, int64_t out, int64_t k, int64_t stride, int64_t dilation) {
    return std::max<int64_t>(0, (out - 1) * stride + (k - 1) * dilation + 1 - pad_before - in);
}

TensorAny pad_hw(const TensorAny& x, const int64_t before[2], const int64_t after[2], double value) {
    return pad(pad(x, 2, before[0], after[0], value), 3, before[1], after[1], value);
}

/// [N, C, oh, ow] -> [N, C, oh, ow, 1]
TensorAny with_tap_dim(const TensorAny& t) {
    return unsqueeze_dim(t, 4);
}

Outputs max_pool2d(const OpCall& c, const Inputs& in) {
    const attrs::PoolWindow win = c.attrs<attrs::MaxPool2d>().window;
    const TensorAny& x = in[0];
    const int64_t h = x.shape()[2], w = x.shape()[3], oh = c.shape[2], ow = c.shape[3];
    const int64_t before[2] = {win.pad[0], win.pad[1]};
    const int64_t after[2] = {pad_after(h, win.pad[0], oh, win.kernel[0], win.stride[0], win.dilation[0]),
                              pad_after(w, win.pad[1], ow, win.kernel[1], win.stride[1], win.dilation[1])};
    // positions h * W + w of the input plane; padding holds H * W, past every real position
    TensorAny pos = reshape(arange(0, h * w, 1, DType::i32, x.device()), Dims{1, 1, h, w});
    TensorAny xp = pad_hw(x, before, after, -kInf), pp = pad_hw(pos, before, after, double(h * w));
    std::vector<TensorAny> vals, poss;
    for (int64_t r = 0; r < win.kernel[0]; ++r)
        for (int64_t q = 0; q < win.kernel[1]; ++q) {
            const std::vector<int64_t> start = {r * win.dilation[0], q * win.dilation[1]}, count = {oh, ow},
                                       step = {win.stride[0], win.stride[1]};
            vals.push_back(with_tap_dim(strided(xp, kHW, start, count, step)));
            poss.push_back(with_tap_dim(strided(pp, kHW, start, count, step)));
        }
    TensorAny v = cat(vals, 4);
    Dims taps_shape = v.shape();
    TensorAny p = expand(cat(poss, 4), taps_shape);
    const int64_t k = taps_shape[4];
    auto [best, first_max] = max_dim_with_indices(v, 4);
    // the last NaN: the first one of the taps reversed
    std::vector<SliceArg> reverse_taps(4, SliceArg(burn::all));
    reverse_taps.push_back(SliceArg(0, std::nullopt, -1));
    TensorAny nan_rev = slice(cast(nan_mask(v), DType::i32), reverse_taps);
    TensorAny last_nan = sub(scalar(best, double(k - 1), DType::i32),
                             cast(max_dim_with_indices(nan_rev, 4).second, DType::i32));
    // a window of -inf only keeps its first real position (the kernel's starting index)
    TensorAny first_real =
        max_dim_with_indices(cast(less(p, scalar(p, double(h * w))), DType::i32), 4).second;
    TensorAny at = where(
        nan_mask(best), last_nan,
        where(equal(best, scalar(best, -kInf)), cast(first_real, DType::i32), cast(first_max, DType::i32)));
    TensorAny indices = gather(p, 4, at);
    return {reshape(best, c.shape), reshape(indices, c.shape)};
}

Outputs max_pool2d_backward(const OpCall& c, const Inputs& in) {
    TensorAny g = up(in[0]);
    const Dims& xs = c.shape;
    const int64_t n = xs[0], ch = xs[1], plane = xs[2] * xs[3], oplane = g.shape()[2] * g.shape()[3];
    TensorAny dx = scatter(full(Dims{n, ch, plane}, 0, g.dtype(), g.device()), 2,
                           reshape(in[1], Dims{n, ch, oplane}), reshape(g, Dims{n, ch, oplane}));
    return {down(reshape(dx, xs), c.dtype)};
}

/// avg_pool2d's divisor per output (the kernel's avg_window), 1 where it is 0: such a window lies in
/// the padding, so its sum is 0 and its gradient lands in the padding.
TensorAny avg_divisors(const OpCall& c, const Dims& xs, const Dims& ys, DType dt, const Device& device) {
    const auto av = c.attrs<attrs::AvgPool2d>();
    const int64_t h = xs[2], w = xs[3], oh = ys[2], ow = ys[3];
    std::vector<double> div(static_cast<std::size_t>(oh * ow));
    for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
            int64_t h0 = i * av.stride[0] - av.pad_begin[0], w0 = j * av.stride[1] - av.pad_begin[1];
            int64_t h1 = std::min(h0 + av.kernel[0], h + av.pad_end[0]),
                    w1 = std::min(w0 + av.kernel[1], w + av.pad_end[1]);
            const int64_t padded = (h1 - h0) * (w1 - w0);
            h0 = std::max<int64_t>(h0, 0);
            w0 = std::max<int64_t>(w0, 0);
            h1 = std::min(h1, h);
            w1 = std::min(w1, w);
            const int64_t inside = std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0);
            const int64_t d = av.count_include_pad ? padded : inside;
            div[static_cast<std::size_t>(i * ow + j)] = d > 0 ? double(d) : 1.0;
        }
    return constant(div, Dims{1, 1, oh, ow}, dt, device);
}

Outputs avg_pool2d(const OpCall& c, const Inputs& in) {
    const auto av = c.attrs<attrs::AvgPool2d>();
    TensorAny x = up(in[0]);
    const int64_t h = x.shape()[2], w = x.shape()[3], oh = c.shape[2], ow = c.shape[3];
    const int64_t before[2] = {av.pad_begin[0], av.pad_begin[1]};
    const int64_t after[2] = {pad_after(h, av.pad_begin[0], oh, av.kernel[0], av.stride[0], 1),
                              pad_after(w, av.pad_begin[1], ow, av.kernel[1], av.stride[1], 1)};
    TensorAny xp = pad_hw(x, before, after, 0);
    // taps summed in the kernel's order; the padding adds zeros, which change no sum
    TensorAny sum;
    for (int64_t r = 0; r < av.kernel[0]; ++r)
        for (int64_t q = 0; q < av.kernel[1]; ++q) {
            TensorAny tap = strided(xp, kHW, {r, q}, {oh, ow}, {av.stride[0], av.stride[1]});
            sum = sum.defined() ? add(sum, tap) : tap;
        }
    return {down(div(sum, avg_divisors(c, x.shape(), c.shape, x.dtype(), x.device())), c.dtype)};
}

Outputs avg_pool2d_backward(const OpCall& c, const Inputs& in) {
    const auto av = c.attrs<attrs::AvgPool2d>();
    TensorAny g = up(in[0]);
    const int64_t h = c.shape[2], w = c.shape[3], oh = g.shape()[2], ow = g.shape()[3];
    TensorAny v = div(g, avg_divisors(c, c.shape, g.shape(), g.dtype(), g.device()));
    const int64_t ph = av.pad_begin[0], pw = av.pad_begin[1];
    const int64_t hp = ph + h + pad_after(h, ph, oh, av.kernel[0], av.stride[0], 1),
                  wp = pw + w + pad_after(w, pw, ow, av.kernel[1], av.stride[1], 1);
    TensorAny acc = full(Dims{c.shape[0], c.shape[1], hp, wp}, 0, g.dtype(), g.device());
    for (int64_t r = 0; r < av.kernel[0]; ++r)
        for (int64_t q = 0; q < av.kernel[1]; ++q)
            acc = add_strided(acc, kHW, {r, q}, {oh, ow}, {av.stride[0], av.stride[1]}, v);
    return {down(strided(acc, kHW, {ph, pw}, {h, w}, {1, 1}), c.dtype)};
}

/// Adaptive bins: output i of `out` covers [floor(i * in / out), ceil((i + 1) * in / out)).
int64_t bin_start(int64_t i, int64_t in, int64_t out) {
    return (i * in) / out;
}
int64_t bin_end(int64_t i, int64_t in, int64_t out) {
    return ((i + 1) * in + out - 1) / out;
}

TensorAny bin_sizes(const Dims& xs, const Dims& ys, DType dt, const Device& device) {
    std::vector<double> n;
    for (int64_t i = 0; i < ys[2]; ++i)
        for (int64_t j = 0; j < ys[3]; ++j)
            n.push_back(double((bin_end(i, xs[2], ys[2]) - bin_start(i, xs[2], ys[2])) *
                               (bin_end(j, xs[3], ys[3]) - bin_start(j, xs[3], ys[3]))));
    return constant(n, Dims{1, 1, ys[2], ys[3]}, dt, device);
}

Outputs adaptive_avg_pool2d(const OpCall& c, const Inputs& in) {
    TensorAny x = up(in[0]);
    const Dims& xs = x.shape();
    // sum each bin of rows, then each bin of columns
    TensorAny t = x;
    for (int ax = 2; ax < 4; ++ax) {
        std::vector<TensorAny> bins;
        for (int64_t i = 0; i < c.shape[ax]; ++i) {
            const int64_t b = bin_start(i, xs[ax], c.shape[ax]), e = bin_end(i, xs[ax], c.shape[ax]);
            bins.push_back(sum_dim(narrow_dim(t, ax, b, e - b), ax));
        }
        t = cat(bins, ax);
    }
    return {down(div(t, bin_sizes(xs, c.shape, x.dtype(), x.device())), c.dtype)};
}

Outputs adaptive_avg_pool2d_backward(const OpCall& c, const Inputs& in) {
    TensorAny g = up(in[0]);
    const Dims& xs = c.shape;
    TensorAny t = div(g, bin_sizes(xs, g.shape(), g.dtype(), g.device()));
    // spread each bin's share over its columns, then over its rows
    for (int ax = 3; ax >= 2; --ax) {
        Dims s = t.shape();
        s[ax] = xs[ax];
        TensorAny acc = full(s, 0, t.dtype(), t.device());
        for (int64_t i = 0; i < t.shape()[ax]; ++i) {
            const int64_t b = bin_start(i, xs[ax], t.shape()[ax]), e = bin_end(i, xs[ax], t.shape()[ax]);
            Dims piece = s;
            piece[ax] = e - b;
            acc = add_strided(acc, {ax}, {b}, {e - b}, {1}, expand(narrow_dim(t, ax, i, 1), piece));
        }
        t = acc;
    }
    return {down(t, c.dtype)};
}

/// One axis's tap table as tensors: for each tap k, the input index of every output position
/// ([out], i32) and its weight laid along axis `ax` of a rank-4 tensor.
struct AxisTaps {
    std::vector<TensorAny> index, weight;
};

AxisTaps axis_taps(const OpCall& c, int64_t in, int64_t out, int ax, DType dt, const Device& device) {
    const auto a = c.attrs<attrs::Interpolate>();
    const auto mode = static_cast<InterpolateMode>(a.mode);
    const bool align = a.align_corners;
    AxisTaps r;
    auto build = [&](const auto& tt) {
        for (int k = 0; k < tt.n; ++k) {
            std::vector<double> idx, wt;
            for (int64_t o = 0; o < out; ++o) {
                idx.push_back(double(tt.idx[static_cast<std::size_t>(o * tt.n + k)]));
                wt.push_back(double(tt.w[static_cast<std::size_t>(o * tt.n + k)]));
            }
            r.index.push_back(constant(idx, Dims{out}, DType::i32, device));
            r.weight.push_back(along(constant(wt, Dims{out}, dt, device), 4, ax));
        }
    };
    if (dt == DType::f64)
        build(interp::taps<double>(mode, align, in, out));
    else
        build(interp::taps<float>(mode, align, in, out));
    return r;
}

Outputs interpolate(const OpCall& c, const Inputs& in) {
    // out[i, j] = sum_a wh[i][a] * (sum_b ww[j][b] * x[ih[i][a], iw[j][b]]): columns first, as the kernel
    TensorAny t = up(in[0]);
    for (int ax = 3; ax >= 2; --ax) {
        AxisTaps tp = axis_taps(c, t.shape()[ax], c.shape[ax], ax, t.dtype(), t.device());
        TensorAny sum;
        for (std::size_t k = 0; k < tp.index.size(); ++k) {
            TensorAny term = mul(tp.weight[k], index_select(t, ax, tp.index[k]));
            sum = sum.defined() ? add(sum, term) : term;
        }
        t = sum;
    }
    return {down(t, c.dtype)};
}

Outputs interpolate_backward(const OpCall& c, const Inputs& in) {
    TensorAny t = up(in[0]);
    for (int ax = 2; ax < 4; ++ax) {
        AxisTaps tp = axis_taps(c, c.shape[ax], t.shape()[ax], ax, t.dtype(), t.device());
        Dims s = t.shape();
        s[ax] = c.shape[ax];
        TensorAny acc = full(s, 0, t.dtype(), t.device());
        for (std::size_t k = 0; k < tp.index.size(); ++k)
            acc = index_add(acc, ax, tp.index[k], mul(tp.weight[k], t));
        t = acc;
    }
    return {down(t, c.dtype)};
}

}  // namespace

void add_pool_decompositions(DecompositionTable& t) {
    t.set(OpId::max_pool2d, max_pool2d);
    t.set(OpId::max_pool2d_backward, max_pool2d_backward);
    t.set(OpId::avg_pool2d, avg_pool2d);
    t.set(OpId::avg_pool2d_backward, avg_pool2d_backward);
    t.set(OpId::adaptive_avg_pool2d, adaptive_avg_pool2d);
    t.set(OpId::adaptive_avg_pool2d_backward, adaptive_avg_pool2d_backward);
    t.set(OpId::interpolate, interpolate);
    t.set(OpId::interpolate_backward, interpolate_backward);
}

}  // namespace burn::ops::detail
