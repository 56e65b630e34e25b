#pragma once
// Vectorised f32 kernels of the activations whose scalar form calls libm per element (gelu's erf
// and its gradient's exp), the vector-times-matrix products of single-row matmuls and a max pool's window:
// Highway with run-time CPU dispatch when the build found it (BURN_HAVE_HWY), the scalar functors of
// scalar_math.hpp otherwise.
#include <cstdint>

namespace burn::cpu::simd {

/// y[i] = gelu(x[i]) = 0.5 x (1 + erf(x / sqrt 2)) for n contiguous values; y may alias x.
/// erf is a rational approximation (|error| < 1e-7, float rounding aside).
void gelu(const float* x, float* y, int64_t n);

/// y[i] = exp(x[i]) (Highway's Exp: within a few ulp, 0 below about -87, inf above about 88.7);
/// y may alias x.
void exp(const float* x, float* y, int64_t n);

/// y[i] = g[i] * gelu'(x[i]) = g (Phi(x) + x phi(x)); y may alias x or g.
void gelu_backward(const float* x, const float* g, float* y, int64_t n);

#if defined(__wasm_simd128__) && !defined(BURN_HAVE_HWY)
/// y[i] = relu(x[i]) = x[i] < 0 ? 0 : x[i] (NaN and -0 kept) for n contiguous values; y may alias x.
/// WebAssembly only: elementwise.cpp, whose generic loop does the same elsewhere, is compiled at -O1 in
/// the page's module, where clang does not vectorise.
void relu(const float* x, float* y, int64_t n);
#endif

/// y[j] = sum_p x[p] * w[j * ldw + p] for j in [0, n): a row vector times the transpose of a
/// row-major matrix (a Linear layer on one sample), as n contiguous dot products of length k.
void dot_rows(const float* x, const float* w, int64_t ldw, int64_t k, float* y, int64_t n);

/// y[j] = sum_p x[p] * b[p * ldb + j] for j in [0, n): a row vector times a row-major matrix.
void axpy_rows(const float* x, const float* b, int64_t ldb, int64_t k, float* y, int64_t n);

/// One output pixel of a channels-last max pool: y[k] = max over p < npos of src[p][k] for k < c (src:
/// the window's input pixels, each c contiguous channels), ind[k] = pos[p] of the first maximum (a NaN
/// wins: the last NaN); -inf and pos[0] when every value is -inf, -inf and 0 when npos == 0.
void max_window(const float* const* src, const int32_t* pos, int64_t npos, int64_t c, float* y, int32_t* ind);

}  // namespace burn::cpu::simd
