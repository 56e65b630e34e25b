#pragma once
/// Discrete Fourier transforms (burn's signal::{rfft, irfft, cfft, stft}, torch.fft.rfft/irfft/fft/ifft,
/// torch.stft and torch.istft). A complex tensor is a pair of float tensors (real, imaginary) of one shape.
///
/// Up to 1,024 points each transform is a matmul with a table of twiddle factors computed once per call
/// on the host in float64 (and converted to the input's dtype; float32 for f16 and bf16, whose results
/// are rounded back): O(n^2) per row, any length (not only powers of two), every device and autodiff
/// without a row of its own. Longer signals take a factored DFT of the same pieces (Cooley-Tukey's
/// four-step split, Bluestein's chirp-z for primes; docs/tensors.md).
#include <cstdint>
#include <optional>
#include <utility>

#include "burn/tensor/pad_mode.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::ops {

using Complex = std::pair<TensorAny, TensorAny>;

/// The one-sided DFT of real x along dim: n / 2 + 1 bins. n > 0 crops or zero-pads x to n points
/// first (torch's n); n = 0 uses the dim's length.
Complex rfft(TensorAny x, int64_t dim, int64_t n = 0);
/// The inverse of rfft: n real points (n = 0: 2 * (bins - 1)) from the one-sided spectrum (re, im).
/// Bins past n / 2 + 1 are ignored and missing ones are zero; the imaginary parts of the DC and Nyquist
/// bins do not contribute (torch.fft.irfft).
TensorAny irfft(TensorAny re, TensorAny im, int64_t dim, int64_t n = 0);
/// The complex DFT of (re, im) along dim (inverse: the inverse DFT, scaled by 1 / n).
Complex cfft(TensorAny re, TensorAny im, int64_t dim, bool inverse = false);

/// torch.stft's options (return_complex = False aside: the result is a pair).
struct StftOptions {
    int64_t hop_length = 0;                 // 0: n_fft / 4
    int64_t win_length = 0;                 // 0: n_fft
    std::optional<TensorAny> window;        // [win_length], centred in n_fft; none: all ones
    bool center = true;                     // pad n_fft / 2 on both sides first
    PadMode pad_mode = PadMode::Reflect();  // how center pads
    bool normalized = false;                // scale by n_fft^-1/2
    bool onesided = true;                   // n_fft / 2 + 1 bins, else n_fft
};
/// The short-time Fourier transform of x ([length] or [batch, length]): (re, im), each
/// [(batch,) bins, frames], frames = 1 + (length (+ 2 * (n_fft / 2) when centred) - n_fft) / hop.
Complex stft(TensorAny x, int64_t n_fft, const StftOptions& options = {});

/// torch.istft's options: those of the stft being inverted, and the signal's length.
struct IstftOptions {
    int64_t hop_length = 0;           // 0: n_fft / 4
    int64_t win_length = 0;           // 0: n_fft
    std::optional<TensorAny> window;  // [win_length], centred in n_fft; none: all ones
    bool center = true;               // the stft padded n_fft / 2 on both sides: they are cut off
    bool normalized = false;          // the stft was scaled by n_fft^-1/2
    bool onesided = true;             // n_fft / 2 + 1 bins (irfft per frame), else n_fft (real part)
    int64_t length = 0;               // > 0: the signal's length (cropped or zero-padded to it)
};
/// The inverse STFT (torch.istft): each frame's inverse DFT, windowed, overlap-added and divided by the
/// summed squared window, from (re, im) [(batch,) bins, frames] to [(batch,) length]. Throws where the
/// squared windows sum to (nearly) zero inside the signal (torch's NOLA condition).
TensorAny istft(TensorAny re, TensorAny im, int64_t n_fft, const IstftOptions& options = {});

}  // namespace burn::ops

namespace burn {

/// The one-sided spectrum of x along dim: {re, im}, dim of length n / 2 + 1.
template <std::size_t D>
std::pair<Tensor<D>, Tensor<D>> rfft(const Tensor<D>& x, int64_t dim = -1, int64_t n = 0) {
    auto [re, im] = ops::rfft(x.handle(), dim, n);
    return {Tensor<D>(std::move(re)), Tensor<D>(std::move(im))};
}
/// n real points (n = 0: 2 * (bins - 1)) from a one-sided spectrum.
template <std::size_t D>
Tensor<D> irfft(const Tensor<D>& re, const Tensor<D>& im, int64_t dim = -1, int64_t n = 0) {
    return Tensor<D>(ops::irfft(re.handle(), im.handle(), dim, n));
}
/// The complex DFT (or, inverse, its inverse) of (re, im) along dim.
template <std::size_t D>
std::pair<Tensor<D>, Tensor<D>> cfft(const Tensor<D>& re, const Tensor<D>& im, int64_t dim = -1,
                                     bool inverse = false) {
    auto [r, i] = ops::cfft(re.handle(), im.handle(), dim, inverse);
    return {Tensor<D>(std::move(r)), Tensor<D>(std::move(i))};
}
/// The STFT of a signal [length] -> [bins, frames] or a batch [batch, length] -> [batch, bins, frames].
template <std::size_t D>
std::pair<Tensor<D + 1>, Tensor<D + 1>> stft(const Tensor<D>& x, int64_t n_fft,
                                             const ops::StftOptions& options = {}) requires(D == 1 ||
                                                                                            D == 2) {
    auto [re, im] = ops::stft(x.handle(), n_fft, options);
    return {Tensor<D + 1>(std::move(re)), Tensor<D + 1>(std::move(im))};
}
/// The inverse STFT: a spectrum [bins, frames] -> [length], or [batch, bins, frames] -> [batch, length].
template <std::size_t D>
Tensor<D - 1> istft(const Tensor<D>& re, const Tensor<D>& im, int64_t n_fft,
                    const ops::IstftOptions& options = {}) requires(D == 2 || D == 3) {
    return Tensor<D - 1>(ops::istft(re.handle(), im.handle(), n_fft, options));
}

}  // namespace burn
