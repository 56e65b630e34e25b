#pragma once
// Vectorised f32 kernels of the activations whose scalar form calls libm per element (gelu's erf
// and its gradient's exp): Highway with run-time CPU dispatch when the build found it
// (BURN_HAVE_HWY), the scalar functors of scalar_math.hpp otherwise.
#include <cstdint>

namespace burn::cpu::simd {

/// y[i] = gelu(x[i]) = 0.5 x (1 + erf(x / sqrt 2)) for n contiguous values; y may alias x.
/// erf is a rational approximation (|error| < 1e-7, float rounding aside).
void gelu(const float* x, float* y, int64_t n);

/// y[i] = g[i] * gelu'(x[i]) = g (Phi(x) + x phi(x)); y may alias x or g.
void gelu_backward(const float* x, const float* g, float* y, int64_t n);

}  // namespace burn::cpu::simd
