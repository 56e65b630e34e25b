// burn::linalg's factorizations and solvers: det, inv, solve, cholesky, lu, lu_factor and qr over the
// last two dims (batched over the leading ones). A first version computed in float64 on the host
// (linalg_host.cpp, every build has it): the input is read back (waiting for its device), factorized
// matrix by matrix, and the result comes back in the input's dtype on its device. Meant for small
// matrices. det, inv and solve are differentiable: each runs as an autodiff::CustomOp whose backward is
// written with tensor ops (d inv = -inv dX inv, d det = det inv^T, d solve from a solve with A^T).
#include "burn/tensor/linalg_solve.hpp"

#include "burn/autodiff/custom_op.hpp"
#include "ops/common.hpp"
#include "ops/linalg_host.hpp"

namespace burn::ops {

using namespace detail;

namespace linalg_solve {  // named, not anonymous: unity builds merge anonymous namespaces

/// The matrices of x as float64 on the host: batch matrices of m x n, row-major.
struct HostMats {
    std::vector<double> v;
    int64_t batch = 0, m = 0, n = 0;
};

HostMats read_host_mats(const TensorAny& x, const char* op, bool square) {
    check_defined(x, op);
    check_float(x, op);
    BURN_CHECK_KIND(x.rank() >= 2, shape, "[", op, "] needs matrices [..., rows, cols], got ", describe(x));
    HostMats r;
    r.m = x.shape()[x.rank() - 2];
    r.n = x.shape()[x.rank() - 1];
    BURN_CHECK_KIND(!square || r.m == r.n, shape, "[", op, "] needs square matrices, got ", describe(x), " (",
                    r.m, " x ", r.n, ")");
    r.batch = r.m * r.n == 0 ? 0 : x.numel() / (r.m * r.n);
    r.v = into_data(x).convert(DType::f64).to_vec<double>();  // on the host: no f64 kernels needed
    return r;
}

TensorAny host_to_tensor(std::vector<double> v, const Dims& shape, const TensorAny& like) {
    return from_data(TensorData(std::move(v), shape).convert(like.dtype()), like.device());
}

/// x's shape with its last two dims replaced by rows x cols (cols < 0: drop the last dim).
Dims shape_with_last(const TensorAny& x, int64_t rows, int64_t cols) {
    Dims s;
    for (int d = 0; d < x.rank() - 2; ++d) s.push_back(x.shape()[d]);
    s.push_back(rows);
    if (cols >= 0) s.push_back(cols);
    return s;
}

TensorAny swap_last_two(const TensorAny& x) {
    return swap_dims(x, -2, -1);
}

/// The LU factorization of each matrix (piv per matrix); singular: the first singular matrix, or -1.
struct HostLus {
    HostMats a;
    std::vector<std::vector<int64_t>> piv;
    int64_t singular_matrix = -1, singular_step = -1;
};

HostLus lu_factors(const TensorAny& x, const char* op) {
    HostLus r{read_host_mats(x, op, true), {}, -1, -1};
    const int64_t n = r.a.n;
    r.piv.resize(static_cast<std::size_t>(r.a.batch));
    for (int64_t b = 0; b < r.a.batch; ++b) {
        const int64_t s =
            linalg_host::lu_in_place(r.a.v.data() + b * n * n, n, r.piv[static_cast<std::size_t>(b)]);
        if (s >= 0 && r.singular_matrix < 0) {
            r.singular_matrix = b;
            r.singular_step = s;
        }
    }
    return r;
}

void require_invertible(const HostLus& f, const TensorAny& x, const char* op) {
    BURN_CHECK(f.singular_matrix < 0, "[", op, "] matrix ", f.singular_matrix, " of ", describe(x),
               " is singular (pivot ", f.singular_step,
               " of its LU factorization is 0), so it has no inverse");
}

TensorAny inv_forward(const TensorAny& x) {
    HostLus f = lu_factors(x, "inv");
    require_invertible(f, x, "inv");
    const int64_t n = f.a.n;
    std::vector<double> out(static_cast<std::size_t>(f.a.batch * n * n), 0.0);
    for (int64_t b = 0; b < f.a.batch; ++b) {
        double* o = out.data() + b * n * n;
        for (int64_t i = 0; i < n; ++i) o[i * n + i] = 1;
        linalg_host::lu_solve(f.a.v.data() + b * n * n, n, f.piv[static_cast<std::size_t>(b)], o, n);
    }
    return host_to_tensor(std::move(out), x.shape(), x);
}

TensorAny det_forward(const TensorAny& x) {
    HostLus f = lu_factors(x, "det");
    std::vector<double> out(static_cast<std::size_t>(f.a.batch));
    for (int64_t b = 0; b < f.a.batch; ++b)
        out[static_cast<std::size_t>(b)] = linalg_host::det_of_lu(f.a.v.data() + b * f.a.n * f.a.n, f.a.n,
                                                                  f.piv[static_cast<std::size_t>(b)]);
    if (f.a.n == 0)
        out.assign(static_cast<std::size_t>(shape_with_last(x, 1, -1).numel()), 1.0);  // det of 0 x 0 is 1
    return host_to_tensor(std::move(out), shape_with_last(x, 1, -1), x);
}

TensorAny solve_forward(const TensorAny& a, const TensorAny& b) {
    HostLus f = lu_factors(a, "solve");
    require_invertible(f, a, "solve");
    HostMats rhs = read_host_mats(b, "solve", false);
    const int64_t n = f.a.n, k = rhs.n;
    for (int64_t i = 0; i < f.a.batch; ++i)
        linalg_host::lu_solve(f.a.v.data() + i * n * n, n, f.piv[static_cast<std::size_t>(i)],
                              rhs.v.data() + i * n * k, k);
    return host_to_tensor(std::move(rhs.v), b.shape(), b);
}

TensorAny first_output(std::vector<TensorAny> outs) {
    return std::move(outs.at(0));
}

}  // namespace linalg_solve

using namespace linalg_solve;

TensorAny inv(TensorAny x) {
    autodiff::CustomOp op;
    op.name = "inv";
    op.forward = [](const std::vector<TensorAny>& in) { return std::vector<TensorAny>{inv_forward(in[0])}; };
    op.backward = [](const std::vector<TensorAny>&, const std::vector<TensorAny>& out,
                     const std::vector<TensorAny>& g) -> std::vector<TensorAny> {
        if (!g[0].defined()) return {TensorAny()};
        const TensorAny yt = swap_last_two(out[0]);  // dX = -Y^T g Y^T
        return {neg(matmul(matmul(yt, g[0]), yt))};
    };
    check_defined(x, "inv");
    return first_output(autodiff::apply(op, {std::move(x)}));
}

TensorAny det(TensorAny x) {
    autodiff::CustomOp op;
    op.name = "det";
    op.forward = [](const std::vector<TensorAny>& in) { return std::vector<TensorAny>{det_forward(in[0])}; };
    op.backward = [](const std::vector<TensorAny>& in, const std::vector<TensorAny>& out,
                     const std::vector<TensorAny>& g) -> std::vector<TensorAny> {
        if (!g[0].defined()) return {TensorAny()};
        // dX = g det inv(X)^T (needs an invertible X: a singular one is an error naming inv)
        TensorAny s = unsqueeze_dim(mul(g[0], out[0]), -1);  // [..., 1, 1]
        return {mul(std::move(s), swap_last_two(inv_forward(in[0])))};
    };
    check_defined(x, "det");
    return first_output(autodiff::apply(op, {std::move(x)}));
}

TensorAny solve(TensorAny a, TensorAny b) {
    check_defined(a, "solve");
    check_defined(b, "solve");
    check_same_dtype(a, b, "solve");
    BURN_CHECK_KIND(a.rank() >= 2 && b.rank() == a.rank(), shape,
                    "[solve] needs a [..., n, n] and b [..., n, k] of one rank, got ", describe(a), " and ",
                    describe(b), "; unsqueeze a vector b to [..., n, 1]");
    for (int d = 0; d < a.rank() - 1; ++d)
        BURN_CHECK_KIND(a.shape()[d] == b.shape()[d], shape, "[solve] a ", describe(a), " and b ",
                        describe(b), " differ in dim ", d,
                        "; b must be [..., n, k] with a's batch dims and n (expand them first)");
    autodiff::CustomOp op;
    op.name = "solve";
    op.forward = [](const std::vector<TensorAny>& in) {
        return std::vector<TensorAny>{solve_forward(in[0], in[1])};
    };
    op.backward = [](const std::vector<TensorAny>& in, const std::vector<TensorAny>& out,
                     const std::vector<TensorAny>& g) -> std::vector<TensorAny> {
        if (!g[0].defined()) return {TensorAny(), TensorAny()};
        TensorAny gb = solve_forward(swap_last_two(in[0]), g[0]);  // A^T gB = g
        TensorAny ga = neg(matmul(gb, swap_last_two(out[0])));     // gA = -gB Z^T
        return {std::move(ga), std::move(gb)};
    };
    return first_output(autodiff::apply(op, {std::move(a), std::move(b)}));
}

TensorAny cholesky(TensorAny x) {
    HostMats a = read_host_mats(x, "cholesky", true);
    const int64_t n = a.n;
    std::vector<double> out(a.v.size(), 0.0);
    for (int64_t b = 0; b < a.batch; ++b) {
        const int64_t bad = linalg_host::cholesky(a.v.data() + b * n * n, n, out.data() + b * n * n);
        BURN_CHECK(bad == 0, "[cholesky] matrix ", b, " of ", describe(x),
                   " is not positive-definite: its leading minor of order ", bad,
                   " is not positive; cholesky needs a symmetric positive-definite matrix");
    }
    return host_to_tensor(std::move(out), x.shape(), x);
}

std::pair<TensorAny, TensorAny> lu_factor(TensorAny x) {
    HostLus f = lu_factors(x, "lu_factor");
    const int64_t n = f.a.n;
    std::vector<int64_t> piv;
    for (const auto& p : f.piv)
        for (int64_t v : p) piv.push_back(v + 1);  // LAPACK's (and torch's) 1-based pivots
    TensorAny pivots = from_data(TensorData(piv, shape_with_last(x, n, -1)).convert(DType::i32), x.device());
    return {host_to_tensor(std::move(f.a.v), x.shape(), x), std::move(pivots)};
}

LuResult lu(TensorAny x) {
    HostLus f = lu_factors(x, "lu");
    const int64_t n = f.a.n;
    std::vector<double> p(f.a.v.size(), 0.0), l(f.a.v.size(), 0.0), u(f.a.v.size(), 0.0);
    for (int64_t b = 0; b < f.a.batch; ++b) {
        const double* a = f.a.v.data() + b * n * n;
        const int64_t o = b * n * n;
        std::vector<int64_t> rows(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i) rows[static_cast<std::size_t>(i)] = i;
        for (int64_t k = 0; k < n; ++k)
            std::swap(rows[static_cast<std::size_t>(k)],
                      rows[static_cast<std::size_t>(
                          f.piv[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)])]);
        for (int64_t i = 0; i < n; ++i) {
            p[static_cast<std::size_t>(o + rows[static_cast<std::size_t>(i)] * n + i)] = 1;  // x = P L U
            for (int64_t j = 0; j < n; ++j) {
                const double v = a[i * n + j];
                if (j < i)
                    l[static_cast<std::size_t>(o + i * n + j)] = v;
                else
                    u[static_cast<std::size_t>(o + i * n + j)] = v;
            }
            l[static_cast<std::size_t>(o + i * n + i)] = 1;
        }
    }
    return {host_to_tensor(std::move(p), x.shape(), x), host_to_tensor(std::move(l), x.shape(), x),
            host_to_tensor(std::move(u), x.shape(), x)};
}

std::pair<TensorAny, TensorAny> qr(TensorAny x) {
    HostMats a = read_host_mats(x, "qr", false);
    const int64_t m = a.m, n = a.n, k = m < n ? m : n;
    std::vector<double> q(static_cast<std::size_t>(a.batch * m * k)),
        r(static_cast<std::size_t>(a.batch * k * n));
    for (int64_t b = 0; b < a.batch; ++b)
        linalg_host::qr(a.v.data() + b * m * n, m, n, q.data() + b * m * k, r.data() + b * k * n);
    if (a.batch == 0) {  // an empty matrix or batch: shapes only (zeros)
        q.assign(static_cast<std::size_t>(shape_with_last(x, m, k).numel()), 0.0);
        r.assign(static_cast<std::size_t>(shape_with_last(x, k, n).numel()), 0.0);
    }
    return {host_to_tensor(std::move(q), shape_with_last(x, m, k), x),
            host_to_tensor(std::move(r), shape_with_last(x, k, n), x)};
}

}  // namespace burn::ops
