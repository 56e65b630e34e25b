// ONNX normalisations beyond the nn family: LRN (opsets 1 and 13, which differ only in types) and
// MeanVarianceNormalization (opsets 9 and 13, its `axes` attribute, default [0, 2, 3]). Both are built
// from burn::ops, so they run on every device and differentiate on an autodiff device.
#include <algorithm>
#include <cmath>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

// Windows of at most this many channels sum shifted slices (exact); wider ones subtract a running sum.
constexpr int64_t kLrnMaxSlices = 16;

/// LRN: y = x / (bias + alpha / size * square_sum)^beta, square_sum over the channels
/// [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)] clipped to [0, C).
Outs lrn(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(is_float(x.dtype()), "X must be a float tensor, got ", x.dtype(), " ", x.shape());
    c.check(x.rank() >= 2, "X must be [N, C, D1, ...] (rank >= 2), got ", x.shape());
    const int64_t size = c.attr_int("size");
    c.check(size >= 1, "attribute 'size' must be >= 1, got ", size);
    const double alpha = c.attr_float("alpha", 1e-4), beta = c.attr_float("beta", 0.75),
                 bias = c.attr_float("bias", 1.0);
    const int64_t ch = x.shape()[1];
    if (x.shape().numel() == 0) return {x};
    // Channels beyond the tensor contribute nothing: clip the window's reach to C - 1 on each side.
    const int64_t lo = std::min((size - 1) / 2, ch - 1), hi = std::min(size - 1 - (size - 1) / 2, ch - 1);
    const TensorAny sq = ops::square(x);
    Dims pad_lo = x.shape(), pad_hi = x.shape();
    pad_lo[1] = lo;
    pad_hi[1] = hi;
    std::vector<TensorAny> parts;
    if (lo > 0) parts.push_back(ops::full(pad_lo, 0, x.dtype(), x.device()));
    parts.push_back(sq);
    if (hi > 0) parts.push_back(ops::full(pad_hi, 0, x.dtype(), x.device()));
    const TensorAny padded = parts.size() == 1 ? sq : ops::cat(parts, 1);  // C + lo + hi channels
    const int64_t window = lo + hi + 1;
    TensorAny sum;
    if (window <= kLrnMaxSlices) {
        sum = ops::narrow(padded, 1, 0, ch);
        for (int64_t k = 1; k < window; ++k) sum = ops::add(sum, ops::narrow(padded, 1, k, ch));
    } else {  // running sum: S[c] = cs[c + window - 1] - cs[c - 1]
        Dims zero = x.shape();
        zero[1] = 1;
        const TensorAny cs = ops::cat({ops::full(zero, 0, x.dtype(), x.device()), ops::cumsum(padded, 1)}, 1);
        sum = ops::sub(ops::narrow(cs, 1, window, ch), ops::narrow(cs, 1, 0, ch));
    }
    const TensorAny den = ops::powf_scalar(
        ops::add_scalar(ops::mul_scalar(sum, alpha / static_cast<double>(size)), bias), beta);
    return {ops::div(x, den)};
}

/// MeanVarianceNormalization: (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9), the means over `axes` (the
/// spec's function body; the variance is clamped at 0 so that rounding cannot make it negative).
Outs mvn(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(is_float(x.dtype()), "X must be a float tensor, got ", x.dtype(), " ", x.shape());
    const std::vector<int64_t> axes = c.attr_ints("axes", {0, 2, 3});
    std::vector<int64_t> dims;
    for (int64_t a : axes) {
        const int64_t d = c.axis(a, x.rank());
        c.check(std::find(dims.begin(), dims.end(), d) == dims.end(), "attribute 'axes' repeats axis ", a,
                " (input ", x.shape(), ")");
        dims.push_back(d);
    }
    auto mean_over = [&dims](TensorAny t) {
        for (int64_t d : dims) t = ops::mean_dim(t, d);
        return t;
    };
    const TensorAny mean = mean_over(x);
    const TensorAny var = ops::relu(ops::sub(mean_over(ops::square(x)), ops::square(mean)));
    return {ops::div(ops::sub(x, mean), ops::add_scalar(ops::sqrt(var), 1e-9))};
}

}  // namespace

void add_norm_ops(OpTable& t) {
    t.add("LRN", 1, lrn);
    t.add("MeanVarianceNormalization", 9, mvn);
}

}  // namespace burn::onnx::detail
