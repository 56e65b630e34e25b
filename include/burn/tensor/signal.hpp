#pragma once
/// Window functions (torch.hann_window, hamming_window, blackman_window) and categorical sampling
/// (torch.multinomial). Composites of arange, cos, cumsum, random and topk: every device runs them.
#include <cstddef>

#include "burn/tensor/tensor.hpp"

namespace burn::ops {

/// The window of length n (float dtype): w[k] = a0 - a1 cos(2 pi k / M) + a2 cos(4 pi k / M) with
/// M = n (periodic, for spectral analysis: the first n of an n + 1 window) or n - 1 (symmetric); a
/// window of length 1 is [1]. hann: a = (0.5, 0.5, 0), hamming: (0.54, 0.46, 0), blackman: (0.42, 0.5,
/// 0.08), torch's coefficients.
TensorAny hann_window(int64_t n, bool periodic, DType dtype, const Device& device);
TensorAny hamming_window(int64_t n, bool periodic, DType dtype, const Device& device);
TensorAny blackman_window(int64_t n, bool periodic, DType dtype, const Device& device);
/// num_samples category indices (i32) drawn from each row of probs ([k] or [rows, k], non-negative,
/// finite, each row with a positive sum; they need not add up to 1), with or without replacement
/// (torch.multinomial), from the device's seeded generator (Device::seed). Without replacement each
/// row needs num_samples categories of non-zero probability. The checks read probs on the host.
TensorAny multinomial(TensorAny probs, int64_t num_samples, bool replacement);

}  // namespace burn::ops

namespace burn {

inline Tensor<1> hann_window(int64_t n, bool periodic = true, const Device& device = Device(),
                             DType dtype = DType::f32) {
    return Tensor<1>(ops::hann_window(n, periodic, dtype, device));
}
inline Tensor<1> hamming_window(int64_t n, bool periodic = true, const Device& device = Device(),
                                DType dtype = DType::f32) {
    return Tensor<1>(ops::hamming_window(n, periodic, dtype, device));
}
inline Tensor<1> blackman_window(int64_t n, bool periodic = true, const Device& device = Device(),
                                 DType dtype = DType::f32) {
    return Tensor<1>(ops::blackman_window(n, periodic, dtype, device));
}
/// Category indices drawn from probs ([k] -> [num_samples], [rows, k] -> [rows, num_samples]).
template <std::size_t D>
Tensor<D, Int> multinomial(const Tensor<D>& probs, int64_t num_samples,
                           bool replacement = false) requires(D <= 2) {
    return Tensor<D, Int>(ops::multinomial(probs.handle(), num_samples, replacement));
}

}  // namespace burn
