// Op-database entries of the Fourier transforms (burn/tensor/fft.hpp; composites, `ops` = {}): rfft,
// irfft, cfft forward and inverse, stft, each output of a pair its own entry, and istft; and the dft row
// they run on (both signs; `ops` = {dft}), against naive float64 sums over the definition (no table, no
// matmul), with gradcheck. torch's conventions (the centred, reflect-padded frames of stft, irfft
// ignoring the imaginary DC and Nyquist parts) are pinned by tests/fft_torch_test.cpp against torch 1.13's
// own numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "op_db.hpp"
#include "ops/fft_factored.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_fft {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Lane = std::vector<double>;

constexpr double kPi = 3.14159265358979323846;

/// The DFT of the complex lane (re, im) of length n: part 0 real, 1 imaginary; sign -1 forward.
Lane dft(const Lane& re, const Lane& im, int part, double sign, double scale) {
    const std::size_t n = re.size();
    Lane out(n);
    for (std::size_t k = 0; k < n; ++k) {
        double sr = 0, si = 0;
        for (std::size_t t = 0; t < n; ++t) {
            const double a = sign * 2 * kPi * static_cast<double>(t * k) / static_cast<double>(n);
            sr += re[t] * std::cos(a) - im[t] * std::sin(a);
            si += re[t] * std::sin(a) + im[t] * std::cos(a);
        }
        out[k] = scale * (part == 0 ? sr : si);
    }
    return out;
}

/// x cropped or zero-padded to n.
Lane fit(Lane x, int64_t n) {
    x.resize(static_cast<std::size_t>(n), 0.0);
    return x;
}

/// a and b concatenated along dim (the reference's way to hand two lanes to map_lanes).
ref::Host cat_dim(const ref::Host& a, const ref::Host& b, int dim) {
    Dims s = a.shape;
    s[dim] = a.shape[dim] + b.shape[dim];
    ref::Host o = ref::filled(s, 0);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; ++d) outer *= s[d];
    for (int d = dim + 1; d < s.rank(); ++d) inner *= s[d];
    std::size_t w = 0;
    for (int64_t i = 0; i < outer; ++i)
        for (const ref::Host* h : {&a, &b}) {
            const int64_t chunk = h->shape[dim] * inner;
            for (int64_t j = 0; j < chunk; ++j) o.v[w++] = h->v[static_cast<std::size_t>(i * chunk + j)];
        }
    return o;
}

Lane half(const Lane& l, int which) {
    const std::size_t h = l.size() / 2;
    return Lane(l.begin() + static_cast<std::ptrdiff_t>(which * h),
                l.begin() + static_cast<std::ptrdiff_t>((which + 1) * h));
}

/// Half-precision sums of up to 16 products: looser than the default.
Tol fft_tol(DType dt) {
    if (dt == DType::f16) return {1e-2, 3e-2};
    if (dt == DType::bf16) return {3e-2, 1e-1};
    return dt == DType::f32 ? Tol{1e-5, 1e-5} : default_tol(dt);
}

void add_rfft(std::vector<OpEntry>& db, int part) {
    OpEntry e = entry(part == 0 ? "rfft_re" : "rfft_im", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"rfft", dt};
        return std::vector<Sample>{sample(Tag::basic, {g({8})}, {0, 0}),
                                   sample(Tag::basic, {g({2, 5})}, {1, 8}, {}, "padded to 8"),
                                   sample(Tag::basic, {g({3, 2})}, {0, 0}, {}, "odd length"),
                                   sample(Tag::basic, {g({2, 7})}, {-1, 4}, {}, "cropped to 4"),
                                   sample(Tag::scalar, {g({1})}, {0, 0}),
                                   sample(Tag::empty, {g({0, 6})}, {1, 0})};
    };
    e.forward = [part](V in, A a) {
        auto y = ops::rfft(in[0], a.ints[0], a.ints[1]);
        return part == 0 ? y.first : y.second;
    };
    e.reference = [part](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int d = ref::norm_dim(a.ints[0], x.rank());
        const int64_t n = a.ints[1] > 0 ? a.ints[1] : x.shape[d];
        return out(ref::map_lanes(x, d, n / 2 + 1,
                                  [&](const Lane& l) {
                                      Lane y = dft(fit(l, n), Lane(static_cast<std::size_t>(n)), part, -1, 1);
                                      return fit(y, n / 2 + 1);
                                  }),
                   in[0].dtype());
    };
    e.tol = fft_tol;
    e.bad.push_back(
        bad("int input", "[rfft]", [](const Device& d) { ops::rfft(ops::full({4}, 1, DType::i32, d), 0); }));
    e.bad.push_back(bad("dim 2 of rank 2", "[rfft]", [](const Device& d) { ops::rfft(f32({2, 3}, d), 2); }));
    e.bad.push_back(bad("no points", "[rfft]", [](const Device& d) { ops::rfft(f32({2, 0}, d), 1); }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

void add_irfft(std::vector<OpEntry>& db) {
    OpEntry e = entry("irfft", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"irfft", dt};
        return std::vector<Sample>{
            sample(Tag::basic, {g({5}), g({5})}, {0, 8}),
            sample(Tag::basic, {g({2, 4}), g({2, 4})}, {1, 0}, {}, "n = 2 (bins - 1)"),
            sample(Tag::basic, {g({3, 2}), g({3, 2})}, {0, 5}, {}, "odd n"),
            sample(Tag::basic, {g({2, 6}), g({2, 6})}, {-1, 4}, {}, "extra bins ignored"),
            sample(Tag::basic, {g({2, 2}), g({2, 2})}, {1, 7}, {}, "missing bins are 0"),
            sample(Tag::empty, {g({0, 3}), g({0, 3})}, {1, 0})};
    };
    e.forward = [](V in, A a) { return ops::irfft(in[0], in[1], a.ints[0], a.ints[1]); };
    e.reference = [](In in, A a) {
        ref::Host re = ref::host(in[0]), im = ref::host(in[1]);
        const int d = ref::norm_dim(a.ints[0], re.rank());
        const int64_t given = re.shape[d], n = a.ints[1] > 0 ? a.ints[1] : 2 * (given - 1);
        // The Hermitian full spectrum of n bins from the one-sided one, then the inverse DFT's real part.
        return out(ref::map_lanes(cat_dim(re, im, d), d, n,
                                  [&](const Lane& l) {
                                      Lane r = fit(half(l, 0), n / 2 + 1), i = fit(half(l, 1), n / 2 + 1);
                                      i[0] = 0;
                                      if (n % 2 == 0) i[static_cast<std::size_t>(n / 2)] = 0;
                                      Lane fr(static_cast<std::size_t>(n)), fi(static_cast<std::size_t>(n));
                                      for (int64_t k = 0; k < n; ++k) {
                                          const bool low = k <= n / 2;
                                          const auto j = static_cast<std::size_t>(low ? k : n - k);
                                          fr[static_cast<std::size_t>(k)] = r[j];
                                          fi[static_cast<std::size_t>(k)] = low ? i[j] : -i[j];
                                      }
                                      return dft(fr, fi, 0, 1, 1.0 / static_cast<double>(n));
                                  }),
                   in[0].dtype());
    };
    e.tol = fft_tol;
    e.bad.push_back(
        bad("shapes differ", "[irfft]", [](const Device& d) { ops::irfft(f32({3}, d), f32({4}, d), 0); }));
    e.bad.push_back(
        bad("one bin, no n", "[irfft]", [](const Device& d) { ops::irfft(f32({1}, d), f32({1}, d), 0); }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

void add_cfft(std::vector<OpEntry>& db, bool inverse, int part) {
    const std::string base = inverse ? "icfft" : "cfft";
    OpEntry e = entry(base + (part == 0 ? "_re" : "_im"), {}, kFloat);
    e.samples = [base](DType dt) {
        InputGen g{base, dt};
        return std::vector<Sample>{
            sample(Tag::basic, {g({6}), g({6})}, {0}), sample(Tag::basic, {g({2, 5}), g({2, 5})}, {1}),
            sample(Tag::basic, {g({4, 3}), g({4, 3})}, {0}), sample(Tag::scalar, {g({1}), g({1})}, {0})};
    };
    e.forward = [inverse, part](V in, A a) {
        auto y = ops::cfft(in[0], in[1], a.ints[0], inverse);
        return part == 0 ? y.first : y.second;
    };
    e.reference = [inverse, part](In in, A a) {
        ref::Host re = ref::host(in[0]), im = ref::host(in[1]);
        const int d = ref::norm_dim(a.ints[0], re.rank());
        const int64_t n = re.shape[d];
        return out(ref::map_lanes(cat_dim(re, im, d), d, n,
                                  [&](const Lane& l) {
                                      return dft(half(l, 0), half(l, 1), part, inverse ? 1 : -1,
                                                 inverse ? 1.0 / static_cast<double>(n) : 1.0);
                                  }),
                   in[0].dtype());
    };
    e.tol = fft_tol;
    e.bad.push_back(bad("dtypes differ", "[cfft", [](const Device& d) {
        ops::cfft(f32({3}, d), ops::full({3}, 0, DType::f64, d), 0);
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

/// The dft row itself (fft_row.cpp; kissfft on the CPU for float32, cuFFT on CUDA, elsewhere its
/// decomposition): the unscaled DFT of the last dim, both signs, against the naive float64 sums; the
/// gradient is the row's own rule (the DFT of the other sign).
void add_dft_row(std::vector<OpEntry>& db, bool inverse, int part) {
    const std::string base = inverse ? "dft_row_inverse" : "dft_row";
    OpEntry e = entry(base + (part == 0 ? "_re" : "_im"), {OpId::dft}, {DType::f32, DType::f64});
    e.samples = [base](DType dt) {
        InputGen g{base, dt};
        return std::vector<Sample>{sample(Tag::basic, {g({8}), g({8})}),
                                   sample(Tag::basic, {g({2, 5}), g({2, 5})}),
                                   sample(Tag::basic, {g({2, 3, 7}), g({2, 3, 7})}),
                                   sample(Tag::basic, {g({3, 17}), g({3, 17})}, {}, {}, "a prime length"),
                                   sample(Tag::scalar, {g({1}), g({1})}),
                                   sample(Tag::empty, {g({0, 4}), g({0, 4})})};
    };
    e.forward = [inverse, part](V in, A) {
        auto y = ops::fft_impl::dft(in[0], in[1], inverse);
        return part == 0 ? y.first : y.second;
    };
    e.reference = [inverse, part](In in, A) {
        ref::Host re = ref::host(in[0]), im = ref::host(in[1]);
        const int d = re.rank() - 1;
        const int64_t n = re.shape[d];
        return out(ref::map_lanes(cat_dim(re, im, d), d, n,
                                  [&](const Lane& l) {
                                      return dft(half(l, 0), half(l, 1), part, inverse ? 1 : -1, 1.0);
                                  }),
                   in[0].dtype());
    };
    e.tol = [](DType dt) { return dt == DType::f32 ? Tol{2e-5, 2e-5} : default_tol(dt); };
    e.bad.push_back(bad("shapes differ", "[dft]",
                        [](const Device& d) { ops::fft_impl::dft(f32({3}, d), f32({4}, d), false); }));
    e.bad.push_back(bad("a 16-bit float", "[dft]", [](const Device& d) {
        ops::fft_impl::dft(ops::full({3}, 0, DType::f16, d), ops::full({3}, 0, DType::f16, d), false);
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

/// stft's reference: frames of the (reflect- or zero-padded) signal times the centred window, each
/// transformed by the naive DFT. ints: n_fft, hop, win_length, center, onesided, normalized, reflect;
/// inputs: x, and the window when win_length > 0.
ref::Host stft_reference(const ref::Host& x, const std::vector<double>* window, A a, int part) {
    const int64_t n_fft = a.ints[0], hop = a.ints[1], win = a.ints[2] > 0 ? a.ints[2] : n_fft;
    const bool center = a.ints[3] != 0, onesided = a.ints[4] != 0, normalized = a.ints[5] != 0;
    const bool reflect = a.ints[6] != 0;
    const int64_t batch = x.rank() == 2 ? x.shape[0] : 1, len = x.shape[x.rank() - 1];
    const int64_t p = center ? n_fft / 2 : 0, padded = len + 2 * p;
    const int64_t frames = 1 + (padded - n_fft) / hop, bins = onesided ? n_fft / 2 + 1 : n_fft;
    std::vector<double> w(static_cast<std::size_t>(n_fft), 0.0);
    for (int64_t k = 0; k < win; ++k)
        w[static_cast<std::size_t>((n_fft - win) / 2 + k)] =
            window ? (*window)[static_cast<std::size_t>(k)] : 1.0;
    Dims s = x.rank() == 2 ? Dims{batch, bins, frames} : Dims{bins, frames};
    ref::Host o = ref::filled(s, 0);
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t f = 0; f < frames; ++f) {
            Lane re(static_cast<std::size_t>(n_fft)), im(static_cast<std::size_t>(n_fft), 0.0);
            for (int64_t t = 0; t < n_fft; ++t) {
                int64_t i = f * hop + t - p;  // position in the unpadded signal
                if (i < 0) i = reflect ? -i : -1;
                if (i >= len) i = reflect ? 2 * (len - 1) - i : -1;
                const double v = i < 0 ? 0.0 : x.v[static_cast<std::size_t>(b * len + i)];
                re[static_cast<std::size_t>(t)] = v * w[static_cast<std::size_t>(t)];
            }
            Lane y = dft(re, im, part, -1, normalized ? 1.0 / std::sqrt(static_cast<double>(n_fft)) : 1.0);
            for (int64_t k = 0; k < bins; ++k)
                o.v[static_cast<std::size_t>((b * bins + k) * frames + f)] = y[static_cast<std::size_t>(k)];
        }
    return o;
}

void add_stft(std::vector<OpEntry>& db, int part) {
    OpEntry e = entry(part == 0 ? "stft_re" : "stft_im", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"stft", dt};
        // ints: n_fft, hop, win_length (0: no window), center, onesided, normalized, reflect
        return std::vector<Sample>{
            sample(Tag::basic, {g({20})}, {8, 2, 0, 1, 1, 0, 1}, {}, "centred, reflect, no window"),
            sample(Tag::basic, {g({2, 17}), g({6})}, {8, 3, 6, 1, 1, 1, 1}, {},
                   "batch, window 6 of 8, normalized"),
            sample(Tag::basic, {g({12})}, {4, 4, 0, 0, 0, 0, 0}, {}, "not centred, two-sided"),
            sample(Tag::basic, {g({10}), g({5})}, {5, 1, 5, 1, 1, 0, 0}, {}, "odd n_fft, zero padding")};
    };
    e.forward = [part](V in, A a) {
        ops::StftOptions o;
        o.hop_length = a.ints[1];
        o.win_length = a.ints[2];
        if (in.size() > 1) o.window = in[1];
        o.center = a.ints[3] != 0;
        o.onesided = a.ints[4] != 0;
        o.normalized = a.ints[5] != 0;
        o.pad_mode = a.ints[6] != 0 ? PadMode::Reflect() : PadMode::Constant(0);
        auto y = ops::stft(in[0], a.ints[0], o);
        return part == 0 ? y.first : y.second;
    };
    e.reference = [part](In in, A a) {
        ref::Host x = ref::host(in[0]);
        std::vector<double> w;
        if (in.size() > 1) w = ref::host(in[1]).v;
        return out(stft_reference(x, in.size() > 1 ? &w : nullptr, a, part), in[0].dtype());
    };
    e.tol = fft_tol;
    e.bad.push_back(bad("rank 3", "[stft]", [](const Device& d) { ops::stft(f32({1, 2, 16}, d), 4); }));
    e.bad.push_back(bad("shorter than n_fft", "[stft]", [](const Device& d) {
        ops::StftOptions o;
        o.center = false;
        ops::stft(f32({3}, d), 4, o);
    }));
    e.bad.push_back(bad("window of the wrong length", "[stft]", [](const Device& d) {
        ops::StftOptions o;
        o.window = f32({5}, d);
        ops::stft(f32({16}, d), 8, o);
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

/// istft's reference: each frame's inverse DFT (one-sided: the Hermitian extension, imaginary DC and
/// Nyquist parts dropped; two-sided: the real part), times the centred window, overlap-added and divided
/// by the summed squared window, then cut past the centring and to length. ints: n_fft, hop, win_length,
/// center, onesided, normalized, length; inputs: re, im, and the window when win_length > 0.
ref::Host istft_reference(const ref::Host& re, const ref::Host& im, const std::vector<double>* window, A a) {
    const int64_t n_fft = a.ints[0], hop = a.ints[1], win = a.ints[2] > 0 ? a.ints[2] : n_fft;
    const bool center = a.ints[3] != 0, onesided = a.ints[4] != 0, normalized = a.ints[5] != 0;
    const int64_t length = a.ints[6];
    const int r = re.rank();
    const int64_t batch = r == 3 ? re.shape[0] : 1, bins = re.shape[r - 2], frames = re.shape[r - 1];
    std::vector<double> w(static_cast<std::size_t>(n_fft), 0.0);
    for (int64_t k = 0; k < win; ++k)
        w[static_cast<std::size_t>((n_fft - win) / 2 + k)] =
            window ? (*window)[static_cast<std::size_t>(k)] : 1.0;
    const int64_t total = n_fft + hop * (frames - 1), start = center ? n_fft / 2 : 0;
    const int64_t end = length > 0 ? start + length : total - start;
    const double scale = normalized ? std::sqrt(static_cast<double>(n_fft)) : 1.0;
    Dims s = r == 3 ? Dims{batch, end - start} : Dims{end - start};
    ref::Host o = ref::filled(s, 0);
    for (int64_t b = 0; b < batch; ++b) {
        Lane sum(static_cast<std::size_t>(total), 0.0), env(static_cast<std::size_t>(total), 0.0);
        for (int64_t f = 0; f < frames; ++f) {
            Lane fr(static_cast<std::size_t>(n_fft)), fi(static_cast<std::size_t>(n_fft));
            for (int64_t k = 0; k < n_fft; ++k) {
                int64_t src = k;
                double sign = 1;
                if (onesided && k >= bins) src = n_fft - k, sign = -1;  // X[n - k] = conj(X[k])
                const bool edge = onesided && (src == 0 || 2 * src == n_fft);
                const std::size_t at = static_cast<std::size_t>((b * bins + src) * frames + f);
                fr[static_cast<std::size_t>(k)] = scale * re.v[at];
                fi[static_cast<std::size_t>(k)] = edge ? 0.0 : sign * scale * im.v[at];
            }
            Lane y = dft(fr, fi, 0, 1, 1.0 / static_cast<double>(n_fft));
            for (int64_t t = 0; t < n_fft; ++t) {
                const double wt = w[static_cast<std::size_t>(t)];
                sum[static_cast<std::size_t>(f * hop + t)] += y[static_cast<std::size_t>(t)] * wt;
                env[static_cast<std::size_t>(f * hop + t)] += wt * wt;
            }
        }
        for (int64_t i = start; i < end; ++i)
            o.v[static_cast<std::size_t>(b * (end - start) + i - start)] =
                i < total ? sum[static_cast<std::size_t>(i)] / env[static_cast<std::size_t>(i)] : 0.0;
    }
    return o;
}

void add_istft(std::vector<OpEntry>& db) {
    OpEntry e = entry("istft", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"istft", dt};
        // ints: n_fft, hop, win_length (0: no window), center, onesided, normalized, length (0: all)
        return std::vector<Sample>{
            sample(Tag::basic, {g({5, 6}), g({5, 6})}, {8, 2, 0, 1, 1, 0, 0}, {}, "centred, no window"),
            sample(Tag::basic, {g({2, 5, 4}), g({2, 5, 4}), g({6}, Domain::nonzero)}, {8, 3, 6, 1, 1, 1, 11},
                   {}, "batch, window 6 of 8, normalized, length"),
            sample(Tag::basic, {g({4, 3}), g({4, 3})}, {4, 2, 0, 0, 0, 0, 0}, {}, "not centred, two-sided"),
            sample(Tag::basic, {g({3, 4}), g({3, 4}), g({5}, Domain::nonzero)}, {5, 2, 5, 1, 1, 0, 11}, {},
                   "odd n_fft, zero-padded past the frames")};
    };
    e.forward = [](V in, A a) {
        ops::IstftOptions o;
        o.hop_length = a.ints[1];
        o.win_length = a.ints[2];
        if (in.size() > 2) o.window = in[2];
        o.center = a.ints[3] != 0;
        o.onesided = a.ints[4] != 0;
        o.normalized = a.ints[5] != 0;
        o.length = a.ints[6];
        return ops::istft(in[0], in[1], a.ints[0], o);
    };
    e.reference = [](In in, A a) {
        std::vector<double> w;
        if (in.size() > 2) w = ref::host(in[2]).v;
        return out(istft_reference(ref::host(in[0]), ref::host(in[1]), in.size() > 2 ? &w : nullptr, a),
                   in[0].dtype());
    };
    e.tol = fft_tol;
    e.bad.push_back(bad("wrong number of bins", "[istft]", [](const Device& d) {
        ops::istft(f32({4, 3}, d), f32({4, 3}, d), 8);
    }));
    e.bad.push_back(bad("parts differ", "[istft", [](const Device& d) {
        ops::istft(f32({5, 3}, d), f32({5, 2}, d), 8);
    }));
    e.bad.push_back(bad("windows sum to zero (NOLA)", "[istft]", [](const Device& d) {
        ops::IstftOptions o;
        o.hop_length = 8;
        o.win_length = 4;  // a window of 4 in frames of 8, 8 apart: samples between the windows are lost
        ops::istft(f32({5, 3}, d), f32({5, 3}, d), 8, o);
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

}  // namespace api_fft

void add_api_fft_entries(std::vector<OpEntry>& db) {
    using namespace api_fft;
    for (int part : {0, 1}) {
        add_rfft(db, part);
        add_cfft(db, false, part);
        add_cfft(db, true, part);
        add_stft(db, part);
        add_dft_row(db, false, part);
        add_dft_row(db, true, part);
    }
    add_irfft(db);
    add_istft(db);
}

}  // namespace burn::opdb
