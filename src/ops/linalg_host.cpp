// Host float64 factorizations for burn::linalg (linalg_host.hpp). Textbook algorithms: LU with partial
// pivoting (Golub and Van Loan 3.4), Cholesky-Banachiewicz, Householder QR with LAPACK's reflector
// convention (dlarfg) so Q and R match LAPACK-based libraries (torch) sign for sign.
#include "ops/linalg_host.hpp"

#include <cmath>
#include <utility>

namespace burn::linalg_host {

int64_t lu_in_place(double* a, int64_t n, std::vector<int64_t>& piv) {
    piv.assign(static_cast<std::size_t>(n), 0);
    int64_t singular = -1;
    for (int64_t k = 0; k < n; ++k) {
        int64_t p = k;
        for (int64_t i = k + 1; i < n; ++i)
            if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k])) p = i;
        piv[static_cast<std::size_t>(k)] = p;
        if (p != k)
            for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
        const double d = a[k * n + k];
        if (d == 0) {
            if (singular < 0) singular = k;
            continue;
        }
        for (int64_t i = k + 1; i < n; ++i) {
            const double f = a[i * n + k] /= d;
            for (int64_t j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
        }
    }
    return singular;
}

double det_of_lu(const double* lu, int64_t n, const std::vector<int64_t>& piv) {
    double d = 1;
    for (int64_t k = 0; k < n; ++k) {
        d *= lu[k * n + k];
        if (piv[static_cast<std::size_t>(k)] != k) d = -d;
    }
    return d;
}

void lu_solve(const double* lu, int64_t n, const std::vector<int64_t>& piv, double* b, int64_t k) {
    for (int64_t i = 0; i < n; ++i) {  // b <- P b, in the order the swaps were made
        const int64_t p = piv[static_cast<std::size_t>(i)];
        if (p != i)
            for (int64_t c = 0; c < k; ++c) std::swap(b[i * k + c], b[p * k + c]);
    }
    for (int64_t i = 0; i < n; ++i)  // L y = b (unit diagonal)
        for (int64_t j = 0; j < i; ++j)
            for (int64_t c = 0; c < k; ++c) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
    for (int64_t i = n - 1; i >= 0; --i) {  // U x = y
        for (int64_t j = i + 1; j < n; ++j)
            for (int64_t c = 0; c < k; ++c) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
        for (int64_t c = 0; c < k; ++c) b[i * k + c] /= lu[i * n + i];
    }
}

int64_t cholesky(const double* a, int64_t n, double* l) {
    for (int64_t i = 0; i < n * n; ++i) l[i] = 0;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
            double s = a[i * n + j];
            for (int64_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
            if (i == j) {
                if (!(s > 0)) return i + 1;  // NaN fails too
                l[i * n + i] = std::sqrt(s);
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    return 0;
}

void qr(const double* a, int64_t m, int64_t n, double* q, double* r_out) {
    const int64_t k = m < n ? m : n;
    std::vector<double> r(a, a + m * n), full_q(static_cast<std::size_t>(m * m), 0.0),
        v(static_cast<std::size_t>(m));
    for (int64_t i = 0; i < m; ++i) full_q[static_cast<std::size_t>(i * m + i)] = 1;
    for (int64_t j = 0; j < k; ++j) {
        const double alpha = r[static_cast<std::size_t>(j * n + j)];
        double tail = 0;  // the norm of the column below the diagonal
        for (int64_t i = j + 1; i < m; ++i) tail = std::hypot(tail, r[static_cast<std::size_t>(i * n + j)]);
        if (tail == 0) continue;  // H = I (dlarfg: tau = 0, the diagonal keeps its sign)
        const double beta = -std::copysign(std::hypot(alpha, tail), alpha);
        const double tau = (beta - alpha) / beta;
        v[static_cast<std::size_t>(j)] = 1;
        for (int64_t i = j + 1; i < m; ++i)
            v[static_cast<std::size_t>(i)] = r[static_cast<std::size_t>(i * n + j)] / (alpha - beta);
        for (int64_t c = j; c < n; ++c) {  // R <- (I - tau v v^T) R on rows j..m
            double s = 0;
            for (int64_t i = j; i < m; ++i)
                s += v[static_cast<std::size_t>(i)] * r[static_cast<std::size_t>(i * n + c)];
            for (int64_t i = j; i < m; ++i)
                r[static_cast<std::size_t>(i * n + c)] -= tau * v[static_cast<std::size_t>(i)] * s;
        }
        r[static_cast<std::size_t>(j * n + j)] = beta;
        for (int64_t i = j + 1; i < m; ++i) r[static_cast<std::size_t>(i * n + j)] = 0;
        for (int64_t row = 0; row < m; ++row) {  // Q <- Q (I - tau v v^T)
            double s = 0;
            for (int64_t i = j; i < m; ++i)
                s += full_q[static_cast<std::size_t>(row * m + i)] * v[static_cast<std::size_t>(i)];
            for (int64_t i = j; i < m; ++i)
                full_q[static_cast<std::size_t>(row * m + i)] -= tau * s * v[static_cast<std::size_t>(i)];
        }
    }
    for (int64_t i = 0; i < m; ++i)
        for (int64_t c = 0; c < k; ++c) q[i * k + c] = full_q[static_cast<std::size_t>(i * m + c)];
    for (int64_t i = 0; i < k; ++i)
        for (int64_t c = 0; c < n; ++c) r_out[i * n + c] = r[static_cast<std::size_t>(i * n + c)];
}

}  // namespace burn::linalg_host
