#pragma once
// The built-in blocked GEMM: the CPU matmul kernel for f16/bf16/int dtypes and for builds without
// OpenBLAS (and the kernel that wasm and bare-metal ports will use). Exposed here so that tests can
// exercise it directly even when OpenBLAS handles f32/f64.
#include <cstdint>

#include "burn/core/dtype.hpp"

namespace burn::cpu {

/// C = A * B for an m x k matrix A (element (i, p) at a[i * a_rs + p * a_cs]) and a k x n matrix B
/// (element (p, j) at b[p * b_rs + j * b_cs]), written to row-major C (element (i, j) at c[i * ldc + j]).
/// Any strides are accepted (transposed, sliced, broadcast with stride 0, flipped with negative strides):
/// operands are packed into blocks, so no layout needs a copy first. k == 0 writes zeros.
/// f16/bf16 compute in f32; integer dtypes wrap modulo 2^bits like two's complement arithmetic.
/// Runs in parallel over output tiles through platform::parallel_for (serially inside a parallel chunk).
template <class T>
void gemm_fallback(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b,
                   int64_t b_rs, int64_t b_cs, T* c, int64_t ldc);

/// The instruction-set variants of the micro-kernel. The best one the CPU supports is picked at start-up.
enum class GemmIsa { generic, avx2, avx512 };
GemmIsa gemm_isa();
/// Selects a variant (clamped to what the CPU supports); returns the one now in use. For tests.
GemmIsa set_gemm_isa(GemmIsa isa);
const char* gemm_isa_name(GemmIsa isa);
/// The best variant this CPU supports.
GemmIsa gemm_cpu_isa();

/// Whether f32/f64 matmul goes to OpenBLAS (in builds with it). automatic: yes, unless OpenBLAS runs
/// a kernel for an older instruction set than the built-in one (OpenBLAS 0.3.21 falls back to its
/// "Prescott" SSE3 kernel on CPUs it does not know, several times slower), and except for many small
/// matrices in a batch, which the built-in kernel runs in parallel. always/never force it (for tests).
enum class BlasUse { automatic, always, never };
void set_blas_use(BlasUse use);
/// Whether the automatic choice uses OpenBLAS for large f32/f64 products (false without OpenBLAS).
bool blas_preferred();
/// OpenBLAS's kernel name ("SkylakeX", "Haswell", "Prescott", ...) or "" without OpenBLAS.
const char* blas_core_name();
/// OpenBLAS's thread count, or 0 without OpenBLAS.
int blas_num_threads();

}  // namespace burn::cpu
