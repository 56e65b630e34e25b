// The dft row's CPU kernel (kissfft, src/backends/cpu/fft_kiss.cpp) against the row's decomposition (the
// composed DFT of fft_factored.cpp: in float64 as the reference, and in float32) and against naive
// float64 sums, over short, smooth, prime and long lengths (kissfft's own radices, its generic butterfly,
// the kernel's Bluestein), both signs; the inverse round trips of cfft and rfft/irfft; and the row's
// gradient rule against the naive adjoint. Skips where the CPU has no kernel for the row (a build without
// kissfft, or BURN_CPU_KISSFFT=0): the row then is its decomposition, which fft_long_test.cpp checks.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/fft_factored.hpp"

namespace burn::fft_native_test {  // named: unity builds merge anonymous namespaces

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
                const auto at = static_cast<std::size_t>(r * n + j);
                const double c = cs[static_cast<std::size_t>(t)], si = sn[static_cast<std::size_t>(t)];
                ar += re[at] * c - im[at] * si;
                ai += re[at] * si + im[at] * c;
            }
            out_re[static_cast<std::size_t>(r * n + k)] = ar;
            out_im[static_cast<std::size_t>(r * n + k)] = ai;
        }
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(ops::cast(t, DType::f64)).to_vec<double>();
}

/// |got - want| <= tol * max |want| (at least 1) everywhere.
void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    double scale = 1;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * scale) << what << " at " << i;
}

TensorAny on_cpu(const std::vector<double>& v, const Dims& shape, DType dt) {
    return ops::from_data(TensorData(v, shape).convert(dt), Device::cpu());
}

bool cpu_has_kernel() {
    return ops::fft_impl::has_native_dft(Device::cpu(), DType::f32, 16);
}

/// The row's decomposition as dispatch runs it (direct up to kDirectMax points, factored beyond).
std::pair<TensorAny, TensorAny> composed(const TensorAny& re, const TensorAny& im, bool inverse) {
    const int64_t n = re.shape()[re.rank() - 1];
    return ops::fft_impl::dft_rows(
        re, im, inverse,
        n <= ops::fft_impl::kDirectMax ? ops::fft_impl::kDirectMax : ops::fft_impl::kSplitDirect);
}

TEST(FftNative, KissMatchesTheDecompositionAndNaiveSums) {
    if (!cpu_has_kernel()) GTEST_SKIP() << "the CPU has no dft kernel (built without kissfft)";
    // kissfft's radices (16, 1000, 1024, 4096, 2^18), its generic butterfly (7, 17), the kernel's
    // Bluestein (the primes 1031, 4099, 65537) and the trivial lengths 1, 2, 3, 5
    for (const int64_t n : {1, 2, 3, 5, 7, 13, 16, 17, 97, 1000, 1024, 1031, 4096, 4099, 65537, 1 << 18}) {
        const int64_t rows = n >= 65536 ? 2 : 3;
        const auto re = random_values(rows * n, static_cast<uint32_t>(n)),
                   im = random_values(rows * n, static_cast<uint32_t>(n + 7));
        const Dims shape{rows, n};
        for (const bool inverse : {false, true}) {
            const std::string what = "n " + std::to_string(n) + (inverse ? " inverse" : " forward");
            const auto [kr, ki] =
                ops::fft_impl::dft(on_cpu(re, shape, DType::f32), on_cpu(im, shape, DType::f32), inverse);
            ASSERT_EQ(kr.shape(), shape) << what;
            ASSERT_EQ(kr.dtype(), DType::f32) << what;
            const auto [wr, wi] =
                composed(on_cpu(re, shape, DType::f64), on_cpu(im, shape, DType::f64), inverse);
            const std::vector<double> want_r = values(wr), want_i = values(wi);
            expect_close(values(kr), want_r, 2e-6 * std::log2(2.0 * static_cast<double>(n)), what + " re");
            expect_close(values(ki), want_i, 2e-6 * std::log2(2.0 * static_cast<double>(n)), what + " im");
            // the float32 decomposition agrees too (the reference of the transforms without a kernel)
            const auto [cr, ci] =
                composed(on_cpu(re, shape, DType::f32), on_cpu(im, shape, DType::f32), inverse);
            expect_close(values(kr), values(cr), 5e-5, what + " re, f32 composed");
            expect_close(values(ki), values(ci), 5e-5, what + " im, f32 composed");
            if (n > 5000) continue;  // the naive sums are O(n^2)
            std::vector<double> nr, ni;
            naive_dft(re, im, rows, n, inverse, nr, ni);
            expect_close(want_r, nr, 1e-11, what + " re, f64 composed against naive");
            expect_close(values(kr), nr, 2e-6 * std::log2(2.0 * static_cast<double>(n)), what + " re, naive");
            expect_close(values(ki), ni, 2e-6 * std::log2(2.0 * static_cast<double>(n)), what + " im, naive");
        }
    }
}

TEST(FftNative, InverseRoundTrips) {
    if (!cpu_has_kernel()) GTEST_SKIP() << "the CPU has no dft kernel (built without kissfft)";
    for (const int64_t n : {1, 7, 16, 1000, 1031, 4096, 1 << 18}) {
        const auto re = random_values(2 * n, 31), im = random_values(2 * n, 32);
        const TensorAny r = on_cpu(re, Dims{2, n}, DType::f32), i = on_cpu(im, Dims{2, n}, DType::f32);
        const auto [fr, fi] = ops::cfft(r, i, -1);
        const auto [br, bi] = ops::cfft(fr, fi, -1, true);
        expect_close(values(br), re, 2e-6 * std::log2(2.0 * static_cast<double>(n)),
                     "cfft " + std::to_string(n));
        expect_close(values(bi), im, 2e-6 * std::log2(2.0 * static_cast<double>(n)),
                     "cfft " + std::to_string(n));
        // rfft / irfft, the odd length n + 1 too
        for (const int64_t len : {n, n + 1}) {
            const auto x = random_values(2 * len, 33);
            const auto [sr, si] = ops::rfft(on_cpu(x, Dims{2, len}, DType::f32), -1);
            EXPECT_EQ(sr.shape(), (Dims{2, len / 2 + 1}));
            expect_close(values(ops::irfft(sr, si, -1, len)), x,
                         2e-6 * std::log2(4.0 * static_cast<double>(len)),
                         "irfft(rfft) " + std::to_string(len));
        }
    }
}

TEST(FftNative, GradientIsTheAdjointTransform) {
    if (!cpu_has_kernel()) GTEST_SKIP() << "the CPU has no dft kernel (built without kissfft)";
    // loss = sum(y_re w_re + y_im w_im): x's gradient (re + i im) is conj(F) w, the DFT of the other
    // sign, unscaled; the row's rule in float32 (the kernel) and float64 (its decomposition inside it)
    for (const DType dt : {DType::f32, DType::f64})
        for (const int64_t n : {5, 16, 1031})
            for (const bool inverse : {false, true}) {
                const Device dev = Device::cpu().autodiff();
                const auto re = random_values(2 * n, 41), im = random_values(2 * n, 42),
                           wr = random_values(2 * n, 43), wi = random_values(2 * n, 44);
                TensorAny r = ops::require_grad(ops::from_data(TensorData(re, Dims{2, n}).convert(dt), dev)),
                          i = ops::require_grad(ops::from_data(TensorData(im, Dims{2, n}).convert(dt), dev));
                const auto [yr, yi] = ops::fft_impl::dft(r, i, inverse);
                const TensorAny loss = ops::add(
                    ops::sum(ops::mul(yr, ops::from_data(TensorData(wr, Dims{2, n}).convert(dt), dev))),
                    ops::sum(ops::mul(yi, ops::from_data(TensorData(wi, Dims{2, n}).convert(dt), dev))));
                const Gradients g = ops::backward(loss);
                std::vector<double> want_r, want_i;
                naive_dft(wr, wi, 2, n, !inverse, want_r, want_i);
                const std::string what =
                    std::string(name(dt)) + " n " + std::to_string(n) + (inverse ? " inverse" : " forward");
                const double tol = dt == DType::f32 ? 3e-5 : 1e-10;
                expect_close(values(*ops::grad(r, g)), want_r, tol, what + " d re");
                expect_close(values(*ops::grad(i, g)), want_i, tol, what + " d im");
            }
}

}  // namespace burn::fft_native_test
