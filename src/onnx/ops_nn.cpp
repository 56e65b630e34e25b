// ONNX neural-network ops: Conv, ConvTranspose, MaxPool, AveragePool, the global pools,
// BatchNormalization (inference), InstanceNormalization and LayerNormalization.
#include <algorithm>
#include <limits>

#include "burn/tensor/module_ops.hpp"
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

template <std::size_t N>
std::array<std::size_t, N> arr(const std::vector<int64_t>& v) {
    std::array<std::size_t, N> a{};
    for (std::size_t i = 0; i < N; ++i) a[i] = static_cast<std::size_t>(v[i]);
    return a;
}

template <std::size_t N>
ConvOptions<N> conv_options(const Window& w, int64_t groups) {
    ConvOptions<N> o;
    o.stride = arr<N>(w.stride);
    o.dilation = arr<N>(w.dilation);
    o.padding = arr<N>(w.pad_begin);
    o.padding_end = arr<N>(w.pad_end);
    o.groups = static_cast<std::size_t>(groups);
    return o;
}

std::vector<int64_t> weight_kernel(const TensorAny& w) {
    std::vector<int64_t> k;
    for (int i = 2; i < w.rank(); ++i) k.push_back(w.shape()[i]);
    return k;
}

Outs conv(const OpContext& c) {
    const TensorAny &x = c.in(0), &w = c.in(1);
    std::optional<TensorAny> b;
    if (c.has(2)) b = c.in(2);
    const Window win = window_of(c, x, c.attr_ints("kernel_shape", weight_kernel(w)));
    const int64_t groups = c.attr_int("group", 1);
    switch (win.s) {
        case 1:
            return {ops::conv1d(x, w, b, conv_options<1>(win, groups))};
        case 2:
            return {ops::conv2d(x, w, b, conv_options<2>(win, groups))};
        default:
            return {ops::conv3d(x, w, b, conv_options<3>(win, groups))};
    }
}

template <std::size_t N>
TensorAny conv_transpose_n(const TensorAny& x, const TensorAny& w, std::optional<TensorAny> b,
                           const Window& win, const std::vector<int64_t>& out_pad, int64_t groups) {
    ConvTransposeOptions<N> o;
    o.stride = arr<N>(win.stride);
    o.dilation = arr<N>(win.dilation);
    o.padding = arr<N>(win.pad_begin);
    o.padding_out = arr<N>(out_pad);
    o.groups = static_cast<std::size_t>(groups);
    if constexpr (N == 1) return ops::conv_transpose1d(x, w, std::move(b), o);
    if constexpr (N == 2) return ops::conv_transpose2d(x, w, std::move(b), o);
    if constexpr (N == 3) return ops::conv_transpose3d(x, w, std::move(b), o);
}

Outs conv_transpose(const OpContext& c) {
    const TensorAny &x = c.in(0), &w = c.in(1);
    const std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
    // pads as given; output_shape and auto_pad (below) replace them
    Window win = window_of(c, x, c.attr_ints("kernel_shape", weight_kernel(w)));
    const auto n = static_cast<std::size_t>(win.s);
    std::vector<int64_t> out_pad = c.attr_ints("output_padding", std::vector<int64_t>(n, 0));
    c.check(out_pad.size() == n, "output_padding needs one entry per spatial dim");
    std::vector<int64_t> want = c.attr_ints("output_shape");
    if (want.empty() && (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER"))
        for (std::size_t i = 0; i < n; ++i)
            want.push_back(x.shape()[static_cast<int>(i) + 2] * win.stride[i]);
    if (want.size() > n)
        want.erase(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(want.size() - n));
    if (!want.empty()) {
        c.check(want.size() == n, "output_shape needs one entry per spatial dim");
        for (std::size_t i = 0; i < n; ++i) {
            const int64_t full = win.stride[i] * (x.shape()[static_cast<int>(i) + 2] - 1) + out_pad[i] +
                                 (win.kernel[i] - 1) * win.dilation[i] + 1;
            int64_t total = full - want[i];
            if (total < 0) {
                out_pad[i] -= total;
                total = 0;
            }
            const bool upper = auto_pad != "SAME_LOWER";
            win.pad_begin[i] = upper ? total / 2 : total - total / 2;
            win.pad_end[i] = upper ? total - total / 2 : total / 2;
        }
    }
    // The full transposed convolution (no padding), output_padding as zeros at the end, the pads
    // cropped, then the bias: any pads and output padding, without burn's PyTorch-style limits.
    const int64_t groups = c.attr_int("group", 1);
    Window none = win;
    std::fill(none.pad_begin.begin(), none.pad_begin.end(), 0);
    std::vector<int64_t> zeros(n, 0);
    TensorAny y = win.s == 1   ? conv_transpose_n<1>(x, w, std::nullopt, none, zeros, groups)
                  : win.s == 2 ? conv_transpose_n<2>(x, w, std::nullopt, none, zeros, groups)
                               : conv_transpose_n<3>(x, w, std::nullopt, none, zeros, groups);
    for (int i = 0; i < win.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (out_pad[k] > 0) {
            Dims s = y.shape();
            s[i + 2] = out_pad[k];
            y = ops::cat({y, ops::full(s, 0, y.dtype(), y.device())}, i + 2);
        }
        const int64_t len = y.shape()[i + 2], keep = len - win.pad_begin[k] - win.pad_end[k];
        c.check(keep >= 0, "the pads remove more than the output holds in spatial dim ", i);
        if (win.pad_begin[k] || win.pad_end[k]) y = ops::narrow(y, i + 2, win.pad_begin[k], keep);
    }
    if (c.has(2)) {
        Dims bs = Dims::filled(y.rank(), 1);
        bs[1] = c.in(2).shape().numel();
        y = ops::add(y, ops::reshape(c.in(2), bs));
    }
    return {y};
}

/// x padded with value along each spatial dim (w's pads then become 0).
TensorAny pad_all(const TensorAny& x, Window& w, double value) {
    TensorAny y = x;
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        for (int side = 0; side < 2; ++side) {
            const int64_t n = side == 0 ? w.pad_begin[k] : w.pad_end[k];
            if (!n) continue;
            Dims s = y.shape();
            s[i + 2] = n;
            TensorAny fill = ops::full(s, value, y.dtype(), y.device());
            y = side == 0 ? ops::cat({fill, y}, i + 2) : ops::cat({y, fill}, i + 2);
        }
        w.pad_begin[k] = w.pad_end[k] = 0;
    }
    return y;
}

/// Whether burn's pools take w's padding as it is: the same at both ends, at most half the
/// (dilated) kernel (PyTorch's rule).
bool pool_pads_direct(const Window& w) {
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (w.pad_begin[k] != w.pad_end[k] || 2 * w.pad_begin[k] > (w.kernel[k] - 1) * w.dilation[k] + 1)
            return false;
    }
    return true;
}

TensorAny avg_pool_direct(const TensorAny& x, const Window& w, bool include, bool ceil) {
    if (w.s == 1)
        return ops::avg_pool1d(x, std::size_t(w.kernel[0]), std::size_t(w.stride[0]),
                               std::size_t(w.pad_begin[0]), include, ceil);
    return ops::avg_pool2d(x, arr<2>(w.kernel), arr<2>(w.stride), arr<2>(w.pad_begin), include, ceil);
}

/// An average pool with any pads: burn's pool where it takes them; otherwise zero padding, and without
/// count_include_pad the window sums divided by the windows' counts of real elements.
TensorAny avg_pool_any(const TensorAny& x, const Window& w, bool include, bool ceil) {
    if (pool_pads_direct(w)) return avg_pool_direct(x, w, include, ceil);
    Window wp = w;
    TensorAny sum = avg_pool_direct(pad_all(x, wp, 0), wp, true, ceil);
    if (include) return sum;
    Window wo = w;
    TensorAny count =
        avg_pool_direct(pad_all(ops::full(x.shape(), 1, x.dtype(), x.device()), wo, 0), wo, true, ceil);
    return ops::div(sum, count);
}

/// A 3-D pool as three 1-D pools, one per spatial dim (max and average pools are separable over box
/// windows; the counts of an average without padding factor per dim too).
TensorAny pool_separable(const OpContext& c, TensorAny x, const Window& w, bool max, bool include,
                         bool ceil) {
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const int d = i + 2, r = x.rank();
        Dims perm = Dims::filled(r, 0);
        int at = 0;
        for (int j = 0; j < r; ++j)
            if (j != d) perm[at++] = j;
        perm[r - 1] = d;
        TensorAny moved = ops::contiguous(ops::permute(x, perm));
        const Dims ms = moved.shape();
        TensorAny rows =
            ops::reshape(moved, Dims{ms.numel() / std::max<int64_t>(1, ms[r - 1]), 1, ms[r - 1]});
        Window one;
        one.s = 1;
        one.kernel = {w.kernel[k]};
        one.stride = {w.stride[k]};
        one.dilation = {w.dilation[k]};
        one.pad_begin = {w.pad_begin[k]};
        one.pad_end = {w.pad_end[k]};
        TensorAny y;
        if (max) {
            if (!pool_pads_direct(one)) rows = pad_all(rows, one, -std::numeric_limits<double>::infinity());
            y = ops::max_pool1d(rows, std::size_t(one.kernel[0]), std::size_t(one.stride[0]),
                                std::size_t(one.pad_begin[0]), std::size_t(one.dilation[0]), ceil);
        } else {
            c.check(one.dilation[0] == 1, "dilated average pooling is not supported");
            y = avg_pool_any(rows, one, include, ceil);
        }
        Dims back = ms;
        back[r - 1] = y.shape()[2];
        Dims inv = Dims::filled(r, 0);
        for (int j = 0; j < r; ++j) inv[perm[j]] = j;
        x = ops::permute(ops::reshape(y, back), inv);
    }
    return x;
}

/// x [R, 1, L] reshaped from [rows..., L] (a copy when not contiguous).
TensorAny as_lines(const TensorAny& x) {
    const int64_t l = x.shape()[x.rank() - 1];
    return ops::reshape(ops::contiguous(x), Dims{x.shape().numel() / std::max<int64_t>(1, l), 1, l});
}

/// MaxPool's values and Indices output: the flattened index of each maximum in x (unpadded, [N, C, S...]),
/// row major (storage_order 0) or with the first spatial dim fastest (1). burn's pools with indices give
/// the position in the (padded) line or plane; a 3-D pool is a 2-D pool over each depth slice, then a 1-D
/// pool over depth whose indices pick the slice's plane index.
std::pair<TensorAny, TensorAny> max_pool_indices(const TensorAny& x, Window w, bool ceil, bool column) {
    const Dims in = x.shape();
    const std::vector<int64_t> pad = w.pad_begin;
    const bool padded = !pool_pads_direct(w);
    TensorAny xp = padded ? pad_all(x, w, -std::numeric_limits<double>::infinity()) : x;
    const Dims ps = xp.shape();  // padded extents: burn's indices address them
    const auto n = static_cast<std::size_t>(w.s);
    std::vector<TensorAny> coord(n);  // i64 coordinates in xp, per spatial dim
    TensorAny y;
    if (w.s == 1) {
        auto [v, i] =
            ops::max_pool1d_with_indices(xp, std::size_t(w.kernel[0]), std::size_t(w.stride[0]),
                                         std::size_t(w.pad_begin[0]), std::size_t(w.dilation[0]), ceil);
        y = v;
        coord[0] = ops::cast(i, DType::i64);
    } else {
        // the last two spatial dims: a 2-D pool over each plane
        const int a = w.s - 2;
        const auto k = static_cast<std::size_t>(a);
        TensorAny planes = ops::reshape(
            xp, Dims{ps.numel() / std::max<int64_t>(1, ps[a + 2] * ps[a + 3]), 1, ps[a + 2], ps[a + 3]});
        auto [v, i] =
            ops::max_pool2d_with_indices(planes, {std::size_t(w.kernel[k]), std::size_t(w.kernel[k + 1])},
                                         {std::size_t(w.stride[k]), std::size_t(w.stride[k + 1])},
                                         {std::size_t(w.pad_begin[k]), std::size_t(w.pad_begin[k + 1])},
                                         {std::size_t(w.dilation[k]), std::size_t(w.dilation[k + 1])}, ceil);
        TensorAny hw = ops::cast(i, DType::i64);
        const int64_t ho = v.shape()[2], wo = v.shape()[3];
        if (w.s == 3) {
            // [N * C, D, Ho * Wo] -> lines over depth [N * C * Ho * Wo, 1, D]; 1-D pool with indices
            const Dims lines_shape{ps[0] * ps[1], ps[2], ho * wo};
            const Dims to_lines{0, 2, 1};
            auto [vd, id] = ops::max_pool1d_with_indices(
                as_lines(ops::permute(ops::reshape(v, lines_shape), to_lines)), std::size_t(w.kernel[0]),
                std::size_t(w.stride[0]), std::size_t(w.pad_begin[0]), std::size_t(w.dilation[0]), ceil);
            const int64_t dout = vd.shape()[2];
            TensorAny hw_lines = as_lines(ops::permute(ops::reshape(hw, lines_shape), to_lines));
            TensorAny d = ops::cast(id, DType::i64);
            hw = ops::gather(hw_lines, 2, d);
            const Dims back{ps[0], ps[1], ho, wo, dout}, order{0, 1, 4, 2, 3};
            y = ops::permute(ops::reshape(vd, back), order);
            hw = ops::permute(ops::reshape(hw, back), order);
            coord[0] = ops::permute(ops::reshape(d, back), order);
        } else {
            y = ops::reshape(v, Dims{ps[0], ps[1], ho, wo});
            hw = ops::reshape(hw, Dims{ps[0], ps[1], ho, wo});
        }
        const double pw = double(ps[a + 3]);
        coord[k] = ops::div_scalar(hw, pw);
        coord[k + 1] = ops::remainder_scalar(hw, pw);
    }
    // the flattened index into x: (n * C + c) * prod(S) + the spatial offset
    int64_t plane = 1;
    for (std::size_t i = 0; i < n; ++i) plane *= in[static_cast<int>(i) + 2];
    Dims nc_shape = Dims::filled(x.rank(), 1);
    nc_shape[0] = in[0];
    nc_shape[1] = in[1];
    TensorAny idx = ops::reshape(
        ops::mul_scalar(ops::arange(0, in[0] * in[1], 1, DType::i64, x.device()), double(plane)), nc_shape);
    int64_t step = 1;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = column ? j : n - 1 - j;
        TensorAny ci = padded && pad[i] ? ops::add_scalar(coord[i], -double(pad[i])) : coord[i];
        idx = ops::add(idx, step == 1 ? ci : ops::mul_scalar(ci, double(step)));
        step *= in[static_cast<int>(i) + 2];
    }
    return {y, idx};
}

Outs max_pool(const OpContext& c) {
    Window w = window_of(c, c.in(0), c.attr_ints("kernel_shape"));
    const int64_t order = c.attr_int("storage_order", 0);
    c.check(order == 0 || order == 1, "storage_order must be 0 or 1, got ", order);
    const bool ceil = c.attr_int("ceil_mode", 0) != 0;
    TensorAny x = c.in(0);
    const DType dt = x.dtype();
    if (!is_float(dt)) x = ops::cast(x, dt == DType::i64 || dt == DType::i32 ? DType::f64 : DType::f32);
    if (c.node().outputs.size() > 1 && !c.node().outputs[1].empty()) {
        auto [y, idx] = max_pool_indices(x, w, ceil, order == 1);
        return {y.dtype() == dt ? y : ops::cast(y, dt), idx};
    }
    if (w.s == 3) {
        TensorAny y = pool_separable(c, x, w, true, false, ceil);
        return {y.dtype() == dt ? y : ops::cast(y, dt)};
    }
    if (!pool_pads_direct(w)) x = pad_all(x, w, -std::numeric_limits<double>::infinity());
    TensorAny y = w.s == 1 ? ops::max_pool1d(x, std::size_t(w.kernel[0]), std::size_t(w.stride[0]),
                                             std::size_t(w.pad_begin[0]), std::size_t(w.dilation[0]), ceil)
                           : ops::max_pool2d(x, arr<2>(w.kernel), arr<2>(w.stride), arr<2>(w.pad_begin),
                                             arr<2>(w.dilation), ceil);
    return {y.dtype() == dt ? y : ops::cast(y, dt)};
}

Outs avg_pool(const OpContext& c) {
    Window w = window_of(c, c.in(0), c.attr_ints("kernel_shape"));
    for (int64_t d : w.dilation) c.check(d == 1, "dilated average pooling is not supported");
    const bool ceil = c.attr_int("ceil_mode", 0) != 0, include = c.attr_int("count_include_pad", 0) != 0;
    if (w.s == 3) return {pool_separable(c, c.in(0), w, false, include, ceil)};
    return {avg_pool_any(c.in(0), w, include, ceil)};
}

TensorAny reduce_spatial(TensorAny x, bool max) {
    for (int d = 2; d < x.rank(); ++d) x = max ? ops::max_dim(x, d) : ops::mean_dim(x, d);
    return x;
}

/// A per-channel parameter [C] shaped to broadcast against [N, C, ...] of rank r.
TensorAny per_channel(const TensorAny& p, int64_t r) {
    Dims s = Dims::filled(static_cast<int>(r), 1);
    s[1] = p.shape().numel();
    return ops::reshape(p, s);
}

Outs batch_norm(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() >= 2, "needs an input of rank >= 2, got ", x.shape());
    const double eps = c.attr_float("epsilon", 1e-5);
    const int64_t r = x.rank();
    if (c.attr_int("training_mode", 0) == 0) {
        TensorAny inv = ops::recip(ops::sqrt(ops::add_scalar(per_channel(c.in(4), r), eps)));
        TensorAny scale = ops::mul(per_channel(c.in(1), r), inv);
        TensorAny shift = ops::sub(per_channel(c.in(2), r), ops::mul(per_channel(c.in(3), r), scale));
        return {ops::add(ops::mul(x, scale), shift)};
    }
    // Training mode (opset 14): normalise with the batch's statistics (population variance) and
    // return the updated running mean and variance.
    TensorAny mean = x;
    for (int d = 0; d < r; ++d)
        if (d != 1) mean = ops::mean_dim(mean, d);
    TensorAny centred = ops::sub(x, mean);
    TensorAny var = ops::square(centred);
    for (int d = 0; d < r; ++d)
        if (d != 1) var = ops::mean_dim(var, d);
    TensorAny y = ops::mul(centred, ops::recip(ops::sqrt(ops::add_scalar(var, eps))));
    y = ops::add(ops::mul(y, per_channel(c.in(1), r)), per_channel(c.in(2), r));
    const double m = c.attr_float("momentum", 0.9);
    const Dims cs{x.shape()[1]};
    TensorAny run_mean =
        ops::add(ops::mul_scalar(c.in(3), m), ops::mul_scalar(ops::reshape(mean, cs), 1 - m));
    TensorAny run_var = ops::add(ops::mul_scalar(c.in(4), m), ops::mul_scalar(ops::reshape(var, cs), 1 - m));
    return {y, run_mean, run_var};
}

Outs instance_norm(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() >= 3, "needs [N, C, spatial...], got ", x.shape());
    const double eps = c.attr_float("epsilon", 1e-5);
    const Dims shape = x.shape();
    TensorAny y = ops::reshape(ops::layer_norm(as_2d(c, x, 2), std::nullopt, std::nullopt, eps), shape);
    return {ops::add(ops::mul(y, per_channel(c.in(1), x.rank())), per_channel(c.in(2), x.rank()))};
}

Outs layer_norm(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t axis = c.axis(c.attr_int("axis", -1), x.rank());
    const double eps = c.attr_float("epsilon", 1e-5);
    const Dims shape = x.shape();
    const bool stats = c.node().outputs.size() > 1;
    TensorAny flat = as_2d(c, x, axis);
    TensorAny y;
    Outs out(1);
    if (!stats) {
        y = ops::layer_norm(flat, std::nullopt, std::nullopt, eps);
    } else {
        // Mean and InvStdDev are outputs too (shape: x's up to axis, then 1s), computed in f32 at least.
        if (x.dtype() == DType::f16 || x.dtype() == DType::bf16) flat = ops::cast(flat, DType::f32);
        TensorAny mean = ops::mean_dim(flat, 1);
        TensorAny centred = ops::sub(flat, mean);
        TensorAny inv = ops::recip(ops::sqrt(ops::add_scalar(ops::mean_dim(ops::square(centred), 1), eps)));
        y = ops::cast(ops::mul(centred, inv), x.dtype());
        Dims stat_shape = shape;
        for (int i = static_cast<int>(axis); i < stat_shape.rank(); ++i) stat_shape[i] = 1;
        const int64_t stash = c.attr_int("stash_type", 1);
        const DType sd = stash == 1 ? DType::f32 : x.dtype();
        out.push_back(ops::cast(ops::reshape(mean, stat_shape), sd));
        out.push_back(ops::cast(ops::reshape(inv, stat_shape), sd));
    }
    y = ops::reshape(y, shape);
    y = ops::mul(to_rank(y, x.rank()), to_rank(c.in(1), x.rank()));
    if (c.has(2)) y = ops::add(y, to_rank(c.in(2), x.rank()));
    out[0] = y;
    return out;
}

}  // namespace

void add_nn_ops(OpTable& t) {
    t.add("Conv", 1, conv);
    t.add("ConvTranspose", 1, conv_transpose);
    t.add("MaxPool", 1, max_pool);
    t.add("AveragePool", 1, avg_pool);
    t.add("GlobalAveragePool", 1,
          [](const OpContext& c) -> Outs { return {reduce_spatial(c.in(0), false)}; });
    t.add("GlobalMaxPool", 1, [](const OpContext& c) -> Outs { return {reduce_spatial(c.in(0), true)}; });
    t.add("BatchNormalization", 1, batch_norm);
    t.add("InstanceNormalization", 1, instance_norm);
    t.add("LayerNormalization", 17, layer_norm);
}

}  // namespace burn::onnx::detail
