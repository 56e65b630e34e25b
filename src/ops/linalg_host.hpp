#pragma once
// Dense factorizations of small row-major float64 matrices on the host (burn::linalg's det, inv, solve,
// cholesky, lu and qr, src/ops/linalg_solve.cpp): partial-pivoting LU, Cholesky and Householder QR,
// written out so every build has them (wasm and bare metal included, no LAPACK needed).
#include <cstdint>
#include <vector>

namespace burn::linalg_host {

/// LU with partial pivoting in place (LAPACK's getrf on an n x n row-major a): L below the diagonal
/// (unit diagonal implied), U on and above it; piv[k] is the row swapped with row k at step k. Returns
/// the first step whose pivot is exactly 0 (the matrix is singular), or -1.
int64_t lu_in_place(double* a, int64_t n, std::vector<int64_t>& piv);

/// The determinant from an LU factorization: the product of U's diagonal, its sign flipped per swap.
double det_of_lu(const double* lu, int64_t n, const std::vector<int64_t>& piv);

/// Solves (L U) x = P b in place for the k columns of b (n x k row-major), given lu_in_place's output.
void lu_solve(const double* lu, int64_t n, const std::vector<int64_t>& piv, double* b, int64_t k);

/// The lower Cholesky factor of a symmetric positive-definite a (only its lower triangle is read):
/// a = l l^T. Returns the order of the first leading minor that is not positive (1-based), or 0.
int64_t cholesky(const double* a, int64_t n, double* l);

/// The reduced QR of an m x n a (LAPACK's geqrf + orgqr convention: R's diagonal takes the sign that
/// avoids cancellation): q is m x min(m, n), r is min(m, n) x n.
void qr(const double* a, int64_t m, int64_t n, double* q, double* r);

}  // namespace burn::linalg_host
