// The factored DFT for long signals (src/ops/fft_factored.cpp): the four-step split and Bluestein's
// chirp-z against naive float64 sums, forced on short rows (a small direct_max) and through the public
// transforms on signals past kDirectMax; its gradients against the direct matmul's.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/fft_factored.hpp"

namespace burn::fft_long_test {  // named: unity builds merge anonymous namespaces

constexpr double kTau = 6.28318530717958647692;

std::vector<double> random_values(int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = d(rng);
    return v;
}

/// The naive DFT of rows [rows, n] (sign -1 forward, +1 inverse), unscaled, in float64.
void naive_dft(const std::vector<double>& re, const std::vector<double>& im, int64_t rows, int64_t n,
               bool inverse, std::vector<double>& out_re, std::vector<double>& out_im) {
    out_re.assign(re.size(), 0.0);
    out_im.assign(re.size(), 0.0);
    const double s = inverse ? 1.0 : -1.0;
    std::vector<double> cs(static_cast<std::size_t>(n)), sn(static_cast<std::size_t>(n));
    for (int64_t t = 0; t < n; ++t) {
        cs[static_cast<std::size_t>(t)] =
            std::cos(s * kTau * static_cast<double>(t) / static_cast<double>(n));
        sn[static_cast<std::size_t>(t)] =
            std::sin(s * kTau * static_cast<double>(t) / static_cast<double>(n));
    }
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < n; ++k) {
            double ar = 0, ai = 0;
            for (int64_t j = 0, t = 0; j < n; ++j, t = (t + k) % n) {  // t = j k mod n
                const double xr = re[static_cast<std::size_t>(r * n + j)],
                             xi = im[static_cast<std::size_t>(r * n + j)];
                const double c = cs[static_cast<std::size_t>(t)], si = sn[static_cast<std::size_t>(t)];
                ar += xr * c - xi * si;
                ai += xr * si + xi * c;
            }
            out_re[static_cast<std::size_t>(r * n + k)] = ar;
            out_im[static_cast<std::size_t>(r * n + k)] = ai;
        }
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(ops::cast(t, DType::f64)).to_vec<double>();
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    double scale = 1;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * scale) << what << " at " << i;
}

TEST(FftLong, SplitAndChirpMatchNaiveSumsOnShortRows) {
    // direct_max 2 or 4 forces the factored paths: 12 = 3 x 4, 30 = 5 x 6, 64 (powers of two), 7, 13 and 97
    // (primes: Bluestein), 14 = 2 x 7 and 3 * 13 (a split down to a prime)
    const int64_t rows = 3;
    for (const DType dt : {DType::f64, DType::f32})
        for (const int64_t n : {12, 30, 64, 7, 13, 97, 14, 39})
            for (const bool inverse : {false, true})
                for (const int64_t dmax : {2, 4}) {
                    const auto re = random_values(rows * n, static_cast<uint32_t>(n)),
                               im = random_values(rows * n, static_cast<uint32_t>(n + 1000));
                    std::vector<double> wr, wi;
                    naive_dft(re, im, rows, n, inverse, wr, wi);
                    const TensorAny r = ops::cast(
                                        ops::from_data(TensorData(re, Dims{rows, n}), Device::cpu()), dt),
                                    i = ops::cast(
                                        ops::from_data(TensorData(im, Dims{rows, n}), Device::cpu()), dt);
                    const auto [yr, yi] = ops::fft_impl::dft_rows(r, i, inverse, dmax);
                    const std::string what = std::string(name(dt)) + " n " + std::to_string(n) +
                                             (inverse ? " inverse" : " forward") + " direct_max " +
                                             std::to_string(dmax);
                    EXPECT_EQ(yr.shape(), (Dims{rows, n})) << what;
                    const double tol = dt == DType::f64 ? 1e-10 : 2e-5;
                    expect_close(values(yr), wr, tol, what + " re");
                    expect_close(values(yi), wi, tol, what + " im");
                }
}

TEST(FftLong, PublicTransformsOfLongSignals) {
    // past kDirectMax (1024): 1536 = 2^9 3 (a split), 1031 (prime: Bluestein)
    for (const int64_t n : {1536, 1031}) {
        const auto re = random_values(2 * n, 7), im = random_values(2 * n, 8);
        std::vector<double> wr, wi;
        naive_dft(re, im, 2, n, false, wr, wi);
        const TensorAny r = ops::from_data(TensorData(re, Dims{2, n}).convert(DType::f32), Device::cpu()),
                        i = ops::from_data(TensorData(im, Dims{2, n}).convert(DType::f32), Device::cpu());
        const auto [yr, yi] = ops::cfft(r, i, -1);
        expect_close(values(yr), wr, 1e-5, "cfft " + std::to_string(n));
        expect_close(values(yi), wi, 1e-5, "cfft " + std::to_string(n));
        // the inverse (scaled by 1 / n) brings the signal back
        const auto [br, bi] = ops::cfft(yr, yi, -1, true);
        expect_close(values(br), re, 1e-5, "ifft " + std::to_string(n));
        expect_close(values(bi), im, 1e-5, "ifft " + std::to_string(n));
        // rfft: the first n / 2 + 1 bins of the DFT of (x, 0), along dim 0 here
        std::vector<double> zr, zi;
        naive_dft(re, std::vector<double>(re.size(), 0.0), 2, n, false, zr, zi);
        const auto [fr, fi] = ops::rfft(ops::swap_dims(r, 0, 1), 0);
        const int64_t bins = n / 2 + 1;
        ASSERT_EQ(fr.shape(), (Dims{bins, 2}));
        const auto gr = values(ops::swap_dims(fr, 0, 1)), gi = values(ops::swap_dims(fi, 0, 1));
        std::vector<double> want_r, want_i;
        for (int64_t row = 0; row < 2; ++row)
            for (int64_t k = 0; k < bins; ++k) {
                want_r.push_back(zr[static_cast<std::size_t>(row * n + k)]);
                want_i.push_back(zi[static_cast<std::size_t>(row * n + k)]);
            }
        expect_close(gr, want_r, 1e-5, "rfft " + std::to_string(n));
        expect_close(gi, want_i, 1e-5, "rfft " + std::to_string(n));
    }
    // irfft(rfft(x), n) = x for an even and an odd long length
    for (const int64_t n : {5000, 2049}) {
        const auto x = random_values(n, 9);
        const TensorAny t = ops::from_data(TensorData(x, Dims{n}).convert(DType::f32), Device::cpu());
        const auto [r, i] = ops::rfft(t, 0);
        expect_close(values(ops::irfft(r, i, 0, n)), x, 1e-5, "irfft(rfft) " + std::to_string(n));
    }
}

TEST(FftLong, GradientsEqualTheDirectTransforms) {
    // the factored path differentiates through its matmuls and products: the gradients of a weighted sum
    // of its outputs equal the direct matmul's (which the op database gradchecks)
    for (const int64_t n : {12, 13}) {
        const Device dev = Device::cpu().autodiff();
        const auto re = random_values(2 * n, 21), im = random_values(2 * n, 22), w = random_values(2 * n, 23);
        auto grads_of = [&](int64_t dmax) {
            TensorAny r = ops::require_grad(ops::from_data(TensorData(re, Dims{2, n}), dev)),
                      i = ops::require_grad(ops::from_data(TensorData(im, Dims{2, n}), dev));
            const TensorAny weights = ops::from_data(TensorData(w, Dims{2, n}), dev);
            const auto [yr, yi] = ops::fft_impl::dft_rows(r, i, false, dmax);
            const TensorAny loss =
                ops::sum(ops::add(ops::mul(yr, weights), ops::mul(ops::mul(yi, yi), weights)));
            const Gradients g = ops::backward(loss);
            return std::make_pair(values(*ops::grad(r, g)), values(*ops::grad(i, g)));
        };
        const auto factored = grads_of(2), direct = grads_of(1024);
        expect_close(factored.first, direct.first, 1e-10, "d re, n " + std::to_string(n));
        expect_close(factored.second, direct.second, 1e-10, "d im, n " + std::to_string(n));
    }
}

}  // namespace burn::fft_long_test
