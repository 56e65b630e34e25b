// ONNX signal processing (opset 17): HannWindow, HammingWindow, BlackmanWindow, DFT, STFT,
// MelWeightMatrix. The windows and the mel weight matrix depend only on scalar inputs (their shape
// depends on the data): they are computed on the host in f64 and cast to output_datatype. DFT and STFT
// run on the device: the transform along the axis is one matmul of the signal's real and imaginary
// parts with a [cos, sin] matrix built on the host in f64 (angles reduced exactly, 2 pi ((n k) mod N) /
// N) and stored in the compute dtype (f64 for f64 inputs, f32 otherwise), so they run on every device
// and differentiate. That matrix holds (1 or 2) N x 2K entries: the DFT length is capped so that it
// holds at most kMaxDftEntries. STFT gathers its frames with one select.
#include <algorithm>
#include <cmath>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

constexpr double kPi = 3.14159265358979323846;
constexpr int64_t kMaxWindow = int64_t{1} << 26;        // elements of a generated window
constexpr int64_t kMaxDftEntries = int64_t{1} << 26;    // entries of the DFT matrix (256 MiB in f32)
constexpr int64_t kMaxMelEntries = int64_t{1} << 26;    // entries of the mel weight matrix
constexpr int64_t kMaxFrameSamples = int64_t{1} << 28;  // STFT: frames x frame length

int64_t scalar_int(const OpContext& c, std::size_t i, const char* what) {
    const std::vector<int64_t> v = c.ints_of(i);
    c.check(v.size() == 1, what, " must hold one value, got ", v.size());
    return v[0];
}

double scalar_double(const OpContext& c, std::size_t i, const char* what) {
    const std::vector<double> v = c.doubles_of(i);
    c.check(v.size() == 1, what, " must hold one value, got ", v.size());
    return v[0];
}

DType output_dtype(const OpContext& c) {
    const int64_t code = c.attr_int("output_datatype", 1);
    const auto dt = dtype_of_onnx(static_cast<int32_t>(code));
    c.check(dt.has_value(), "output_datatype ", onnx_type_name(static_cast<int32_t>(code)),
            " is not a type burn holds");
    return *dt;
}

/// Host values as a tensor of dtype on the node's device.
TensorAny host_tensor(const OpContext& c, const std::vector<double>& v, const Dims& shape, DType dt) {
    return ops::cast(ops::from_data(TensorData(v, shape), c.device()), dt);
}

// ---- windows: a0 - a1 cos(2 pi k / d) + a2 cos(4 pi k / d), d = size (periodic) or size - 1

template <int Kind>
Outs window(const OpContext& c) {
    static constexpr double kA[3][3] = {{0.5, 0.5, 0.0}, {25.0 / 46.0, 21.0 / 46.0, 0.0}, {0.42, 0.5, 0.08}};
    const double* a = kA[Kind];
    const int64_t n = scalar_int(c, 0, "size");
    c.check(n >= 0 && n <= kMaxWindow, "size ", n, " is out of range [0, ", kMaxWindow, "]");
    const DType dt = output_dtype(c);
    const int64_t d = c.attr_int("periodic", 1) != 0 ? n : n - 1;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
        const double t = d > 0 ? 2 * kPi * static_cast<double>(k) / static_cast<double>(d) : 0.0;
        v[static_cast<std::size_t>(k)] = a[0] - a[1] * std::cos(t) + a[2] * std::cos(2 * t);
    }
    return {host_tensor(c, v, Dims{n}, dt)};
}

// ---- DFT

/// The [ch * n, 2k] matrix that maps a signal's n real parts (then n imaginary parts when ch = 2) to the
/// k real then k imaginary parts of its transform: X[j] = sum_i x[i] e^(-+2 pi i i j / n) (/ n inverse).
template <class T>
TensorData dft_matrix(int64_t n, int64_t k, int64_t ch, bool inverse) {
    const std::size_t cols = static_cast<std::size_t>(2 * k);
    std::vector<T> w(static_cast<std::size_t>(ch * n) * cols);
    const double sgn = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < k; ++j) {
            const double t = 2 * kPi * static_cast<double>((i * j) % n) / static_cast<double>(n);
            const double re = std::cos(t) * scale, im = sgn * std::sin(t) * scale;
            const std::size_t row = static_cast<std::size_t>(i) * cols, col = static_cast<std::size_t>(j);
            w[row + col] = static_cast<T>(re);  // real part in: (re + i im) * x
            w[row + col + cols / 2] = static_cast<T>(im);
            if (ch == 2) {  // imaginary part in: i x (re + i im) = -im + i re
                const std::size_t row2 = static_cast<std::size_t>(n + i) * cols;
                w[row2 + col] = static_cast<T>(-im);
                w[row2 + col + cols / 2] = static_cast<T>(re);
            }
        }
    }
    return TensorData(w, Dims{ch * n, 2 * k});
}

/// The DFT of length n along axis of x ([..., ch] with ch = 1 real or 2 complex): zero-padded or
/// truncated to n, k = n / 2 + 1 outputs when onesided; the output is [..., k at axis, ..., 2].
TensorAny dft(const OpContext& c, TensorAny x, int64_t axis, int64_t n, bool onesided, bool inverse) {
    const int r = x.rank(), ax = static_cast<int>(axis);
    const int64_t ch = x.shape()[r - 1], k = onesided ? n / 2 + 1 : n;
    c.check(n >= 1 && n <= kMaxDftEntries && 2 * ch * n * k <= kMaxDftEntries, "the DFT length ", n,
            " is out of range (at least 1; its cos/sin matrix may hold at most ", kMaxDftEntries,
            " entries)");
    const int64_t len = x.shape()[ax];
    if (len > n) {
        x = ops::narrow(x, ax, 0, n);
    } else if (len < n) {
        Dims s = x.shape();
        s[ax] = n - len;
        x = ops::cat({x, ops::full(s, 0, x.dtype(), x.device())}, ax);
    }
    const DType dt = x.dtype(), ct = dt == DType::f64 ? DType::f64 : DType::f32;
    // [other dims..., ch, n] as rows of ch * n
    Dims perm = Dims::filled(r, 0);
    int at = 0;
    for (int i = 0; i < r - 1; ++i)
        if (i != ax) perm[at++] = i;
    perm[r - 2] = r - 1;
    perm[r - 1] = ax;
    TensorAny xp = ops::contiguous(ops::permute(ops::cast(x, ct), perm));
    Dims shape = xp.shape();
    int64_t rows = 1;
    for (int i = 0; i < r - 2; ++i) rows *= shape[i];
    const TensorData w =
        ct == DType::f64 ? dft_matrix<double>(n, k, ch, inverse) : dft_matrix<float>(n, k, ch, inverse);
    TensorAny y = ops::matmul(ops::reshape(xp, Dims{rows, ch * n}), ops::from_data(w, x.device()));
    shape[r - 2] = 2;
    shape[r - 1] = k;
    Dims inv = Dims::filled(r, 0);
    for (int i = 0; i < r; ++i) inv[static_cast<int>(perm[i])] = i;
    return ops::cast(ops::permute(ops::reshape(y, shape), inv), dt);
}

Outs dft_op(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int r = x.rank();
    c.check(is_float(x.dtype()), "input must be a float tensor, got ", x.dtype());
    c.check(r >= 2 && (x.shape()[r - 1] == 1 || x.shape()[r - 1] == 2),
            "input must be [batch, signal dims..., 1 (real) or 2 (complex)], got ", x.shape());
    int64_t axis = c.attr_int("axis", 1);
    if (axis < 0) axis += r;
    c.check(axis >= 0 && axis <= r - 2, "axis ", c.attr_int("axis", 1), " is out of range for input ",
            x.shape(), " (the last dim holds the real and imaginary parts)");
    int64_t n = x.shape()[static_cast<int>(axis)];
    if (c.has(1)) n = scalar_int(c, 1, "dft_length");
    const bool onesided = c.attr_int("onesided", 0) != 0, inverse = c.attr_int("inverse", 0) != 0;
    c.check(!onesided || x.shape()[r - 1] == 1, "onesided = 1 needs a real input ([..., 1]), got ",
            x.shape());
    return {dft(c, x, axis, n, onesided, inverse)};
}

Outs stft(const OpContext& c) {
    TensorAny x = c.in(0);
    c.check(is_float(x.dtype()), "signal must be a float tensor, got ", x.dtype());
    if (x.rank() == 2) x = ops::unsqueeze_dim(x, 2);
    c.check(x.rank() == 3 && (x.shape()[2] == 1 || x.shape()[2] == 2),
            "signal must be [batch, length, 1 (real) or 2 (complex)], got ", x.shape());
    const int64_t step = scalar_int(c, 1, "frame_step");
    c.check(step >= 1, "frame_step must be positive, got ", step);
    int64_t len = c.has(3) ? scalar_int(c, 3, "frame_length") : -1;
    if (c.has(2)) {
        const TensorAny& win = c.in(2);
        c.check(win.rank() == 1 && win.dtype() == x.dtype(), "window must be 1-D of the signal's type (",
                x.dtype(), "), got ", win.dtype(), " ", win.shape());
        c.check(len < 0 || len == win.shape()[0], "frame_length ", len, " differs from the window's length ",
                win.shape()[0]);
        len = win.shape()[0];
    }
    c.check(len >= 0, "needs a window or frame_length (neither is given)");
    c.check(len >= 1 && len <= x.shape()[1], "the frame length (", len,
            ", from frame_length or the window) must be in [1, signal length ", x.shape()[1], "]");
    const bool onesided = c.attr_int("onesided", 1) != 0;
    c.check(!onesided || x.shape()[2] == 1, "onesided = 1 needs a real signal ([batch, length, 1]), got ",
            x.shape());
    const int64_t frames = (x.shape()[1] - len) / step + 1;
    c.check(frames <= kMaxFrameSamples / len, frames, " frames of ", len, " samples exceed ",
            kMaxFrameSamples, " samples");
    std::vector<int64_t> idx(static_cast<std::size_t>(frames * len));
    for (int64_t f = 0; f < frames; ++f)
        for (int64_t i = 0; i < len; ++i) idx[static_cast<std::size_t>(f * len + i)] = f * step + i;
    TensorAny at = ops::from_data(TensorData(idx, Dims{frames * len}), x.device());
    TensorAny fr = ops::reshape(ops::select(x, 1, at), Dims{x.shape()[0], frames, len, x.shape()[2]});
    if (c.has(2)) fr = ops::mul(fr, ops::reshape(c.in(2), Dims{1, 1, len, 1}));
    return {dft(c, fr, 2, len, onesided, false)};
}

// ---- MelWeightMatrix (onnx's reference: triangles between mel-spaced DFT bins)

Outs mel_weight_matrix(const OpContext& c) {
    const int64_t bins = scalar_int(c, 0, "num_mel_bins"), dft_len = scalar_int(c, 1, "dft_length");
    const int64_t rate = scalar_int(c, 2, "sample_rate");
    const double lo = scalar_double(c, 3, "lower_edge_hertz"), hi = scalar_double(c, 4, "upper_edge_hertz");
    const DType dt = output_dtype(c);
    c.check(bins >= 1 && dft_len >= 1 && rate >= 1, "num_mel_bins (", bins, "), dft_length (", dft_len,
            ") and sample_rate (", rate, ") must be positive");
    const int64_t spec = dft_len / 2 + 1;
    c.check(bins <= kMaxMelEntries / spec, "the matrix [", spec, ", ", bins, "] would exceed ",
            kMaxMelEntries, " entries");
    c.check(std::isfinite(lo) && std::isfinite(hi) && lo > -700 && hi > -700,
            "lower_edge_hertz and upper_edge_hertz must be finite and above -700, got ", lo, " and ", hi);
    const double lo_mel = 2595 * std::log10(1 + lo / 700), hi_mel = 2595 * std::log10(1 + hi / 700);
    const double step = (hi_mel - lo_mel) / static_cast<double>(bins + 2);
    std::vector<int64_t> f(static_cast<std::size_t>(bins + 2));
    for (int64_t i = 0; i < bins + 2; ++i) {
        const double hz = 700 * (std::pow(10.0, (static_cast<double>(i) * step + lo_mel) / 2595) - 1);
        const double b = std::floor(static_cast<double>(dft_len + 1) * hz / static_cast<double>(rate));
        // far outside the spectrum: clamped (the slopes stay; nothing is written outside [0, spec))
        f[static_cast<std::size_t>(i)] = static_cast<int64_t>(std::clamp(b, -1e15, 1e15));
    }
    std::vector<double> out(static_cast<std::size_t>(spec * bins), 0.0);
    auto set = [&](int64_t j, int64_t i, double v) {
        if (j >= 0 && j < spec) out[static_cast<std::size_t>(j * bins + i)] = v;
    };
    for (int64_t i = 0; i < bins; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const int64_t left = f[u], center = f[u + 1], right = f[u + 2];
        if (center == left) {
            set(center, i, 1);
        } else {
            for (int64_t j = std::max<int64_t>(left, 0); j <= std::min(center, spec - 1); ++j)
                set(j, i, static_cast<double>(j - left) / static_cast<double>(center - left));
        }
        if (right > center)
            for (int64_t j = std::max<int64_t>(center, 0); j < std::min(right, spec); ++j)
                set(j, i, static_cast<double>(right - j) / static_cast<double>(right - center));
    }
    return {host_tensor(c, out, Dims{spec, bins}, dt)};
}

}  // namespace

void add_signal_ops(OpTable& t) {
    t.add("HannWindow", 17, window<0>);
    t.add("HammingWindow", 17, window<1>);
    t.add("BlackmanWindow", 17, window<2>);
    t.add("DFT", 17, dft_op);
    t.add("STFT", 17, stft);
    t.add("MelWeightMatrix", 17, mel_weight_matrix);
}

}  // namespace burn::onnx::detail
