#pragma once
// Helpers shared by the CPU module-op kernels (conv.cpp, pool.cpp, interpolate.cpp): half-precision
// inputs computed in f32, per-thread scratch buffers and the GEMM they call.
#include <cstring>
#include <vector>

#include "backends/cpu/kernels.hpp"
#include "platform/sync.hpp"

namespace burn::cpu::nn {

inline bool is_half(DType d) {
    return d == DType::f16 || d == DType::bf16;
}

/// A contiguous tensor holding t's values in its compute type: f16/bf16 become f32, f32/f64 are kept.
TensorRef to_compute(const TensorRef& t);
/// A contiguous tensor of dtype `to` with the values of the compute-type tensor t.
TensorRef from_compute(const TensorRef& t, DType to);

/// Calls f(T{}) for f32 and f64 (the compute types of the float dtypes).
template <class F>
decltype(auto) dispatch_compute(DType d, F&& f) {
    if (d == DType::f64) return f(double{});
    return f(float{});
}

/// A per-thread scratch array of at least n elements (contents unspecified).
template <class T>
T* scratch(int slot, int64_t n) {
    static BURN_THREAD_LOCAL std::vector<T> bufs[4];
    auto& b = bufs[slot];
    if (b.size() < static_cast<std::size_t>(n)) b.resize(static_cast<std::size_t>(n));
    return b.data();
}

/// C (m x n, row-major with leading dim ldc) = A (m x k) * B (k x n), where A's element (i, p) is at
/// a[i * a_rs + p * a_cs] and B's element (p, j) at b[p * b_rs + j * b_cs]. Serial when called from
/// inside a parallel_for chunk, parallel otherwise (except through BLAS, see parallel_images).
template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs,
          int64_t b_cs, T* c, int64_t ldc);
/// Whether the conv kernels may run independent images in parallel with a serial GEMM each: true for
/// the built-in GEMM, false when products go to a threaded BLAS.
bool parallel_images();

}  // namespace burn::cpu::nn
