#pragma once
/// Linear-algebra basics (burn::linalg): vector norms, dot, outer, matvec, diag and trace. Each is
/// written with existing ops (a composite), so every device runs it and autodiff differentiates it.
#include <cstddef>
#include <limits>

#include "burn/tensor/tensor.hpp"

namespace burn::linalg {

/// The order of a vector norm (burn's Norm): L0 counts non-zeros, L1, L2, LInf = max |x|, LNegInf =
/// min |x|, Lp(p) = (sum |x|^p)^(1/p). A number converts to it (2.0 is L2).
struct Norm {
    double p;
    constexpr Norm(double p_) : p(p_) {}  // NOLINT: implicit, like burn's Into<Norm>
    static constexpr Norm L0() { return Norm(0); }
    static constexpr Norm L1() { return Norm(1); }
    static constexpr Norm L2() { return Norm(2); }
    static constexpr Norm LInf() { return Norm(std::numeric_limits<double>::infinity()); }
    static constexpr Norm LNegInf() { return Norm(-std::numeric_limits<double>::infinity()); }
    static constexpr Norm Lp(double p) { return Norm(p); }
};

/// The norm along dim, kept with size 1.
template <std::size_t D>
Tensor<D> vector_norm(const Tensor<D>& x, Norm norm, int64_t dim) {
    return Tensor<D>(ops::vector_norm(x.handle(), norm.p, dim));
}
/// The general L(p) norm along dim, kept (burn's lp_norm; the same as vector_norm with Norm::Lp(p)).
template <std::size_t D>
Tensor<D> lp_norm(const Tensor<D>& x, double p, int64_t dim) {
    return vector_norm(x, Norm::Lp(p), dim);
}
/// The count of non-zero elements along dim, kept, in x's float dtype (burn's l0_norm).
template <std::size_t D>
Tensor<D> l0_norm(const Tensor<D>& x, int64_t dim) {
    return vector_norm(x, Norm::L0(), dim);
}
template <std::size_t D>
Tensor<D> l1_norm(const Tensor<D>& x, int64_t dim) {
    return vector_norm(x, Norm::L1(), dim);
}
template <std::size_t D>
Tensor<D> l2_norm(const Tensor<D>& x, int64_t dim) {
    return vector_norm(x, Norm::L2(), dim);
}
template <std::size_t D>
Tensor<D> max_abs_norm(const Tensor<D>& x, int64_t dim) {
    return vector_norm(x, Norm::LInf(), dim);
}
template <std::size_t D>
Tensor<D> min_abs_norm(const Tensor<D>& x, int64_t dim) {
    return vector_norm(x, Norm::LNegInf(), dim);
}
/// x / max(vector_norm(x, norm, dim), eps) (burn's vector_normalize): unit vectors along dim, with
/// eps keeping an all-zero vector finite (it stays 0).
template <std::size_t D>
Tensor<D> vector_normalize(const Tensor<D>& x, Norm norm, int64_t dim, double eps = 1e-12) {
    return Tensor<D>(ops::vector_normalize(x.handle(), norm.p, dim, eps));
}

/// a . b of two vectors of one length, as a [1] tensor.
template <class K>
Tensor<1, K> dot(const Tensor<1, K>& a, const Tensor<1, K>& b) {
    return Tensor<1, K>(ops::dot(a.handle(), b.handle()));
}
/// a [m], b [n] -> [m, n] with a[i] * b[j].
template <class K>
Tensor<2, K> outer(const Tensor<1, K>& a, const Tensor<1, K>& b) {
    return Tensor<2, K>(ops::outer(a.handle(), b.handle()));
}
/// The outer product along dim (burn's outer_dim): a [..., m, ...] and b [..., n, ...] of one rank D
/// (m and n at dim, the other dims broadcast) -> rank D + 1 with out[..., i, j, ...] = a[..., i, ...] *
/// b[..., j, ...]: dim holds i and dim + 1 holds j. outer_dim(a, b, -1) of [b, m] and [b, n] is [b, m, n].
template <std::size_t D, class K>
Tensor<D + 1, K> outer_dim(const Tensor<D, K>& a, const Tensor<D, K>& b, int64_t dim) {
    return Tensor<D + 1, K>(ops::outer_dim(a.handle(), b.handle(), dim));
}
/// x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along dim, kept with size 1 (burn's cosine_similarity).
template <std::size_t D>
Tensor<D> cosine_similarity(const Tensor<D>& x1, const Tensor<D>& x2, int64_t dim = -1, double eps = 1e-8) {
    return Tensor<D>(ops::cosine_similarity(x1.handle(), x2.handle(), dim, eps));
}
/// The cross product of 3-vectors along dim (size 3; the other dims broadcast).
template <std::size_t D, class K>
Tensor<D, K> cross(const Tensor<D, K>& a, const Tensor<D, K>& b, int64_t dim = -1) {
    return Tensor<D, K>(ops::cross(a.handle(), b.handle(), dim));
}
/// m [..., r, c] times v [..., c] -> [..., r].
template <std::size_t D, class K>
Tensor<D - 1, K> matvec(const Tensor<D, K>& m, const Tensor<D - 1, K>& v) requires(D >= 2) {
    return Tensor<D - 1, K>(ops::matvec(m.handle(), v.handle()));
}
/// The diagonal of the last two dims: [..., r, c] -> [..., min(r, c)].
template <std::size_t D, class K>
Tensor<D - 1, K> diag(const Tensor<D, K>& x) requires(D >= 2) {
    return Tensor<D - 1, K>(ops::diag(x.handle()));
}
/// The sum of that diagonal: [..., r, c] -> [..., 1] ([1] for a matrix).
template <std::size_t D, class K>
Tensor<D - 1, K> trace(const Tensor<D, K>& x) requires(D >= 2) {
    return Tensor<D - 1, K>(ops::trace(x.handle()));
}

}  // namespace burn::linalg
