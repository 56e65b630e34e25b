// Discrete Fourier transforms (burn/tensor/fft.hpp): rfft, irfft, cfft, stft and istft. Where the device
// has a DFT kernel of its own (the dft row: kissfft on the CPU for float32, cuFFT on CUDA) every length
// goes through it; elsewhere a signal of at most fft_impl::kDirectMax points is one matmul of its rows
// with a table of twiddle factors built on the host in float64, and a longer one the dft row, whose
// decomposition is the factored DFT of fft_factored.cpp. Every device runs them; autodiff differentiates
// the tables through matmul and the row through its own rule.
#include "burn/tensor/fft.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/common.hpp"
#include "ops/fft_factored.hpp"

namespace burn::ops {

using namespace detail;

namespace fft_impl {  // named, not anonymous: unity builds merge anonymous namespaces

constexpr double kPi = 3.14159265358979323846;

/// The dtype the transform computes in: the input's, or float32 for the 16-bit floats (their sums of n
/// products would lose most of their digits).
DType work_dtype(DType dt) {
    return dt == DType::f16 || dt == DType::bf16 ? DType::f32 : dt;
}

/// A [rows, cols] table of doubles as a tensor of dtype on device.
TensorAny table(std::vector<double> v, int64_t rows, int64_t cols, DType dtype, const Device& device) {
    return from_data(TensorData(std::move(v), Dims{rows, cols}).convert(dtype), device);
}

/// x with dim moved last, in the work dtype, cropped or zero-padded to n points.
TensorAny last_dim_of(TensorAny x, int d, int64_t n) {
    const int last = x.rank() - 1;
    x = movedim(std::move(x), Dims{d}, Dims{last});
    if (const DType w = work_dtype(x.dtype()); x.dtype() != w) x = cast(std::move(x), w);
    const int64_t len = x.shape()[x.rank() - 1];
    if (n < len) return narrow(std::move(x), -1, 0, n);
    if (n > len) return pad(std::move(x), Dims{0, n - len}, PadMode::Constant(0));
    return x;
}

/// rows [..., k] times table [k, m] -> [..., m] (a 2-D matmul over the flattened leading dims).
TensorAny apply(const TensorAny& x, const TensorAny& t) {
    Dims lead = x.shape();
    const int64_t k = lead[lead.rank() - 1];
    const int64_t rows = k == 0 ? 0 : x.numel() / k;
    TensorAny y = matmul(reshape(x, Dims{rows, k}), t);
    lead[lead.rank() - 1] = t.shape()[1];
    return reshape(std::move(y), lead);
}

/// y (dim last, work dtype) back to dim d and the input's dtype.
TensorAny restore(TensorAny y, int d, DType dtype) {
    if (y.dtype() != dtype) y = cast(std::move(y), dtype);
    const int last = y.rank() - 1;
    return movedim(std::move(y), Dims{last}, Dims{d});
}

void check_signal(const TensorAny& x, const char* op, const char* what) {
    BURN_CHECK_KIND(x.defined(), shape, "[", op, "] the ", what, " tensor is undefined");
    check_float(x, op);
    BURN_CHECK_KIND(x.rank() >= 1, shape, "[", op, "] needs a tensor of rank >= 1, got ", describe(x));
}

void check_pair(const TensorAny& re, const TensorAny& im, const char* op) {
    check_signal(re, op, "real");
    check_signal(im, op, "imaginary");
    BURN_CHECK_KIND(re.shape() == im.shape() && re.dtype() == im.dtype(), shape, "[", op,
                    "] the real and imaginary parts must have one shape and dtype: ", describe(re), " and ",
                    describe(im));
    BURN_CHECK_KIND(re.device() == im.device(), device, "[", op, "] the real part is on ", re.device(),
                    ", the imaginary part on ", im.device());
}

/// The window of stft/istft as n_fft values in dtype on device: ones where none is given, a shorter one
/// centred with zeros on both sides.
TensorAny frame_window(const std::optional<TensorAny>& window, int64_t win, int64_t n_fft, DType dtype,
                       const Device& device, const char* op) {
    TensorAny w = window ? *window : full(Dims{win}, 1.0, dtype, device);
    BURN_CHECK_KIND(w.rank() == 1 && w.shape()[0] == win, shape, "[", op, "] the window must be [", win,
                    "] (win_length), got ", describe(w));
    const int64_t left = (n_fft - win) / 2;
    if (win < n_fft) w = pad(std::move(w), Dims{left, n_fft - win - left}, PadMode::Constant(0));
    return w.dtype() == dtype ? w : cast(std::move(w), dtype);
}

}  // namespace fft_impl

Complex rfft(TensorAny x, int64_t dim, int64_t n) {
    fft_impl::check_signal(x, "rfft", "signal");
    const int d = normalize_dim(dim, x.rank(), "rfft");
    const int64_t len = n > 0 ? n : x.shape()[d];
    BURN_CHECK_KIND(n >= 0 && len >= 1, shape, "[rfft] needs at least one point: n = ", n, " on dim ", d,
                    " of ", describe(x));
    const DType dt = x.dtype();
    const int64_t bins = len / 2 + 1;
    if (len > fft_impl::kDirectMax || fft_impl::has_native_dft(x.device(), fft_impl::work_dtype(dt), len)) {
        // the complex DFT of (x, 0): the device's kernel, or the factored DFT of a long signal
        TensorAny xs = fft_impl::last_dim_of(std::move(x), d, len);
        TensorAny zeros = full(xs.shape(), 0.0, xs.dtype(), xs.device());
        auto [yr, yi] = fft_impl::dft(std::move(xs), std::move(zeros), false);
        return {fft_impl::restore(narrow(yr, -1, 0, bins), d, dt),
                fft_impl::restore(narrow(yi, -1, 0, bins), d, dt)};
    }
    // [len, 2 * bins]: cos(2 pi t k / len) in the first bins columns, -sin in the others.
    std::vector<double> w(static_cast<std::size_t>(len * 2 * bins));
    for (int64_t t = 0; t < len; ++t)
        for (int64_t k = 0; k < bins; ++k) {
            const double a =
                2 * fft_impl::kPi * static_cast<double>((t * k) % len) / static_cast<double>(len);
            w[static_cast<std::size_t>(t * 2 * bins + k)] = std::cos(a);
            w[static_cast<std::size_t>(t * 2 * bins + bins + k)] = -std::sin(a);
        }
    TensorAny xs = fft_impl::last_dim_of(std::move(x), d, len);
    TensorAny y = fft_impl::apply(xs, fft_impl::table(std::move(w), len, 2 * bins, xs.dtype(), xs.device()));
    return {fft_impl::restore(narrow(y, -1, 0, bins), d, dt),
            fft_impl::restore(narrow(y, -1, bins, bins), d, dt)};
}

TensorAny irfft(TensorAny re, TensorAny im, int64_t dim, int64_t n) {
    fft_impl::check_pair(re, im, "irfft");
    const int d = normalize_dim(dim, re.rank(), "irfft");
    const int64_t given = re.shape()[d];
    const int64_t len = n > 0 ? n : 2 * (given - 1);
    BURN_CHECK_KIND(n >= 0 && len >= 1, shape, "[irfft] needs n >= 1 output points: n = ", n, " and ", given,
                    " bins on dim ", d, " of ", describe(re), " (pass n for a single bin)");
    const DType dt = re.dtype();
    const int64_t bins = len / 2 + 1;
    if (len > fft_impl::kDirectMax || fft_impl::has_native_dft(re.device(), fft_impl::work_dtype(dt), len)) {
        // The real part of the inverse DFT (the device's kernel, or the factored DFT of a long signal) of
        // the spectrum weighted as below (c_k / len), zero past the bins.
        TensorAny r = fft_impl::last_dim_of(std::move(re), d, bins),
                  i = fft_impl::last_dim_of(std::move(im), d, bins);
        std::vector<double> cr(static_cast<std::size_t>(bins)), ci(static_cast<std::size_t>(bins));
        for (int64_t k = 0; k < bins; ++k) {
            const bool edge = k == 0 || 2 * k == len;
            cr[static_cast<std::size_t>(k)] = (edge ? 1.0 : 2.0) / static_cast<double>(len);
            ci[static_cast<std::size_t>(k)] = edge ? 0.0 : cr[static_cast<std::size_t>(k)];
        }
        Dims ws = Dims::filled(r.rank(), 1);  // the weights broadcast over the leading dims
        ws[ws.rank() - 1] = bins;
        // (the weights first: arguments are evaluated in no fixed order, and r is moved into mul)
        const TensorAny wr = from_data(TensorData(std::move(cr), ws).convert(r.dtype()), r.device()),
                        wi = from_data(TensorData(std::move(ci), ws).convert(i.dtype()), i.device());
        r = mul(std::move(r), wr);
        i = mul(std::move(i), wi);
        r = pad(std::move(r), Dims{0, len - bins}, PadMode::Constant(0));
        i = pad(std::move(i), Dims{0, len - bins}, PadMode::Constant(0));
        return fft_impl::restore(fft_impl::dft(std::move(r), std::move(i), true).first, d, dt);
    }
    // [2 * bins, len]: x[t] = sum_k c_k (re_k cos(a) - im_k sin(a)) / len, c_k = 2 but for DC and
    // Nyquist (1); an imaginary DC or Nyquist part contributes nothing (sin is 0 there).
    std::vector<double> w(static_cast<std::size_t>(2 * bins * len));
    for (int64_t k = 0; k < bins; ++k) {
        const bool edge = k == 0 || 2 * k == len;
        const double c = (edge ? 1.0 : 2.0) / static_cast<double>(len);
        for (int64_t t = 0; t < len; ++t) {
            const double a =
                2 * fft_impl::kPi * static_cast<double>((t * k) % len) / static_cast<double>(len);
            w[static_cast<std::size_t>(k * len + t)] = c * std::cos(a);
            w[static_cast<std::size_t>((bins + k) * len + t)] = edge ? 0.0 : -c * std::sin(a);
        }
    }
    TensorAny r = fft_impl::last_dim_of(std::move(re), d, bins),
              i = fft_impl::last_dim_of(std::move(im), d, bins);
    const Device dev = r.device();
    const DType wt = r.dtype();
    TensorAny y = fft_impl::apply(cat({std::move(r), std::move(i)}, -1),
                                  fft_impl::table(std::move(w), 2 * bins, len, wt, dev));
    return fft_impl::restore(std::move(y), d, dt);
}

Complex cfft(TensorAny re, TensorAny im, int64_t dim, bool inverse) {
    const char* op = inverse ? "cfft (inverse)" : "cfft";
    fft_impl::check_pair(re, im, op);
    const int d = normalize_dim(dim, re.rank(), op);
    const int64_t len = re.shape()[d];
    BURN_CHECK_KIND(len >= 1, shape, "[", op, "] needs at least one point on dim ", d, " of ", describe(re));
    const DType dt = re.dtype();
    if (len > fft_impl::kDirectMax || fft_impl::has_native_dft(re.device(), fft_impl::work_dtype(dt), len)) {
        // the device's kernel, or the factored DFT of a long signal
        TensorAny r = fft_impl::last_dim_of(std::move(re), d, len),
                  i = fft_impl::last_dim_of(std::move(im), d, len);
        auto [yr, yi] = fft_impl::dft(std::move(r), std::move(i), inverse);
        if (inverse) {
            yr = mul_scalar(std::move(yr), 1.0 / static_cast<double>(len));
            yi = mul_scalar(std::move(yi), 1.0 / static_cast<double>(len));
        }
        return {fft_impl::restore(std::move(yr), d, dt), fft_impl::restore(std::move(yi), d, dt)};
    }
    // [a | b] [[C, -sS], [sS, C]] / scale with S = sin(2 pi t k / len), s = 1 forward, -1 inverse:
    // forward X = sum (a + ib)(cos - i sin) = (aC + bS) + i(bC - aS).
    const double s = inverse ? -1.0 : 1.0, scale = inverse ? 1.0 / static_cast<double>(len) : 1.0;
    const int64_t m = 2 * len;
    std::vector<double> w(static_cast<std::size_t>(m * m));
    for (int64_t t = 0; t < len; ++t)
        for (int64_t k = 0; k < len; ++k) {
            const double a =
                2 * fft_impl::kPi * static_cast<double>((t * k) % len) / static_cast<double>(len);
            const double c = scale * std::cos(a), sn = scale * s * std::sin(a);
            w[static_cast<std::size_t>(t * m + k)] = c;                // a -> re
            w[static_cast<std::size_t>(t * m + len + k)] = -sn;        // a -> im
            w[static_cast<std::size_t>((len + t) * m + k)] = sn;       // b -> re
            w[static_cast<std::size_t>((len + t) * m + len + k)] = c;  // b -> im
        }
    TensorAny r = fft_impl::last_dim_of(std::move(re), d, len),
              i = fft_impl::last_dim_of(std::move(im), d, len);
    const Device dev = r.device();
    const DType wt = r.dtype();
    TensorAny y =
        fft_impl::apply(cat({std::move(r), std::move(i)}, -1), fft_impl::table(std::move(w), m, m, wt, dev));
    return {fft_impl::restore(narrow(y, -1, 0, len), d, dt),
            fft_impl::restore(narrow(y, -1, len, len), d, dt)};
}

Complex stft(TensorAny x, int64_t n_fft, const StftOptions& o) {
    fft_impl::check_signal(x, "stft", "signal");
    BURN_CHECK_KIND(x.rank() <= 2, shape, "[stft] takes a signal [length] or a batch [batch, length], got ",
                    describe(x));
    BURN_CHECK_KIND(n_fft >= 1, shape, "[stft] n_fft = ", n_fft, " must be >= 1");
    const int64_t hop = o.hop_length > 0 ? o.hop_length : std::max<int64_t>(n_fft / 4, 1);
    const int64_t win = o.win_length > 0 ? o.win_length : n_fft;
    BURN_CHECK_KIND(o.hop_length >= 0 && o.win_length >= 0 && win <= n_fft, shape, "[stft] hop_length ",
                    o.hop_length, " and win_length ", o.win_length,
                    " must be >= 0 with win_length <= n_fft (", n_fft, ")");
    if (o.center) x = pad(std::move(x), Dims{n_fft / 2, n_fft / 2}, o.pad_mode);
    const int64_t len = x.shape()[x.rank() - 1];
    BURN_CHECK_KIND(len >= n_fft, shape, "[stft] the signal (", len, " samples",
                    o.center ? " after centring" : "", ") is shorter than n_fft = ", n_fft);
    TensorAny frames = unfold(std::move(x), -1, n_fft, hop);  // [..., frames, n_fft]
    if (o.window || win < n_fft) {
        Dims ws = frames.shape();  // the window broadcast over the frames: [1, ..., 1, n_fft]
        for (int k = 0; k + 1 < ws.rank(); ++k) ws[k] = 1;
        TensorAny w = fft_impl::frame_window(o.window, win, n_fft, frames.dtype(), frames.device(), "stft");
        frames = mul(std::move(frames), reshape(std::move(w), ws));
    }
    Complex y;
    if (o.onesided) {
        y = rfft(std::move(frames), -1);
    } else {
        TensorAny zeros = full(frames.shape(), 0.0, frames.dtype(), frames.device());
        y = cfft(std::move(frames), std::move(zeros), -1);
    }
    if (o.normalized) {
        const double s = 1.0 / std::sqrt(static_cast<double>(n_fft));
        y = {mul_scalar(std::move(y.first), s), mul_scalar(std::move(y.second), s)};
    }
    return {swap_dims(std::move(y.first), -1, -2), swap_dims(std::move(y.second), -1, -2)};
}

TensorAny istft(TensorAny re, TensorAny im, int64_t n_fft, const IstftOptions& o) {
    fft_impl::check_pair(re, im, "istft");
    BURN_CHECK_KIND(re.rank() == 2 || re.rank() == 3, shape,
                    "[istft] takes a spectrum [bins, frames] or [batch, bins, frames], got ", describe(re));
    BURN_CHECK_KIND(n_fft >= 1, shape, "[istft] n_fft = ", n_fft, " must be >= 1");
    const int64_t hop = o.hop_length > 0 ? o.hop_length : std::max<int64_t>(n_fft / 4, 1);
    const int64_t win = o.win_length > 0 ? o.win_length : n_fft;
    BURN_CHECK_KIND(o.hop_length >= 0 && o.win_length >= 0 && win <= n_fft && o.length >= 0, shape,
                    "[istft] hop_length ", o.hop_length, ", win_length ", o.win_length, " and length ",
                    o.length, " must be >= 0 with win_length <= n_fft (", n_fft, ")");
    const int64_t bins = re.shape()[re.rank() - 2], frames = re.shape()[re.rank() - 1];
    const int64_t want = o.onesided ? n_fft / 2 + 1 : n_fft;
    BURN_CHECK_KIND(bins == want && frames >= 1, shape, "[istft] ", describe(re), " has ", bins, " bins and ",
                    frames, " frames; n_fft = ", n_fft, o.onesided ? " one-sided" : " two-sided", " needs ",
                    want, " bins and at least one frame");
    const DType dt = re.dtype();
    const Device dev = re.device();
    // The window and its squared-window envelope first: a spectrum the window cannot invert fails before
    // any work (torch's NOLA check).
    TensorAny w = fft_impl::frame_window(o.window, win, n_fft, dt, dev, "istft");
    const std::vector<double> wv = into_data(w).convert(DType::f64).to_vec<double>();
    const int64_t total = n_fft + hop * (frames - 1);
    std::vector<int64_t> at(static_cast<std::size_t>(frames * n_fft));
    std::vector<double> envelope(static_cast<std::size_t>(total), 0.0);
    for (int64_t f = 0; f < frames; ++f)
        for (int64_t t = 0; t < n_fft; ++t) {
            at[static_cast<std::size_t>(f * n_fft + t)] = f * hop + t;
            envelope[static_cast<std::size_t>(f * hop + t)] +=
                wv[static_cast<std::size_t>(t)] * wv[static_cast<std::size_t>(t)];
        }
    // The kept samples: past the centring, up to length (zero-padded beyond the frames).
    const int64_t start = o.center ? n_fft / 2 : 0;
    const int64_t end = o.length > 0 ? start + o.length : (o.center ? total - n_fft / 2 : total);
    const int64_t stop = std::min(end, total);
    for (int64_t k = start; k < stop; ++k)
        BURN_CHECK_KIND(
            std::abs(envelope[static_cast<std::size_t>(k)]) > 1e-11, shape,
            "[istft] the squared windows sum to ", envelope[static_cast<std::size_t>(k)], " at sample ",
            k - start, " (n_fft ", n_fft, ", hop_length ", hop, ", win_length ", win,
            "): the signal cannot be recovered there (NOLA); use a smaller hop or another window");
    for (auto& e : envelope) e = std::abs(e) > 1e-11 ? 1.0 / e : 0.0;

    TensorAny r = swap_dims(std::move(re), -1, -2),
              i = swap_dims(std::move(im), -1, -2);  // [.., frames, bins]
    if (o.normalized) {
        const double s = std::sqrt(static_cast<double>(n_fft));
        r = mul_scalar(std::move(r), s);
        i = mul_scalar(std::move(i), s);
    }
    TensorAny y = o.onesided ? irfft(std::move(r), std::move(i), -1, n_fft)
                             : cfft(std::move(r), std::move(i), -1, true).first;  // [.., frames, n_fft]
    Dims ws = y.shape();
    for (int k = 0; k + 1 < ws.rank(); ++k) ws[k] = 1;
    y = mul(std::move(y), reshape(std::move(w), ws));

    // Overlap-add: sample f * hop + t of the signal sums y[.., f, t] (select_assign adds along the last dim).
    Dims flat = y.shape();  // [.., frames * n_fft]
    flat.erase(flat.rank() - 1);
    flat[flat.rank() - 1] = frames * n_fft;
    Dims out_shape = flat;
    out_shape[out_shape.rank() - 1] = total;
    TensorAny sig = select_assign(full(out_shape, 0.0, dt, dev), -1,
                                  from_data(TensorData(std::move(at), Dims{frames * n_fft}), dev),
                                  reshape(std::move(y), flat));
    Dims es = Dims::filled(sig.rank(), 1);  // the envelope broadcast over the batch: [1, total]
    es[es.rank() - 1] = total;
    sig = mul(std::move(sig), from_data(TensorData(std::move(envelope), es).convert(dt), dev));
    sig = narrow(std::move(sig), -1, std::min(start, total), std::max<int64_t>(stop - start, 0));
    if (end > stop) sig = pad(std::move(sig), Dims{0, end - std::max(stop, start)}, PadMode::Constant(0));
    return sig.dtype() == dt ? sig : cast(std::move(sig), dt);
}

}  // namespace burn::ops
