// The Fourier transforms against torch 1.13 (tests/fixtures/nn_layers/fft.json, written by
// scripts/gen_fft_fixtures.py): rfft with n and along dim 0, the complex fft and ifft, irfft (its n,
// the ignored imaginary DC and Nyquist parts), stft with torch's centring, padding, window placement,
// normalisation and two-sided output, and istft (envelope, centring, length). The op database checks
// the same ops against naive sums on every dtype and device; this file pins the conventions to torch's.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

#include "nn/layer_test_util.hpp"

namespace burn::fft_torch_test {

using nn_test::close;
using nn_test::load_fixture;

void expect_pair(const std::pair<Tensor<2>, Tensor<2>>& y, const nn_test::Fixture& f,
                 const std::string& key) {
    EXPECT_TRUE(close(y.first, f.at(key + ".re"), 1e-4, 1e-4)) << key;
    EXPECT_TRUE(close(y.second, f.at(key + ".im"), 1e-4, 1e-4)) << key;
}

TEST(FftTorch, RfftCfftAndIrfftMatchTorch) {
    auto f = load_fixture("fft");
    auto x = f.floats<2>("x");
    expect_pair(rfft(x), f, "rfft");
    expect_pair(rfft(x, -1, 16), f, "rfft_n16");
    expect_pair(rfft(x, 0), f, "rfft_dim0");
    auto im = x.flip({1}) * 0.5;
    expect_pair(cfft(x, im), f, "fft");
    expect_pair(cfft(x, im, -1, true), f, "ifft");
    auto re_s = f.floats<2>("spec.re"), im_s = f.floats<2>("spec.im");
    EXPECT_TRUE(close(irfft(re_s, im_s), f.at("irfft"), 1e-5, 1e-4));
    EXPECT_TRUE(close(irfft(re_s, im_s, -1, 9), f.at("irfft_n9"), 1e-5, 1e-4));
    // the round trip: irfft(rfft(x), n) is x for odd and even n
    auto [r, i] = rfft(x);
    EXPECT_TRUE(close(irfft(r, i, -1, 10), x.into_data(), 1e-5, 1e-5));
    auto [r9, i9] = rfft(x.slice({{0, 3}, {0, 9}}));
    EXPECT_TRUE(close(irfft(r9, i9, -1, 9), x.slice({{0, 3}, {0, 9}}).into_data(), 1e-5, 1e-5));
}

TEST(FftTorch, StftMatchesTorch) {
    auto f = load_fixture("fft");
    auto sig = f.floats<2>("sig");
    auto check = [&](const std::string& key, int64_t n_fft, const ops::StftOptions& o) {
        auto [re, im] = stft(sig, n_fft, o);
        EXPECT_TRUE(close(re, f.at(key + ".re"), 1e-4, 1e-4)) << key;
        EXPECT_TRUE(close(im, f.at(key + ".im"), 1e-4, 1e-4)) << key;
    };
    ops::StftOptions windowed;
    windowed.hop_length = 4;
    windowed.win_length = 12;
    windowed.window = hann_window(12).handle();
    check("stft", 16, windowed);
    ops::StftOptions norm;
    norm.hop_length = 5;
    norm.normalized = true;
    check("stft_norm", 16, norm);
    ops::StftOptions two;
    two.hop_length = 3;
    two.center = false;
    two.onesided = false;
    check("stft_twosided", 8, two);
    ops::StftOptions constant;
    constant.hop_length = 4;
    constant.pad_mode = PadMode::Constant(0);
    check("stft_constant", 10, constant);
}

TEST(FftTorch, IstftMatchesTorch) {
    auto f = load_fixture("fft");
    auto check = [&](const std::string& key, int64_t n_fft, const ops::IstftOptions& o) {
        auto y = istft(f.floats<3>(key + ".in.re"), f.floats<3>(key + ".in.im"), n_fft, o);
        EXPECT_TRUE(close(y, f.at(key), 1e-4, 1e-4)) << key;
    };
    ops::IstftOptions windowed;
    windowed.hop_length = 4;
    windowed.win_length = 12;
    windowed.window = hann_window(12).handle();
    windowed.length = 50;
    check("istft", 16, windowed);
    ops::IstftOptions norm;
    norm.hop_length = 5;
    norm.normalized = true;
    check("istft_norm", 16, norm);
    ops::IstftOptions cut;
    cut.hop_length = 4;
    cut.length = 37;
    check("istft_short", 10, cut);
    cut.length = 60;  // longer than the frames reach: zeros
    check("istft_long", 10, cut);
}

TEST(FftTorch, IstftInvertsStft) {
    // A Hann window with hop n_fft / 4 satisfies NOLA: the round trip is the signal, batched or not.
    auto sig = load_fixture("fft").floats<2>("sig");
    ops::StftOptions so;
    so.hop_length = 4;
    so.window = hann_window(16).handle();
    ops::IstftOptions io;
    io.hop_length = 4;
    io.window = so.window;
    io.length = 50;
    auto [re, im] = stft(sig, 16, so);
    EXPECT_TRUE(close(istft(re, im, 16, io), sig.into_data(), 1e-5, 1e-5));
    auto one = sig.slice({{1, 2}, {0, 50}}).reshape<1>({50});
    auto [r1, i1] = stft(one, 16, so);
    EXPECT_TRUE(close(istft(r1, i1, 16, io), one.into_data(), 1e-5, 1e-5));
}

TEST(FftTorch, GradientsFlowThroughTheTransform) {
    // Parseval for the complex DFT: sum |X|^2 = n sum |x|^2, so d/dx of sum(re^2 + im^2) is 2 n x.
    auto d = Device().autodiff();
    auto x = Tensor<2>::from_data(load_fixture("fft").at("x"), d).require_grad();
    auto zeros = Tensor<2>::zeros({3, 10}, d);
    auto [re, im] = cfft(x, zeros);
    auto g = x.grad((re * re + im * im).sum().backward());
    ASSERT_TRUE(g.has_value());
    EXPECT_TRUE(close(*g, (x.detach() * 20.0).into_data(), 1e-4, 1e-4));
}

}  // namespace burn::fft_torch_test
