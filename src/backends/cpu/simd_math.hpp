#pragma once
// Vectorised row kernels for the softmax family: Highway with run-time CPU dispatch when the build
// found it (BURN_HAVE_HWY), plain scalar loops otherwise. Both give torch's semantics: a row holding a
// NaN, a +inf or only -inf values comes out NaN; -inf entries of other rows give 0 (log: -inf).
#include <cstdint>

namespace burn::cpu::simd {

/// softmax (or log_softmax when log) of n contiguous values; y may alias x.
void softmax_row(const float* x, float* y, int64_t n, bool log);
void softmax_row(const double* x, double* y, int64_t n, bool log);

/// softmax along the rows of a column block: n rows of m contiguous values, rows `stride` elements
/// apart (x and y share the stride; y may alias x). work holds 3 * m scratch values.
void softmax_cols(const float* x, float* y, int64_t n, int64_t m, int64_t stride, bool log, float* work);
void softmax_cols(const double* x, double* y, int64_t n, int64_t m, int64_t stride, bool log, double* work);

/// The max (or min) of n values, NaN when one of them is NaN; -inf (+inf) when n == 0.
float row_extreme(const float* x, int64_t n, bool max);

/// The instruction set chosen at run time ("scalar" without Highway), for diagnostics.
const char* target_name();

}  // namespace burn::cpu::simd
