// Op-database entries of burn::linalg's factorizations and solvers (host float64 composites, `ops` =
// {}): det, inv and solve (with the gradcheck of their CustomOp backward rules), cholesky, lu (p, l and
// u side by side), lu_factor's pivots and qr (signs normalised so R's diagonal is positive; the LAPACK
// sign convention is pinned by tensor_api2_test). The references are independent float64 loops:
// cofactor expansion for det and inv, Gram-Schmidt for qr.
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_solve {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Mat = std::vector<double>;  // row-major n x n

/// Well-conditioned samples: random values plus shift on the diagonal (spd: m m^T + n I instead).
TensorData matrices(InputGen& g, const Dims& shape, DType dt, bool spd, double shift = 4) {
    ref::Host x = ref::host(g.of(shape, DType::f64));
    const int64_t n = shape[shape.rank() - 1], m = shape[shape.rank() - 2],
                  count = m * n == 0 ? 0 : x.numel() / (m * n);
    for (int64_t b = 0; b < count; ++b) {
        double* a = x.v.data() + b * m * n;
        if (spd) {
            Mat s(static_cast<std::size_t>(n * n), 0.0);
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j) {
                    for (int64_t k = 0; k < n; ++k)
                        s[static_cast<std::size_t>(i * n + j)] += a[i * n + k] * a[j * n + k];
                    if (i == j) s[static_cast<std::size_t>(i * n + j)] += static_cast<double>(n);
                }
            for (int64_t i = 0; i < n * n; ++i) a[i] = s[static_cast<std::size_t>(i)];
        } else if (m == n) {
            for (int64_t i = 0; i < n; ++i) a[i * n + i] += a[i * n + i] < 0 ? -shift : shift;
        }
    }
    return ref::make_data(shape, x.v, dt);
}

/// The determinant by cofactor expansion along the first row.
double cofactor_det(const Mat& a, int64_t n) {
    if (n == 0) return 1;
    if (n == 1) return a[0];
    double d = 0;
    for (int64_t c = 0; c < n; ++c) {
        Mat minor;
        for (int64_t i = 1; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (j != c) minor.push_back(a[static_cast<std::size_t>(i * n + j)]);
        d += (c % 2 ? -1 : 1) * a[static_cast<std::size_t>(c)] * cofactor_det(minor, n - 1);
    }
    return d;
}

/// The inverse as the adjugate over the determinant.
Mat adjugate_inv(const Mat& a, int64_t n) {
    Mat out(static_cast<std::size_t>(n * n));
    const double d = cofactor_det(a, n);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            Mat minor;
            for (int64_t r = 0; r < n; ++r)
                for (int64_t c = 0; c < n; ++c)
                    if (r != j && c != i) minor.push_back(a[static_cast<std::size_t>(r * n + c)]);
            out[static_cast<std::size_t>(i * n + j)] =
                ((i + j) % 2 ? -1 : 1) * cofactor_det(minor, n - 1) / d;
        }
    return out;
}

/// f applied to each [m, n] matrix of x, giving [om, on] matrices.
template <class F>
ref::Host per_matrix(const ref::Host& x, int64_t om, int64_t on, F f) {
    const int r = x.rank();
    const int64_t m = x.shape[r - 2], n = x.shape[r - 1];
    Dims os = x.shape;
    os[r - 2] = om;
    if (on >= 0)
        os[r - 1] = on;
    else
        os = [&] {
            Dims s;
            for (int d = 0; d < r - 1; ++d) s.push_back(d == r - 2 ? om : x.shape[d]);
            return s;
        }();
    const int64_t count = os.numel() / (om * (on >= 0 ? on : 1));
    ref::Host o = ref::filled(os, 0);
    for (int64_t b = 0; b < count; ++b) {
        Mat a(x.v.begin() + b * m * n, x.v.begin() + (b + 1) * m * n);
        Mat res = f(a, m, n);
        std::copy(res.begin(), res.end(), o.v.begin() + b * static_cast<int64_t>(res.size()));
    }
    return o;
}

/// Classical Gram-Schmidt in float64: q with orthonormal columns, r upper with a positive diagonal.
std::pair<Mat, Mat> gram_schmidt(const Mat& a, int64_t m, int64_t n) {
    const int64_t k = std::min(m, n);
    Mat q(static_cast<std::size_t>(m * k), 0.0), r(static_cast<std::size_t>(k * n), 0.0);
    for (int64_t j = 0; j < n; ++j) {
        Mat v(static_cast<std::size_t>(m));
        for (int64_t i = 0; i < m; ++i)
            v[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i * n + j)];
        for (int64_t c = 0; c < std::min(j, k); ++c) {
            double s = 0;
            for (int64_t i = 0; i < m; ++i)
                s += q[static_cast<std::size_t>(i * k + c)] * a[static_cast<std::size_t>(i * n + j)];
            r[static_cast<std::size_t>(c * n + j)] = s;
            for (int64_t i = 0; i < m; ++i)
                v[static_cast<std::size_t>(i)] -= s * q[static_cast<std::size_t>(i * k + c)];
        }
        if (j < k) {
            double nv = 0;
            for (double x : v) nv += x * x;
            nv = std::sqrt(nv);
            r[static_cast<std::size_t>(j * n + j)] = nv;
            for (int64_t i = 0; i < m; ++i)
                q[static_cast<std::size_t>(i * k + j)] = v[static_cast<std::size_t>(i)] / nv;
        }
    }
    return {q, r};
}

Tol loose(DType dt) {
    Tol t = default_tol(dt);
    if (dt == DType::f32) t = {1e-4, 1e-4};  // the result of an f64 factorization rounded to f32
    if (dt == DType::f16 || dt == DType::bf16) t = {3e-2, 3e-2};
    return t;
}

void add_entries(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("det", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"det", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {matrices(g, {3, 3}, dt, false)}),
                sample(Tag::basic, {matrices(g, {2, 2, 2}, dt, false)}),
                sample(Tag::special, {data_of({2, 2}, {1, 2, 2, 4}, dt)}, {}, {}, "singular: 0"),
                sample(Tag::scalar, {matrices(g, {1, 1}, dt, false)}),
                sample(Tag::empty, {data_of({2, 0, 0}, {}, dt)}, {}, {}, "0 x 0: 1")};
        };
        e.forward = [](V in, A) { return ops::det(in[0]); };
        e.reference = [](In in, A) {
            return out(per_matrix(ref::host(in[0]), 1, -1,
                                  [](const Mat& a, int64_t, int64_t n) { return Mat{cofactor_det(a, n)}; }),
                       in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("not square", "[det]", [](const Device& d) { ops::det(f32({2, 3}, d)); }));
        e.bad.push_back(bad("int input", "[det]", [](const Device& d) {
            ops::det(ops::full({2, 2}, 1, DType::i32, d));
        }));
        e.bad.push_back(bad("rank 1", "[det]", [](const Device& d) { ops::det(f32({4}, d)); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("inv", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"inv", dt};
            return std::vector<Sample>{sample(Tag::basic, {matrices(g, {3, 3}, dt, false)}),
                                       sample(Tag::basic, {matrices(g, {2, 2, 2}, dt, false)}),
                                       sample(Tag::scalar, {matrices(g, {1, 1}, dt, false)}),
                                       sample(Tag::empty, {data_of({0, 2, 2}, {}, dt)})};
        };
        e.forward = [](V in, A) { return ops::inv(in[0]); };
        e.reference = [](In in, A) {
            ref::Host x = ref::host(in[0]);
            const int64_t n = x.shape[x.rank() - 1];
            return out(
                per_matrix(x, n, n, [](const Mat& a, int64_t, int64_t k) { return adjugate_inv(a, k); }),
                in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("singular", "[inv]", [](const Device& d) {
            ops::inv(tensor({2, 2}, {1, 2, 2, 4}, DType::f32, d));
        }));
        e.bad.push_back(bad("not square", "[inv]", [](const Device& d) { ops::inv(f32({2, 3}, d)); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("solve", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"solve", dt};
            return std::vector<Sample>{sample(Tag::basic, {matrices(g, {3, 3}, dt, false), g({3, 2})}),
                                       sample(Tag::basic, {matrices(g, {2, 2, 2}, dt, false), g({2, 2, 1})}),
                                       sample(Tag::scalar, {matrices(g, {1, 1}, dt, false), g({1, 1})})};
        };
        e.forward = [](V in, A) { return ops::solve(in[0], in[1]); };
        e.reference = [](In in, A) {
            ref::Host a = ref::host(in[0]), b = ref::host(in[1]);
            const int64_t n = a.shape[a.rank() - 1], k = b.shape[b.rank() - 1];
            ref::Host o = ref::filled(b.shape, 0);
            for (int64_t m = 0; m * n * n < a.numel(); ++m) {
                Mat inv = adjugate_inv(Mat(a.v.begin() + m * n * n, a.v.begin() + (m + 1) * n * n), n);
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t c = 0; c < k; ++c)
                        for (int64_t j = 0; j < n; ++j)
                            o.v[static_cast<std::size_t>(m * n * k + i * k + c)] +=
                                inv[static_cast<std::size_t>(i * n + j)] *
                                b.v[static_cast<std::size_t>(m * n * k + j * k + c)];
            }
            return out(o, in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("rank mismatch", "[solve]", [](const Device& d) {
            ops::solve(f32({2, 2}, d), f32({2}, d));
        }));
        e.bad.push_back(bad("rows mismatch", "[solve]", [](const Device& d) {
            ops::solve(f32({2, 2}, d), f32({3, 1}, d));
        }));
        e.bad.push_back(bad("singular", "[solve]", [](const Device& d) {
            ops::solve(f32({2, 2}, d), f32({2, 1}, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("cholesky", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"cholesky", dt};
            return std::vector<Sample>{sample(Tag::basic, {matrices(g, {3, 3}, dt, true)}),
                                       sample(Tag::basic, {matrices(g, {2, 2, 2}, dt, true)}),
                                       sample(Tag::empty, {data_of({0, 2, 2}, {}, dt)})};
        };
        e.forward = [](V in, A) { return ops::cholesky(in[0]); };
        e.reference = [](In in, A) {  // column by column (Cholesky-Crout), independent of the row order
            ref::Host x = ref::host(in[0]);
            const int64_t n = x.shape[x.rank() - 1];
            return out(per_matrix(x, n, n,
                                  [](const Mat& a, int64_t, int64_t k) {
                                      Mat l(static_cast<std::size_t>(k * k), 0.0);
                                      for (int64_t j = 0; j < k; ++j) {
                                          double s = a[static_cast<std::size_t>(j * k + j)];
                                          for (int64_t p = 0; p < j; ++p)
                                              s -= l[static_cast<std::size_t>(j * k + p)] *
                                                   l[static_cast<std::size_t>(j * k + p)];
                                          l[static_cast<std::size_t>(j * k + j)] = std::sqrt(s);
                                          for (int64_t i = j + 1; i < k; ++i) {
                                              double t = a[static_cast<std::size_t>(i * k + j)];
                                              for (int64_t p = 0; p < j; ++p)
                                                  t -= l[static_cast<std::size_t>(i * k + p)] *
                                                       l[static_cast<std::size_t>(j * k + p)];
                                              l[static_cast<std::size_t>(i * k + j)] =
                                                  t / l[static_cast<std::size_t>(j * k + j)];
                                          }
                                      }
                                      return l;
                                  }),
                       in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("not positive-definite", "[cholesky]", [](const Device& d) {
            ops::cholesky(tensor({2, 2}, {1, 2, 2, 1}, DType::f32, d));
        }));
        db.push_back(std::move(e));
    }
    for (int part = 0; part < 2; ++part) {  // qr's q and r, R's diagonal made positive
        const std::string name = part == 0 ? "qr_q" : "qr_r";
        OpEntry e = entry(name, {}, kFloat);
        e.samples = [name](DType dt) {
            InputGen g{name, dt};
            return std::vector<Sample>{
                sample(Tag::basic, {matrices(g, {3, 3}, dt, false)}),
                sample(Tag::basic, {matrices(g, {4, 2}, dt, false)}, {}, {}, "tall"),
                sample(Tag::basic, {matrices(g, {2, 2, 3}, dt, false)}, {}, {}, "wide, batched")};
        };
        e.forward = [part](V in, A) {
            auto [q, r] = ops::qr(in[0]);
            TensorAny s = ops::sign(ops::diag(r));  // [..., k]
            return part == 0 ? ops::mul(q, ops::unsqueeze_dim(s, -2))
                             : ops::mul(r, ops::unsqueeze_dim(s, -1));
        };
        e.reference = [part](In in, A) {
            ref::Host x = ref::host(in[0]);
            const int64_t m = x.shape[x.rank() - 2], n = x.shape[x.rank() - 1], k = std::min(m, n);
            return out(per_matrix(x, part == 0 ? m : k, part == 0 ? k : n,
                                  [part](const Mat& a, int64_t rm, int64_t rn) {
                                      auto qr = gram_schmidt(a, rm, rn);
                                      return part == 0 ? qr.first : qr.second;
                                  }),
                       in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("rank 1", "[qr]", [](const Device& d) { ops::qr(f32({3}, d)); }));
        db.push_back(std::move(e));
    }
    {
        // lu: p, l and u side by side along the last dim; pivots checked by tensor_api2_test
        OpEntry e = entry("lu", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"lu", dt};
            return std::vector<Sample>{sample(Tag::basic, {matrices(g, {3, 3}, dt, false, 0)}),
                                       sample(Tag::basic, {matrices(g, {2, 2, 2}, dt, false, 0)})};
        };
        e.forward = [](V in, A) {
            ops::LuResult r = ops::lu(in[0]);
            return ops::cat({r.p, r.l, r.u}, -1);
        };
        e.reference = [](In in, A) {  // Doolittle with partial pivoting: P^T x = l u
            ref::Host x = ref::host(in[0]);
            const int64_t n = x.shape[x.rank() - 1];
            return out(
                per_matrix(
                    x, n, 3 * n,
                    [](const Mat& a0, int64_t, int64_t k) {
                        Mat a = a0, l(static_cast<std::size_t>(k * k), 0.0),
                            p(static_cast<std::size_t>(k * k), 0.0);
                        std::vector<int64_t> rows(static_cast<std::size_t>(k));
                        for (int64_t i = 0; i < k; ++i) rows[static_cast<std::size_t>(i)] = i;
                        for (int64_t c = 0; c < k; ++c) {
                            int64_t best = c;
                            for (int64_t i = c + 1; i < k; ++i)
                                if (std::fabs(a[static_cast<std::size_t>(i * k + c)]) >
                                    std::fabs(a[static_cast<std::size_t>(best * k + c)]))
                                    best = i;
                            for (int64_t j = 0; j < k; ++j) {
                                std::swap(a[static_cast<std::size_t>(c * k + j)],
                                          a[static_cast<std::size_t>(best * k + j)]);
                                std::swap(l[static_cast<std::size_t>(c * k + j)],
                                          l[static_cast<std::size_t>(best * k + j)]);
                            }
                            std::swap(rows[static_cast<std::size_t>(c)],
                                      rows[static_cast<std::size_t>(best)]);
                            for (int64_t i = c + 1; i < k; ++i) {
                                const double f = a[static_cast<std::size_t>(i * k + c)] /
                                                 a[static_cast<std::size_t>(c * k + c)];
                                l[static_cast<std::size_t>(i * k + c)] = f;
                                for (int64_t j = 0; j < k; ++j)
                                    a[static_cast<std::size_t>(i * k + j)] -=
                                        f * a[static_cast<std::size_t>(c * k + j)];
                            }
                        }
                        Mat o(static_cast<std::size_t>(3 * k * k), 0.0);
                        for (int64_t i = 0; i < k; ++i) {
                            o[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)] * 3 * k + i)] =
                                1;  // p[rows[i]][i]
                            for (int64_t j = 0; j < k; ++j) {
                                o[static_cast<std::size_t>(i * 3 * k + k + j)] =
                                    i == j ? 1 : (j < i ? l[static_cast<std::size_t>(i * k + j)] : 0);
                                o[static_cast<std::size_t>(i * 3 * k + 2 * k + j)] =
                                    j >= i ? a[static_cast<std::size_t>(i * k + j)] : 0;
                            }
                        }
                        return o;
                    }),
                in[0].dtype());
        };
        e.tol = loose;
        e.bad.push_back(bad("not square", "[lu]", [](const Device& d) { ops::lu(f32({2, 3}, d)); }));
        db.push_back(std::move(e));
    }
}

}  // namespace api_solve

void add_api_solve_entries(std::vector<OpEntry>& db) {
    api_solve::add_entries(db);
}

}  // namespace burn::opdb
