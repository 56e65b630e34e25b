// The dft row on CUDA (cuFFT, src/backends/cuda/fft_cufft.cpp) against the CPU (kissfft for float32, the
// composed DFT for float64), both signs, smooth, prime and long lengths, a strided input; the public
// transforms and a gradient through the row's rule. Without a GPU (or without BURN_CUDA) the tests skip
// with the reason.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cuda_test_util.hpp"
#include "ops/fft_factored.hpp"

namespace burn::cuda_fft_test {  // named: unity builds merge anonymous namespaces

std::vector<double> random_values(int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = d(rng);
    return v;
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(ops::cast(ops::to_device(t, Device::cpu()), DType::f64)).to_vec<double>();
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    double scale = 1;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * scale) << what << " at " << i;
}

TEST(CudaFft, DftMatchesTheCpu) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device gpu = Device::cuda(0), cpu = Device::cpu();
    EXPECT_TRUE(ops::fft_impl::has_native_dft(gpu, DType::f32, 16));
    for (const DType dt : {DType::f32, DType::f64})
        for (const int64_t n : {1, 2, 7, 16, 17, 1000, 1031, 4096, 65537, 1 << 18}) {
            const int64_t rows = 3;
            const auto re = random_values(rows * n, static_cast<uint32_t>(n)),
                       im = random_values(rows * n, static_cast<uint32_t>(n + 3));
            const TensorData dr = TensorData(re, Dims{rows, n}).convert(dt),
                             di = TensorData(im, Dims{rows, n}).convert(dt);
            for (const bool inverse : {false, true}) {
                const std::string what =
                    std::string(name(dt)) + " n " + std::to_string(n) + (inverse ? " inverse" : " forward");
                const auto [gr, gi] =
                    ops::fft_impl::dft(ops::from_data(dr, gpu), ops::from_data(di, gpu), inverse);
                const auto [cr, ci] =
                    ops::fft_impl::dft(ops::from_data(dr, cpu), ops::from_data(di, cpu), inverse);
                ASSERT_EQ(gr.device(), gpu) << what;
                const double tol = dt == DType::f32 ? 2e-6 * std::log2(2.0 * static_cast<double>(n)) : 1e-10;
                expect_close(values(gr), values(cr), tol, what + " re");
                expect_close(values(gi), values(ci), tol, what + " im");
            }
        }
}

TEST(CudaFft, TransformsStridedInputsAndGradients) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device gpu = Device::cuda(0), cpu = Device::cpu();
    // rfft along dim 0 of a [n, 3] signal (a strided row view), irfft back, cfft's inverse
    const int64_t n = 4100;
    const TensorData x = TensorData(random_values(n * 3, 5), Dims{n, 3}).convert(DType::f32);
    const auto [gr, gi] = ops::rfft(ops::from_data(x, gpu), 0);
    const auto [cr, ci] = ops::rfft(ops::from_data(x, cpu), 0);
    expect_close(values(gr), values(cr), 3e-5, "rfft re");
    expect_close(values(gi), values(ci), 3e-5, "rfft im");
    expect_close(values(ops::irfft(gr, gi, 0, n)), values(ops::from_data(x, cpu)), 3e-5, "irfft(rfft)");
    // d/dx sum(|cfft(x)|^2) = 2 n x (Parseval), through the row's rule on the GPU
    const Device dev = gpu.autodiff();
    TensorAny xr = ops::require_grad(ops::from_data(x, dev));
    const auto [yr, yi] = ops::cfft(xr, ops::full(xr.shape(), 0.0, DType::f32, dev), 0);
    const Gradients g = ops::backward(ops::add(ops::sum(ops::mul(yr, yr)), ops::sum(ops::mul(yi, yi))));
    const std::vector<double> xv = values(ops::from_data(x, cpu));
    std::vector<double> want(xv.size());
    for (std::size_t k = 0; k < xv.size(); ++k) want[k] = 2.0 * static_cast<double>(n) * xv[k];
    expect_close(values(*ops::grad(xr, g)), want, 3e-5, "gradient");
}

}  // namespace burn::cuda_fft_test
