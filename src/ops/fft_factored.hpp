#pragma once
// The complex DFT of long rows as a composition of short ones (fft_factored.cpp): Cooley-Tukey's
// four-step split n = n1 * n2 (DFTs of n1 points, twiddles, DFTs of n2 points, recursively), and
// Bluestein's chirp-z for prime lengths (a circular convolution of a power-of-two length through the
// split). Every step is a matmul with a small twiddle table, an elementwise complex product or a
// transpose: no rows of its own, so it runs on every device and autodiff differentiates it.
#include <cstdint>
#include <utility>

#include "burn/tensor/tensor.hpp"

namespace burn::ops::fft_impl {

/// Signals of at most this many points take fft.cpp's direct path (one table matmul); longer ones this
/// file's factored DFT.
inline constexpr int64_t kDirectMax = 1024;
/// Inside the factored DFT, the length at which a part stops splitting. rfft of 4 x 2^18 points on two
/// threads (burn-bench rfft_long), by this length: 16: 58.6 ms, 32: 48.2, 64: 46.1, 128: 48.4, 256:
/// 47.7, 1024: 166 (the splits are passes over memory; the direct parts, 4 n^2 multiply-adds per row).
inline constexpr int64_t kSplitDirect = 128;

/// The DFT of the rows (the last dim) of (re, im), float, one shape: X_k = sum_j x_j e^(-+2 pi i j k / n)
/// (inverse: the + sign), unscaled. Rows of at most direct_max points are one matmul with a
/// [2n, 2n] table; longer ones split (direct_max is a parameter for the tests, which force the split on
/// short rows).
std::pair<TensorAny, TensorAny> dft_rows(TensorAny re, TensorAny im, bool inverse,
                                         int64_t direct_max = kSplitDirect);

/// The same DFT as the dft row (fft_row.cpp): a backend's kernel (kissfft on the CPU, cuFFT on CUDA) or,
/// where it has none, the row's decomposition: dft_rows, direct up to kDirectMax points. re and im are
/// float32 or float64 of one shape.
std::pair<TensorAny, TensorAny> dft(TensorAny re, TensorAny im, bool inverse);
/// Whether device has a kernel of its own for the dft row of rows of n points of dtype (f32 or f64);
/// without one, the transforms keep their direct table matmuls for short signals.
bool has_native_dft(const Device& device, DType dtype, int64_t n);

}  // namespace burn::ops::fft_impl
