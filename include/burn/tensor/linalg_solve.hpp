#pragma once
/// burn::linalg's factorizations and solvers (torch.linalg's det, inv, solve, cholesky, lu, lu_factor
/// and qr) over the last two dims, batched over the leading ones. Float tensors; computed in float64 on
/// the host (the input is read back, waiting for its device, and the result returned in its dtype on
/// its device): meant for small matrices. det, inv and solve are differentiable; cholesky, lu and qr
/// give no gradient.
#include <cstddef>
#include <utility>

#include "burn/tensor/tensor.hpp"

namespace burn::ops {

/// The determinant of each [..., n, n] matrix: [..., 1] (a 0 x 0 matrix has determinant 1).
TensorAny det(TensorAny x);
/// The inverse of each matrix; a singular one is an error naming its batch position.
TensorAny inv(TensorAny x);
/// x with a x = b: a [..., n, n], b [..., n, k] (same batch dims) -> [..., n, k].
TensorAny solve(TensorAny a, TensorAny b);
/// The lower-triangular l with x = l l^T of each symmetric positive-definite matrix (the lower triangle
/// is read); a matrix that is not positive-definite is an error.
TensorAny cholesky(TensorAny x);
/// x = p l u (torch.linalg.lu) of square matrices: p a permutation matrix, l unit lower, u upper.
struct LuResult {
    TensorAny p, l, u;
};
LuResult lu(TensorAny x);
/// The packed LU factors (l below the diagonal, u on and above) and LAPACK's 1-based pivots (i32,
/// [..., n]): row k was swapped with row pivots[k] - 1 at step k (torch.linalg.lu_factor).
std::pair<TensorAny, TensorAny> lu_factor(TensorAny x);
/// The reduced QR of [..., m, n]: q [..., m, k] with orthonormal columns, r [..., k, n] upper, k =
/// min(m, n); signs as LAPACK's (and torch's) Householder convention.
std::pair<TensorAny, TensorAny> qr(TensorAny x);

}  // namespace burn::ops

namespace burn::linalg {

/// det(x): [..., n, n] -> [..., 1] ([1] for a matrix).
template <std::size_t D>
Tensor<D - 1> det(const Tensor<D>& x) requires(D >= 2) {
    return Tensor<D - 1>(ops::det(x.handle()));
}
template <std::size_t D>
Tensor<D> inv(const Tensor<D>& x) requires(D >= 2) {
    return Tensor<D>(ops::inv(x.handle()));
}
/// The x with a x = b (b: [..., n, k]).
template <std::size_t D>
Tensor<D> solve(const Tensor<D>& a, const Tensor<D>& b) requires(D >= 2) {
    return Tensor<D>(ops::solve(a.handle(), b.handle()));
}
template <std::size_t D>
Tensor<D> cholesky(const Tensor<D>& x) requires(D >= 2) {
    return Tensor<D>(ops::cholesky(x.handle()));
}
template <std::size_t D>
struct Lu {
    Tensor<D> p, l, u;
};
/// x = p l u.
template <std::size_t D>
Lu<D> lu(const Tensor<D>& x) requires(D >= 2) {
    ops::LuResult r = ops::lu(x.handle());
    return {Tensor<D>(std::move(r.p)), Tensor<D>(std::move(r.l)), Tensor<D>(std::move(r.u))};
}
/// {packed lu, 1-based pivots}.
template <std::size_t D>
std::pair<Tensor<D>, Tensor<D - 1, Int>> lu_factor(const Tensor<D>& x) requires(D >= 2) {
    auto [f, p] = ops::lu_factor(x.handle());
    return {Tensor<D>(std::move(f)), Tensor<D - 1, Int>(std::move(p))};
}
/// {q, r}, the reduced QR.
template <std::size_t D>
std::pair<Tensor<D>, Tensor<D>> qr(const Tensor<D>& x) requires(D >= 2) {
    auto [q, r] = ops::qr(x.handle());
    return {Tensor<D>(std::move(q)), Tensor<D>(std::move(r))};
}

}  // namespace burn::linalg
