// The complex DFT of long rows (fft_factored.hpp). Direct: one matmul of [re | im] with a [2n, 2n] table,
// 4 n^2 multiply-adds per row and a table of 16 n^2 bytes (f32), which stops paying past about a thousand
// points. Longer rows, n = n1 * n2 with n1 the largest divisor <= sqrt(n) (Cooley-Tukey's four-step form):
//
//   X[k1 + n1 k2] = sum_j2 W_n2^(j2 k2) W_n^(j2 k1) sum_j1 W_n1^(j1 k1) x[n2 j1 + j2],   W_m = e^(-+2 pi i /
//   m)
//
// so the row becomes [n1, n2], n2 DFTs of n1 points, a twiddle product, n1 DFTs of n2 points and a
// transpose, each DFT split again until it is short: O(n (n1 + n2)) per level, O(n log n) overall for
// smooth n, and more accurate in float32 than the direct sums (each output sums far fewer products). A
// prime n goes through Bluestein's chirp-z: X_k = c_k sum_j (x_j c_j) conj(c)_(k - j) with c_j =
// e^(-+pi i j^2 / n), a circular convolution of a power-of-two length M >= 2n - 1 computed with three
// split DFTs. Twiddles and chirps are computed on the host in float64 from exact integer angles.
#include "ops/fft_factored.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/common.hpp"

namespace burn::ops::fft_impl {

namespace {

constexpr double kTau = 6.28318530717958647692;

/// A complex table: cos and sin of angle(i) for i < count, shaped `shape`, in dtype on device.
template <class Angle>
std::pair<TensorAny, TensorAny> phase_table(const Dims& shape, Angle&& angle, DType dtype,
                                            const Device& device) {
    const int64_t count = shape.numel();
    std::vector<double> c(static_cast<std::size_t>(count)), s(static_cast<std::size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        const double a = angle(i);
        c[static_cast<std::size_t>(i)] = std::cos(a);
        s[static_cast<std::size_t>(i)] = std::sin(a);
    }
    return {from_data(TensorData(std::move(c), shape).convert(dtype), device),
            from_data(TensorData(std::move(s), shape).convert(dtype), device)};
}

/// t with leading dims of size 1 up to rank r (broadcasting needs equal ranks).
TensorAny lift(const TensorAny& t, int r) {
    if (t.rank() == r) return t;
    Dims s = Dims::filled(r - t.rank(), 1);
    for (int64_t v : t.shape()) s.push_back(v);
    return reshape(t, s);
}

/// (a + ib)(c + id), the second factor broadcast over a's leading dims.
std::pair<TensorAny, TensorAny> cmul(const TensorAny& a, const TensorAny& b, const TensorAny& c0,
                                     const TensorAny& d0) {
    const TensorAny c = lift(c0, a.rank()), d = lift(d0, a.rank());
    return {sub(mul(a, c), mul(b, d)), add(mul(a, d), mul(b, c))};
}

/// The direct DFT: [re | im] [[C, -sS], [sS, C]] with S = sin(2 pi t k / n), s = 1 forward, -1 inverse.
std::pair<TensorAny, TensorAny> direct(const TensorAny& re, const TensorAny& im, bool inverse) {
    const int64_t n = re.shape()[re.rank() - 1], m = 2 * n;
    const double s = inverse ? -1.0 : 1.0;
    std::vector<double> w(static_cast<std::size_t>(m * m));
    for (int64_t t = 0; t < n; ++t)
        for (int64_t k = 0; k < n; ++k) {
            const double a = kTau * static_cast<double>((t * k) % n) / static_cast<double>(n);
            const double c = std::cos(a), sn = s * std::sin(a);
            w[static_cast<std::size_t>(t * m + k)] = c;
            w[static_cast<std::size_t>(t * m + n + k)] = -sn;
            w[static_cast<std::size_t>((n + t) * m + k)] = sn;
            w[static_cast<std::size_t>((n + t) * m + n + k)] = c;
        }
    const TensorAny table = from_data(TensorData(std::move(w), Dims{m, m}).convert(re.dtype()), re.device());
    Dims lead = re.shape();
    const int64_t rows = n == 0 ? 0 : re.numel() / n;
    TensorAny y = matmul(reshape(cat({re, im}, -1), Dims{rows, m}), table);
    lead[lead.rank() - 1] = m;
    y = reshape(std::move(y), lead);
    return {narrow(y, -1, 0, n), narrow(y, -1, n, n)};
}

/// The largest divisor of n that is at most sqrt(n) (1 for a prime).
int64_t split_factor(int64_t n) {
    int64_t best = 1;
    for (int64_t f = 2; f * f <= n; ++f)
        if (n % f == 0) best = f;
    return best;
}

/// x [..., n] as [..., a, b] with the last two dims swapped: [..., b, a].
TensorAny split_t(const TensorAny& x, int64_t a, int64_t b) {
    Dims s = x.shape();
    s[s.rank() - 1] = a;
    s.push_back(b);
    return swap_dims(reshape(x, s), -1, -2);
}

/// x [..., a, b] transposed and flattened: [..., b * a].
TensorAny join_t(const TensorAny& x) {
    Dims s = x.shape();
    const int64_t a = s[s.rank() - 2], b = s[s.rank() - 1];
    s.erase(s.rank() - 1);
    s[s.rank() - 1] = a * b;
    return reshape(swap_dims(x, -1, -2), s);
}

std::pair<TensorAny, TensorAny> four_step(const TensorAny& re, const TensorAny& im, int64_t n1, bool inverse,
                                          int64_t direct_max) {
    const int64_t n = re.shape()[re.rank() - 1], n2 = n / n1;
    const double s = inverse ? 1.0 : -1.0;
    // [.., n2 (j2), n1 (j1)] -> DFTs over j1: [.., n2 (j2), n1 (k1)]
    auto [ar, ai] = dft_rows(split_t(re, n1, n2), split_t(im, n1, n2), inverse, direct_max);
    // twiddles W_n^(j2 k1)
    const auto [tc, ts] = phase_table(
        Dims{n2, n1},
        [&](int64_t i) {
            return s * kTau * static_cast<double>((i / n1) * (i % n1)) / static_cast<double>(n);
        },
        re.dtype(), re.device());
    auto [br, bi] = cmul(ar, ai, tc, ts);
    // [.., n1 (k1), n2 (j2)] -> DFTs over j2: [.., n1 (k1), n2 (k2)]; k = k1 + n1 k2
    auto [cr, ci] = dft_rows(swap_dims(br, -1, -2), swap_dims(bi, -1, -2), inverse, direct_max);
    return {join_t(cr), join_t(ci)};
}

std::pair<TensorAny, TensorAny> bluestein(const TensorAny& re, const TensorAny& im, bool inverse,
                                          int64_t direct_max) {
    const int64_t n = re.shape()[re.rank() - 1];
    int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    const double s = inverse ? 1.0 : -1.0;
    const DType dt = re.dtype();
    const Device dev = re.device();
    // the chirp c_j = e^(s pi i j^2 / n), j^2 taken mod 2n (exact angles)
    auto chirp = [&](int64_t j) {
        return s * kTau / 2 * static_cast<double>((j * j) % (2 * n)) / static_cast<double>(n);
    };
    const auto [cc, cs] = phase_table(Dims{n}, chirp, dt, dev);
    auto [ar, ai] = cmul(re, im, cc, cs);
    ar = pad(std::move(ar), Dims{0, m - n}, PadMode::Constant(0));
    ai = pad(std::move(ai), Dims{0, m - n}, PadMode::Constant(0));
    // b = conj(c) at offsets 0..n-1 and M-n+1..M-1 (the negative ones), its DFT a constant of the length
    const auto [bc, bs] = phase_table(
        Dims{1, m},
        [&](int64_t i) {
            const int64_t j = i < n ? i : (i > m - n ? m - i : -1);
            return j < 0 ? 0.0 : -chirp(j);
        },
        dt, dev);
    std::vector<double> keep(static_cast<std::size_t>(m), 0.0);
    for (int64_t i = 0; i < m; ++i) keep[static_cast<std::size_t>(i)] = i < n || i > m - n ? 1.0 : 0.0;
    const TensorAny mask = from_data(TensorData(std::move(keep), Dims{1, m}).convert(dt), dev);  // b's taps
    auto [fbr, fbi] = dft_rows(mul(bc, mask), mul(bs, mask), false, direct_max);
    auto [far, fai] = dft_rows(ar, ai, false, direct_max);
    auto [pr, pi] = cmul(far, fai, reshape(fbr, Dims{m}), reshape(fbi, Dims{m}));
    auto [vr, vi] = dft_rows(pr, pi, true, direct_max);
    const double scale = 1.0 / static_cast<double>(m);
    vr = mul_scalar(narrow(vr, -1, 0, n), scale);
    vi = mul_scalar(narrow(vi, -1, 0, n), scale);
    return cmul(vr, vi, cc, cs);
}

}  // namespace

std::pair<TensorAny, TensorAny> dft_rows(TensorAny re, TensorAny im, bool inverse, int64_t direct_max) {
    const int64_t n = re.shape()[re.rank() - 1];
    if (n <= std::max<int64_t>(direct_max, 2)) return direct(re, im, inverse);
    const int64_t n1 = split_factor(n);
    if (n1 == 1) return bluestein(re, im, inverse, direct_max);
    return four_step(re, im, n1, inverse, direct_max);
}

}  // namespace burn::ops::fft_impl
