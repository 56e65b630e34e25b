// Op-database entries of the composite linear algebra of issue 20 (burn::linalg; no rows of its own,
// so `ops` is {}): dot, outer, matvec, diag, trace and vector_norm. References are naive float64 loops.
#include <algorithm>
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_linalg {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The diagonal of the last two dims of x.
ref::Host diagonal(const ref::Host& x) {
    const int r = x.rank();
    const int64_t rows = x.shape[r - 2], cols = x.shape[r - 1], k = std::min(rows, cols);
    Dims os;
    for (int d = 0; d < r - 2; ++d) os.push_back(x.shape[d]);
    os.push_back(k);
    ref::Host o = ref::filled(os, 0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, os);
        idx.push_back(idx.back());
        o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
    }
    return o;
}

std::vector<Sample> matrix_samples(const std::string& name, DType dt) {
    InputGen g{name, dt};
    return {sample(Tag::basic, {g({3, 3})}),  sample(Tag::basic, {g({2, 3})}),
            sample(Tag::basic, {g({3, 2})}),  sample(Tag::basic, {g({2, 3, 4})}),
            sample(Tag::scalar, {g({1, 1})}), sample(Tag::empty, {g({0, 3})})};
}

void add_entries(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("dot", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"dot", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({5}, Domain::small), g({5}, Domain::small)}),
                                       sample(Tag::scalar, {g({1}), g({1})}),
                                       sample(Tag::empty, {g({0}), g({0})})};
        };
        e.forward = [](V in, A) { return ops::dot(in[0], in[1]); };
        e.reference = [](In in, A) {
            ref::Host a = ref::host(in[0]), b = ref::host(in[1]);
            double s = 0;
            for (std::size_t i = 0; i < a.v.size(); ++i) s += a.v[i] * b.v[i];
            return out(ref::Host{Dims{1}, {s}}, in[0].dtype());
        };
        e.bad.push_back(
            bad("lengths 3 and 4", "[dot]", [](const Device& d) { ops::dot(f32({3}, d), f32({4}, d)); }));
        e.bad.push_back(bad("matrices", "[dot]", [](const Device& d) {
            ops::dot(f32({2, 2}, d), f32({2, 2}, d));
        }));
        e.bad.push_back(bad("dtypes differ", "[dot]", [](const Device& d) {
            ops::dot(f32({3}, d), ops::full({3}, 1, DType::f64, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("outer", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"outer", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({3}, Domain::small), g({4}, Domain::small)}),
                                       sample(Tag::scalar, {g({1}), g({1})}),
                                       sample(Tag::empty, {g({0}), g({3})})};
        };
        e.forward = [](V in, A) { return ops::outer(in[0], in[1]); };
        e.reference = [](In in, A) {
            ref::Host a = ref::host(in[0]), b = ref::host(in[1]);
            ref::Host o = ref::filled(Dims{a.numel(), b.numel()}, 0);
            for (int64_t i = 0; i < a.numel(); ++i)
                for (int64_t j = 0; j < b.numel(); ++j)
                    o.v[static_cast<std::size_t>(i * b.numel() + j)] =
                        a.v[static_cast<std::size_t>(i)] * b.v[static_cast<std::size_t>(j)];
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("a matrix", "[outer]", [](const Device& d) {
            ops::outer(f32({2, 2}, d), f32({2}, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("matvec", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"matvec", dt};
            const Domain s = Domain::small;
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3}, s), g({3}, s)}),
                                       sample(Tag::basic, {g({2, 2, 3}, s), g({2, 3}, s)}),
                                       sample(Tag::broadcast, {g({1, 2, 3}, s), g({2, 3}, s)}),
                                       sample(Tag::scalar, {g({1, 1}), g({1})}),
                                       sample(Tag::empty, {g({0, 3}), g({3})})};
        };
        e.forward = [](V in, A) { return ops::matvec(in[0], in[1]); };
        e.reference = [](In in, A) {
            ref::Host m = ref::host(in[0]), v = ref::host(in[1]);
            const int r = m.rank();
            const int64_t rows = m.shape[r - 2], cols = m.shape[r - 1];
            Dims os;
            for (int d = 0; d < r - 2; ++d) os.push_back(std::max(m.shape[d], v.shape[d]));
            os.push_back(rows);
            ref::Host o = ref::filled(os, 0);
            for (int64_t k = 0; k < o.numel(); ++k) {
                auto idx = ref::unravel(k, os);
                double s = 0;
                for (int64_t c = 0; c < cols; ++c) {
                    auto mi = idx;
                    mi.push_back(c);
                    auto vi = idx;
                    vi.back() = c;
                    s += ref::at_broadcast(m, mi) * ref::at_broadcast(v, vi);
                }
                o.v[static_cast<std::size_t>(k)] = s;
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("3 columns, length 2", "[matvec]", [](const Device& d) {
            ops::matvec(f32({2, 3}, d), f32({2}, d));
        }));
        e.bad.push_back(bad("vector of rank 2", "[matvec]", [](const Device& d) {
            ops::matvec(f32({2, 3}, d), f32({1, 3}, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    for (const bool tr : {false, true}) {
        const std::string name = tr ? "trace" : "diag";
        OpEntry e = entry(name, {}, kNumeric);
        e.samples = [name](DType dt) { return matrix_samples(name, dt); };
        e.forward = [tr](V in, A) { return tr ? ops::trace(in[0]) : ops::diag(in[0]); };
        e.reference = [tr](In in, A) {
            ref::Host dg = diagonal(ref::host(in[0]));
            if (!tr) return out(dg, in[0].dtype());
            const int r = dg.rank();
            return out(ref::reduce_dim(dg, r - 1, [](const std::vector<double>& l) { return ref::sum(l); }),
                       in[0].dtype());
        };
        e.bad.push_back(bad("a vector", "[" + name + "]", [tr](const Device& d) {
            (void)(tr ? ops::trace(f32({3}, d)) : ops::diag(f32({3}, d)));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (const bool extremes : {false, true}) {  // reals = {p}; ints = {dim}
        const std::string name = extremes ? "vector_norm_extremes" : "vector_norm";
        OpEntry e = entry(name, {}, kFloat);
        e.samples = [name, extremes](DType dt) {
            InputGen g{name, dt};
            std::vector<double> ps =
                extremes ? std::vector<double>{0, INFINITY, -INFINITY} : std::vector<double>{1, 2, 3, 0.5};
            std::vector<Sample> s;
            for (double p : ps) {
                s.push_back(sample(Tag::basic, {g({2, 3}, Domain::nonzero)}, {1}, {p}));
                s.push_back(sample(Tag::basic, {g({2, 3, 4}, Domain::nonzero)}, {0}, {p}));
            }
            s.push_back(sample(Tag::scalar, {g({1}, Domain::nonzero)}, {0}, {ps[0]}));
            s.push_back(sample(Tag::empty, {g({0, 3}, Domain::nonzero)}, {1}, {ps[1]}));
            if (extremes)
                s.push_back(sample(Tag::special, {data_of({4}, {0, -2, 0, 1}, dt)}, {0}, {0}, "zeros"));
            return s;
        };
        e.forward = [](V in, A a) { return ops::vector_norm(in[0], a.reals[0], a.ints[0]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const double p = a.reals[0];
            ref::Host o =
                ref::reduce_dim(x, ref::norm_dim(a.ints[0], x.rank()), [p](const std::vector<double>& l) {
                    double acc = p == -INFINITY ? INFINITY : 0;
                    for (double v : l) {
                        const double m = std::fabs(v);
                        if (p == 0)
                            acc += v != 0;
                        else if (p == INFINITY)
                            acc = std::max(acc, m);
                        else if (p == -INFINITY)
                            acc = std::min(acc, m);
                        else
                            acc += std::pow(m, p);
                    }
                    return p == 0 || std::isinf(p) ? acc : std::pow(acc, 1 / p);
                });
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("int input", "[vector_norm]", [](const Device& d) {
            ops::vector_norm(ops::full({2}, 1, DType::i32, d), 2, 0);
        }));
        e.bad.push_back(bad("NaN order", "[vector_norm]",
                            [](const Device& d) { ops::vector_norm(f32({2}, d), NAN, 0); }));
        e.bad.push_back(bad("dim 2 of rank 2", "[vector_norm]", [](const Device& d) {
            ops::vector_norm(f32({2, 3}, d), 2, 2);
        }));
        e.differentiable = !extremes;
        if (!extremes) e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

/// cross along dim (ints {dim}) and cosine_similarity (ints {dim}, reals {eps}): per-lane references.
void add_vector_products(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("cross", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"cross", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({3}, Domain::small), g({3}, Domain::small)}, {0}),
                sample(Tag::basic, {g({2, 3}, Domain::small), g({2, 3}, Domain::small)}, {-1}),
                sample(Tag::broadcast, {g({3, 1, 2}, Domain::small), g({3, 4, 2}, Domain::small)}, {0}),
                sample(Tag::empty, {g({0, 3}), g({0, 3})}, {1})};
        };
        e.forward = [](V in, A a) { return ops::cross(in[0], in[1], a.ints[0]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), y = ref::host(in[1]);
            const Dims s = ref::broadcast(x.shape, y.shape);
            const int d = ref::norm_dim(a.ints[0], s.rank());
            ref::Host o = ref::filled(s, 0);
            for (int64_t i = 0; i < s.numel(); ++i) {
                auto idx = ref::unravel(i, s);
                const int64_t c = idx[static_cast<std::size_t>(d)];
                auto get = [&](const ref::Host& h, int64_t k) {
                    auto j = idx;
                    j[static_cast<std::size_t>(d)] = k;
                    return ref::at_broadcast(h, j);
                };
                const int64_t p = (c + 1) % 3, q = (c + 2) % 3;  // (a x b)_c = a_p b_q - a_q b_p
                o.v[static_cast<std::size_t>(i)] = get(x, p) * get(y, q) - get(x, q) * get(y, p);
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("dim of size 2", "[cross]",
                            [](const Device& d) { ops::cross(f32({2}, d), f32({2}, d), 0); }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("cosine_similarity", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"cosine_similarity", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 5}), g({2, 5})}, {1}, {1e-8}),
                sample(Tag::basic, {g({3, 2, 4}), g({3, 2, 4})}, {0}, {1e-8}),
                sample(Tag::special, {data_of({2, 2}, {0, 0, 1, 2}, dt), data_of({2, 2}, {1, 1, 3, 4}, dt)},
                       {-1}, {1e-3}, "a zero row gives 0")};
        };
        e.forward = [](V in, A a) { return ops::cosine_similarity(in[0], in[1], a.ints[0], a.reals[0]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), y = ref::host(in[1]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            const double eps = a.reals[0];
            ref::Host o = ref::filled(
                [&] {
                    Dims s = x.shape;
                    s[d] = 1;
                    return s;
                }(),
                0);
            for (int64_t i = 0; i < o.numel(); ++i) {
                auto idx = ref::unravel(i, o.shape);
                double xy = 0, xx = 0, yy = 0;
                for (int64_t k = 0; k < x.shape[d]; ++k) {
                    idx[static_cast<std::size_t>(d)] = k;
                    const double u = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
                    const double v = y.v[static_cast<std::size_t>(ref::ravel(idx, y.shape))];
                    xy += u * v, xx += u * u, yy += v * v;
                }
                o.v[static_cast<std::size_t>(i)] =
                    xy / (std::max(std::sqrt(xx), eps) * std::max(std::sqrt(yy), eps));
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("shapes differ", "[cosine_similarity]", [](const Device& d) {
            ops::cosine_similarity(f32({2, 3}, d), f32({2, 4}, d), 1, 1e-8);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
}

}  // namespace api_linalg

void add_api_linalg_entries(std::vector<OpEntry>& db) {
    api_linalg::add_entries(db);
    api_linalg::add_vector_products(db);
}

}  // namespace burn::opdb
