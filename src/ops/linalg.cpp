// Composite linear algebra (burn::linalg; no rows of their own): dot, outer, matvec, diag, trace and
// vector_norm, written with elementwise, reduce, matmul and view rows.
#include <cmath>
#include <limits>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {

void check_pair(const TensorAny& a, const TensorAny& b, const char* op) {
    check_defined(a, op);
    check_defined(b, op);
    check_numeric(a, op);
    check_same_dtype(a, b, op);
}

void check_matrix(const TensorAny& x, const char* op) {
    check_defined(x, op);
    check_numeric(x, op);
    BURN_CHECK_KIND(x.rank() >= 2, shape, "[", op,
                    "] needs a tensor of rank >= 2 (its last two dims are the matrix),", " got ", x.shape(),
                    "; add a dim with unsqueeze");
}

}  // namespace

TensorAny dot(TensorAny a, TensorAny b) {
    check_pair(a, b, "dot");
    BURN_CHECK_KIND(a.rank() == 1 && b.rank() == 1 && a.shape() == b.shape(), shape,
                    "[dot] needs two vectors of one length, got ", a.shape(), " and ", b.shape(),
                    "; flatten them or use matmul for matrices");
    return sum(mul(std::move(a), std::move(b)));
}

TensorAny cosine_similarity(TensorAny x1, TensorAny x2, int64_t dim, double eps) {
    BURN_CHECK(x1.defined() && x2.defined(), "[cosine_similarity] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x1.dtype()) && is_float(x2.dtype()), dtype,
                    "[cosine_similarity] inputs must be Float, got ", x1.dtype(), " and ", x2.dtype());
    BURN_CHECK_KIND(x1.shape() == x2.shape(), shape, "[cosine_similarity] x1 ", x1.shape(), " and x2 ",
                    x2.shape(), " must have one shape");
    const auto rank = static_cast<int64_t>(x1.rank());
    BURN_CHECK_KIND(rank > 0 && dim >= -rank && dim < rank, shape, "[cosine_similarity] dim ", dim,
                    " is out of range for ", x1.shape(), "; pass a dim in [", -rank, ", ", rank, ")");
    BURN_CHECK(eps > 0.0, "[cosine_similarity] eps must be positive, got ", eps);
    const int64_t d = dim < 0 ? dim + rank : dim;
    // the norms clamped before the square root: an all-zero row gives 0 with a finite gradient
    const double inf = std::numeric_limits<double>::infinity();
    auto norm = [&](const TensorAny& x) { return sqrt(clamp(sum_dim(square(x), d), eps * eps, inf)); };
    return div(sum_dim(mul(x1, x2), d), mul(norm(x1), norm(x2)));
}

TensorAny cross(TensorAny a, TensorAny b, int64_t dim) {
    check_pair(a, b, "cross");
    BURN_CHECK_KIND(a.rank() == b.rank(), shape, "[cross] a ", a.shape(), " and b ", b.shape(),
                    " must have one rank (unsqueeze one first)");
    const int d = normalize_dim(dim, a.rank(), "cross");
    BURN_CHECK_KIND(a.shape()[d] == 3 && b.shape()[d] == 3, shape, "[cross] dim ", d,
                    " must have size 3 in both, got ", a.shape(), " and ", b.shape());
    auto at = [d](const TensorAny& x, int64_t i) { return narrow(x, d, i, 1); };
    auto term = [&](int64_t i, int64_t j) { return sub(mul(at(a, i), at(b, j)), mul(at(a, j), at(b, i))); };
    return cat({term(1, 2), term(2, 0), term(0, 1)}, d);
}

TensorAny outer(TensorAny a, TensorAny b) {
    check_pair(a, b, "outer");
    BURN_CHECK_KIND(a.rank() == 1 && b.rank() == 1, shape, "[outer] needs two vectors, got ", a.shape(),
                    " and ", b.shape(), "; flatten them first");
    return mul(unsqueeze_dim(std::move(a), 1), unsqueeze_dim(std::move(b), 0));
}

TensorAny outer_dim(TensorAny a, TensorAny b, int64_t dim) {
    check_pair(a, b, "outer_dim");
    BURN_CHECK_KIND(a.rank() == b.rank(), shape, "[outer_dim] a ", a.shape(), " and b ", b.shape(),
                    " must have one rank (unsqueeze one first)");
    const int d = normalize_dim(dim, a.rank(), "outer_dim");
    // a: [..., m, 1, ...], b: [..., 1, n, ...]; the product broadcasts the other dims
    TensorAny col = unsqueeze_dim(std::move(a), d + 1);
    TensorAny row = unsqueeze_dim(std::move(b), d);
    return mul(std::move(col), std::move(row));
}

TensorAny matvec(TensorAny m, TensorAny v) {
    check_matrix(m, "matvec");
    check_pair(m, v, "matvec");
    BURN_CHECK_KIND(v.rank() == m.rank() - 1, shape,
                    "[matvec] the vector's rank must be the matrix's minus one: ", "matrix ", m.shape(),
                    ", vector ", v.shape());
    BURN_CHECK_KIND(v.shape()[v.rank() - 1] == m.shape()[m.rank() - 1], shape, "[matvec] matrix ", m.shape(),
                    " has ", m.shape()[m.rank() - 1], " columns but the vector ", v.shape(), " has length ",
                    v.shape()[v.rank() - 1]);
    return squeeze_dim(matmul(std::move(m), unsqueeze_dim(std::move(v), -1)), -1);
}

TensorAny diag(TensorAny x) {
    check_matrix(x, "diag");
    const int r = x.rank();
    const int64_t rows = x.shape()[r - 2], cols = x.shape()[r - 1];
    const int64_t k = rows < cols ? rows : cols;
    // the flattened matrix holds the diagonal every cols + 1 elements
    TensorAny f = flatten(std::move(x), r - 2, r - 1);
    std::vector<SliceArg> args(static_cast<std::size_t>(r - 1), SliceArg(burn::all));
    args.back() = SliceArg(0, k > 0 ? (k - 1) * (cols + 1) + 1 : 0, cols + 1);
    return slice(std::move(f), args);
}

TensorAny trace(TensorAny x) {
    check_matrix(x, "trace");
    return sum_dim(diag(std::move(x)), -1);
}

TensorAny vector_norm(TensorAny x, double p, int64_t dim) {
    check_defined(x, "vector_norm");
    check_float(x, "vector_norm");
    BURN_CHECK(!std::isnan(p), "[vector_norm] the order p is NaN; use 0, 1, 2, inf, -inf or another number");
    check_along_dim(x, dim, "vector_norm");
    if (p == 0) return sum_dim(cast(not_equal_elem(x, 0.0), x.dtype()), dim);
    TensorAny a = abs(std::move(x));
    if (std::isinf(p)) return p > 0 ? max_dim(std::move(a), dim) : min_dim(std::move(a), dim);
    if (p == 1) return sum_dim(std::move(a), dim);
    if (p == 2) return sqrt(sum_dim(square(std::move(a)), dim));
    return powf_scalar(sum_dim(powf_scalar(std::move(a), p), dim), 1.0 / p);
}

TensorAny vector_normalize(TensorAny x, double p, int64_t dim, double eps) {
    check_defined(x, "vector_normalize");
    check_float(x, "vector_normalize");
    BURN_CHECK(eps >= 0.0, "[vector_normalize] eps must be non-negative, got ", eps);
    check_along_dim(x, dim, "vector_normalize");
    TensorAny norm = vector_norm(x, p, dim);
    return div(std::move(x), clamp(std::move(norm), eps, std::numeric_limits<double>::infinity()));
}

}  // namespace burn::ops
