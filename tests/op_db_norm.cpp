// Op-database entries of the fused layer_norm and cross_entropy ops and their adjoints, each against
// a naive float64 loop: layer_norm (y), layer_norm_stats (mean and rstd), layer_norm_backward (dx,
// dgamma and dbeta flattened and concatenated), cross_entropy (per-row loss), cross_entropy_lse and
// cross_entropy_backward.
#include <cmath>
#include <optional>

#include "op_db.hpp"
#include "ops/fused_nn.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

Tol norm_tol(DType d) {
    if (d == DType::f32) return {2e-5, 2e-5};
    return default_tol(d);
}

// ---- layer_norm: args.ints = {has_gamma, has_beta, rms}, args.reals = {eps}; inputs {x, (gamma), (beta)}.
// rms = 1: RMSNorm (no centring; nn::RmsNorm).

bool rms_of(A a) {
    return a.ints.size() > 2 && a.ints[2] != 0;
}

struct LnParams {
    std::optional<TensorAny> gamma, beta;
};

LnParams ln_params(V in, A a, std::size_t first) {
    LnParams p;
    std::size_t k = first;
    if (a.ints.at(0)) p.gamma = in.at(k++);
    if (a.ints.at(1)) p.beta = in.at(k++);
    return p;
}

/// The reference: y (and mean, rstd per row) in float64.
struct LnRef {
    ref::Host y;
    std::vector<double> mean, rstd;
};

LnRef ln_reference(In in, A a, std::size_t first) {
    ref::Host x = ref::host(in[0]);
    std::size_t k = first;
    const bool hg = a.ints.at(0) != 0, hb = a.ints.at(1) != 0;
    ref::Host g = hg ? ref::host(in[k++]) : ref::Host{};
    ref::Host b = hb ? ref::host(in[k++]) : ref::Host{};
    const int64_t d = x.shape.back();
    int64_t rows = 1;
    for (int i = 0; i + 1 < x.rank(); ++i) rows *= x.shape[i];
    LnRef r{ref::filled(x.shape, 0.0), {}, {}};
    for (int64_t row = 0; row < rows; ++row) {
        double m = 0, v = 0;
        for (int64_t j = 0; j < d; ++j) m += x.v[static_cast<std::size_t>(row * d + j)];
        m = d && !rms_of(a) ? m / static_cast<double>(d) : 0;
        for (int64_t j = 0; j < d; ++j) {
            const double t = x.v[static_cast<std::size_t>(row * d + j)] - m;
            v += t * t;
        }
        v = d ? v / static_cast<double>(d) : 0;
        const double rs = 1 / std::sqrt(v + a.reals.at(0));
        r.mean.push_back(m);
        r.rstd.push_back(rs);
        for (int64_t j = 0; j < d; ++j) {
            const auto i = static_cast<std::size_t>(row * d + j);
            double h = (x.v[i] - m) * rs;
            if (hg) h *= g.v[static_cast<std::size_t>(j)];
            if (hb) h += b.v[static_cast<std::size_t>(j)];
            r.y.v[i] = h;
        }
    }
    return r;
}

std::vector<Sample> ln_samples(DType dt, bool with_params) {
    InputGen g{"layer_norm", dt};
    auto s = [&](Tag tag, Dims shape, bool hg, bool hb, double eps, bool rms = false) {
        std::vector<TensorData> in{g(shape)};
        const Dims p{shape.back()};
        if (with_params && hg) in.push_back(g(p));
        if (with_params && hb) in.push_back(g(p));
        return sample(tag, std::move(in), {hg ? 1 : 0, hb ? 1 : 0, rms ? 1 : 0}, {eps},
                      "{has_gamma, has_beta, rms}; {eps}");
    };
    return {s(Tag::basic, {2, 3}, true, true, 1e-5),           s(Tag::basic, {2, 3, 4}, true, false, 1e-5),
            s(Tag::basic, {3, 5}, false, false, 0.1),          s(Tag::basic, {4, 6}, false, true, 1e-3),
            s(Tag::basic, {40, 24}, true, true, 1e-5),         s(Tag::empty, {0, 3}, true, true, 1e-5),
            s(Tag::scalar, {1, 1}, true, true, 1e-5),          s(Tag::basic, {3, 8}, true, false, 1e-5, true),
            s(Tag::basic, {2, 2, 5}, false, false, 1e-2, true)};
}

void add_layer_norm(std::vector<OpEntry>& db) {
    OpEntry e = entry("layer_norm", {OpId::layer_norm}, kFloat);
    e.samples = [](DType dt) { return ln_samples(dt, true); };
    e.forward = [](V in, A a) {
        LnParams p = ln_params(in, a, 1);
        if (rms_of(a)) return ops::layer_norm_stats(in[0], p.gamma, p.beta, a.reals[0], true)[0];
        return ops::layer_norm(in[0], p.gamma, p.beta, a.reals[0]);
    };
    e.reference = [](In in, A a) { return ref::to_data(ln_reference(in, a, 1).y, value_dtype(a.dtype)); };
    e.tol = norm_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    auto x = [](const Device& d, Dims s, DType dt = DType::f32) { return ops::full(s, 1, dt, d); };
    e.bad.push_back(bad("gamma of another length", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(x(d, {2, 3}), x(d, {4}), std::nullopt, 1e-5);
    }));
    e.bad.push_back(bad("beta of rank 2", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(x(d, {2, 3}), x(d, {3}), x(d, {1, 3}), 1e-5);
    }));
    e.bad.push_back(bad("gamma of another dtype", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(x(d, {2, 3}), x(d, {3}, DType::f64), std::nullopt, 1e-5);
    }));
    e.bad.push_back(bad("int input", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(x(d, {2, 3}, DType::i32), std::nullopt, std::nullopt, 1e-5);
    }));
    e.bad.push_back(bad("rank 0 input", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(ops::reshape(x(d, {1}), Dims{}), std::nullopt, std::nullopt, 1e-5);
    }));
    e.bad.push_back(bad("negative eps", "[layer_norm]", [x](const Device& d) {
        ops::layer_norm(x(d, {2, 3}), std::nullopt, std::nullopt, -1.0);
    }));
    db.push_back(std::move(e));

    // The statistics outputs, mean then rstd (f32 for f16/bf16 inputs).
    OpEntry s = entry("layer_norm_stats", {OpId::layer_norm}, kFloat);
    s.samples = [](DType dt) { return ln_samples(dt, true); };
    s.forward = [](V in, A a) {
        LnParams p = ln_params(in, a, 1);
        auto r = ops::layer_norm_stats(in[0], p.gamma, p.beta, a.reals[0], rms_of(a));
        return ops::cat({r[1], r[2]}, 0);
    };
    s.reference = [](In in, A a) {
        LnRef r = ln_reference(in, a, 1);
        std::vector<double> v = r.mean;
        v.insert(v.end(), r.rstd.begin(), r.rstd.end());
        return ref::make_data(Dims{static_cast<int64_t>(v.size())}, v, DType::f64);
    };
    s.out_dtype = [](A a) { return ops::fused_stat_dtype(a.dtype); };
    s.tol = norm_tol;
    s.differentiable = true;  // the composed gradients of the statistics
    s.grad_inputs = {0};
    s.bad.push_back(bad("undefined input", "[layer_norm]", [](const Device&) {
        ops::layer_norm_stats(TensorAny(), std::nullopt, std::nullopt, 1e-5);
    }));
    db.push_back(std::move(s));
}

// ---- layer_norm_backward: inputs {g, x, (gamma)}; mean and rstd from layer_norm itself

void add_layer_norm_backward(std::vector<OpEntry>& db) {
    OpEntry e = entry("layer_norm_backward", {OpId::layer_norm_backward}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"layer_norm_backward", dt};
        auto s = [&](Tag tag, Dims shape, bool hg, bool rms = false) {
            std::vector<TensorData> in{g(shape), g(shape)};
            if (hg) in.push_back(g(Dims{shape.back()}));
            return sample(tag, std::move(in), {hg ? 1 : 0, 0, rms ? 1 : 0}, {1e-5}, "{has_gamma, 0, rms}");
        };
        // 300 rows: more than one chunk of the blocked column sums on every backend.
        return std::vector<Sample>{s(Tag::basic, {2, 3}, true),         s(Tag::basic, {2, 3, 4}, false),
                                   s(Tag::basic, {300, 5}, true),       s(Tag::basic, {20, 36}, true),
                                   s(Tag::empty, {0, 3}, true),         s(Tag::scalar, {1, 1}, true),
                                   s(Tag::basic, {200, 6}, true, true), s(Tag::basic, {3, 4}, false, true)};
    };
    e.forward = [](V in, A a) {
        std::optional<TensorAny> gamma;
        if (a.ints[0]) gamma = in[2];
        auto st = ops::layer_norm_stats(in[1], gamma, std::nullopt, a.reals[0], rms_of(a));
        auto r = ops::layer_norm_backward(in[0], in[1], st[1], st[2], gamma, true, rms_of(a));
        return ops::cat({flat(r[0]), r[1], r[2]}, 0);
    };
    e.reference = [](In in, A a) {
        Args fa = a;
        fa.ints = {a.ints[0], 0, rms_of(a) ? 1 : 0};
        std::vector<TensorData> fin{in[1]};
        if (a.ints[0]) fin.push_back(in[2]);
        LnRef f = ln_reference(fin, fa, 1);
        ref::Host g = ref::host(in[0]), x = ref::host(in[1]);
        ref::Host gm = a.ints[0] ? ref::host(in[2]) : ref::Host{};
        const int64_t d = x.shape.back();
        const int64_t rows = d ? x.numel() / d : static_cast<int64_t>(f.mean.size());
        std::vector<double> dx(x.v.size()), dg(static_cast<std::size_t>(d)), db(static_cast<std::size_t>(d));
        for (int64_t r = 0; r < rows; ++r) {
            double s1 = 0, s2 = 0;
            const double m = f.mean[static_cast<std::size_t>(r)], rs = f.rstd[static_cast<std::size_t>(r)];
            for (int64_t j = 0; j < d; ++j) {
                const auto i = static_cast<std::size_t>(r * d + j);
                const double xh = (x.v[i] - m) * rs;
                const double gh = g.v[i] * (a.ints[0] ? gm.v[static_cast<std::size_t>(j)] : 1.0);
                s1 += gh;
                s2 += gh * xh;
                dg[static_cast<std::size_t>(j)] += g.v[i] * xh;
                db[static_cast<std::size_t>(j)] += g.v[i];
            }
            for (int64_t j = 0; j < d; ++j) {
                const auto i = static_cast<std::size_t>(r * d + j);
                const double xh = (x.v[i] - m) * rs;
                const double gh = g.v[i] * (a.ints[0] ? gm.v[static_cast<std::size_t>(j)] : 1.0);
                const double centre = rms_of(a) ? 0.0 : s1 / static_cast<double>(d);
                dx[i] = rs * (gh - centre - xh * s2 / static_cast<double>(d));
            }
        }
        dx.insert(dx.end(), dg.begin(), dg.end());
        dx.insert(dx.end(), db.begin(), db.end());
        return ref::make_data(Dims{static_cast<int64_t>(dx.size())}, dx, value_dtype(a.dtype));
    };
    e.tol = [](DType d) { return d == DType::f32 ? Tol{1e-4, 1e-4} : default_tol(d); };
    auto f = [](const Device& d, Dims s, DType dt = DType::f32) { return ops::full(s, 1, dt, d); };
    e.bad.push_back(bad("gradient of another shape", "[layer_norm_backward]", [f](const Device& d) {
        ops::layer_norm_backward(f(d, {2, 4}), f(d, {2, 3}), f(d, {2}), f(d, {2}), std::nullopt, true);
    }));
    e.bad.push_back(bad("statistics of another length", "[layer_norm_backward]", [f](const Device& d) {
        ops::layer_norm_backward(f(d, {2, 3}), f(d, {2, 3}), f(d, {3}), f(d, {2}), std::nullopt, true);
    }));
    e.bad.push_back(bad("f16 statistics", "[layer_norm_backward]", [f](const Device& d) {
        ops::layer_norm_backward(f(d, {2, 3}, DType::f16), f(d, {2, 3}, DType::f16), f(d, {2}, DType::f16),
                                 f(d, {2}, DType::f16), std::nullopt, true);
    }));
    db.push_back(std::move(e));
}

// ---- cross_entropy: inputs {logits [N, C], targets [N]}; args.reals = {smoothing}

std::vector<Sample> ce_samples(DType dt, const char* name, bool with_g) {
    InputGen g{name, dt};
    auto s = [&](Tag tag, int64_t n, int64_t c, DType it, double smooth) {
        std::vector<TensorData> in;
        if (with_g) in.push_back(g(Dims{n}));
        in.push_back(g(Dims{n, c}));
        in.push_back(g.index(Dims{n}, c, it));
        return sample(tag, std::move(in), {}, {smooth}, "{smoothing}");
    };
    return {s(Tag::basic, 2, 3, DType::i32, 0.0),    s(Tag::basic, 4, 7, DType::i64, 0.1),
            s(Tag::basic, 3, 5, DType::i8, 1.0),     s(Tag::basic, 3, 72, DType::i32, 0.0),
            s(Tag::basic, 2, 1030, DType::i64, 0.2), s(Tag::empty, 0, 4, DType::i32, 0.0),
            s(Tag::scalar, 1, 1, DType::i32, 0.0)};
}

struct CeRef {
    std::vector<double> loss, lse;
    std::vector<std::vector<double>> p;  // softmax rows
};

CeRef ce_reference(const TensorData& logits, const TensorData& targets, double smooth) {
    ref::Host x = ref::host(logits), t = ref::host(targets);
    const int64_t n = x.shape[0], c = x.shape[1];
    CeRef r;
    for (int64_t i = 0; i < n; ++i) {
        double m = -INFINITY, z = 0, sum = 0;
        for (int64_t j = 0; j < c; ++j) m = std::max(m, x.v[static_cast<std::size_t>(i * c + j)]);
        for (int64_t j = 0; j < c; ++j) {
            const double v = x.v[static_cast<std::size_t>(i * c + j)];
            z += std::exp(v - m);
            sum += v;
        }
        const double lse = m + std::log(z);
        const double xt =
            x.v[static_cast<std::size_t>(i * c + static_cast<int64_t>(t.v[static_cast<std::size_t>(i)]))];
        r.lse.push_back(lse);
        r.loss.push_back(lse - (1 - smooth) * xt - smooth * sum / static_cast<double>(c));
        std::vector<double> p;
        for (int64_t j = 0; j < c; ++j) p.push_back(std::exp(x.v[static_cast<std::size_t>(i * c + j)] - lse));
        r.p.push_back(std::move(p));
    }
    return r;
}

TensorData vec_data(const std::vector<double>& v, DType dt) {
    return ref::make_data(Dims{static_cast<int64_t>(v.size())}, v, dt);
}

void add_ce_bad(OpEntry& e, bool backward) {
    const std::string op = backward ? "[cross_entropy_backward]" : "[cross_entropy]";
    auto run = [backward](const Device& d, TensorAny logits, TensorAny targets, double smooth) {
        if (!backward) {
            ops::cross_entropy_rows(logits, targets, smooth);
            return;
        }
        const int64_t n = logits.rank() ? logits.shape()[0] : 1;
        ops::cross_entropy_backward(ops::full({n}, 1, logits.dtype(), d), logits, targets,
                                    ops::full({n}, 0, ops::fused_stat_dtype(logits.dtype()), d), smooth);
    };
    auto f = [](const Device& d, Dims s, DType dt) { return ops::full(s, 0, dt, d); };
    e.bad.push_back(bad("float targets", op, [=](const Device& d) {
        run(d, f(d, {2, 3}, DType::f32), f(d, {2}, DType::f32), 0);
    }));
    e.bad.push_back(bad("targets of another length", op, [=](const Device& d) {
        run(d, f(d, {2, 3}, DType::f32), f(d, {3}, DType::i32), 0);
    }));
    e.bad.push_back(bad("rank-3 logits", op, [=](const Device& d) {
        run(d, f(d, {2, 3, 4}, DType::f32), f(d, {2}, DType::i32), 0);
    }));
    e.bad.push_back(bad("int logits", op, [=](const Device& d) {
        run(d, f(d, {2, 3}, DType::i32), f(d, {2}, DType::i32), 0);
    }));
    e.bad.push_back(bad("smoothing above 1", op, [=](const Device& d) {
        run(d, f(d, {2, 3}, DType::f32), f(d, {2}, DType::i32), 1.5);
    }));
    e.bad.push_back(bad("no classes", op, [=](const Device& d) {
        run(d, f(d, {2, 0}, DType::f32), f(d, {2}, DType::i32), 0);
    }));
    if (!backward)
        e.bad.push_back(bad("target out of range", op, [=](const Device& d) {
            run(d, f(d, {2, 3}, DType::f32), tensor({2}, {0, 3}, DType::i64, d), 0);
        }));
}

void add_cross_entropy(std::vector<OpEntry>& db) {
    for (bool lse : {false, true}) {
        OpEntry e = entry(lse ? "cross_entropy_lse" : "cross_entropy", {OpId::cross_entropy}, kFloat);
        e.samples = [](DType dt) { return ce_samples(dt, "cross_entropy", false); };
        e.forward = [lse](V in, A a) {
            return ops::cross_entropy_rows(in[0], in[1], a.reals[0])[lse ? 1 : 0];
        };
        e.reference = [lse](In in, A a) {
            CeRef r = ce_reference(in[0], in[1], a.reals.at(0));
            return vec_data(lse ? r.lse : r.loss, DType::f64);
        };
        if (lse) e.out_dtype = [](A a) { return ops::fused_stat_dtype(a.dtype); };
        e.tol = norm_tol;
        e.differentiable = true;
        e.grad_inputs = {0};
        add_ce_bad(e, false);
        db.push_back(std::move(e));
    }
    OpEntry e = entry("cross_entropy_backward", {OpId::cross_entropy_backward}, kFloat);
    e.samples = [](DType dt) { return ce_samples(dt, "cross_entropy_backward", true); };
    e.forward = [](V in, A a) {
        auto r = ops::cross_entropy_rows(in[1], in[2], a.reals[0]);
        return ops::cross_entropy_backward(in[0], in[1], in[2], r[1], a.reals[0]);
    };
    e.reference = [](In in, A a) {
        const double s = a.reals.at(0);
        CeRef r = ce_reference(in[1], in[2], s);
        ref::Host g = ref::host(in[0]), t = ref::host(in[2]), x = ref::host(in[1]);
        ref::Host o = ref::filled(x.shape, 0.0);
        const int64_t n = x.shape[0], c = x.shape[1];
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < c; ++j) {
                double v = r.p[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] -
                           s / static_cast<double>(c);
                if (j == static_cast<int64_t>(t.v[static_cast<std::size_t>(i)])) v -= 1 - s;
                o.v[static_cast<std::size_t>(i * c + j)] = v * g.v[static_cast<std::size_t>(i)];
            }
        return ref::to_data(o, value_dtype(a.dtype));
    };
    e.tol = norm_tol;
    add_ce_bad(e, true);
    e.bad.push_back(bad("lse of another dtype", "[cross_entropy_backward]", [](const Device& d) {
        ops::cross_entropy_backward(ops::full({2}, 1, DType::f32, d), ops::full({2, 3}, 0, DType::f32, d),
                                    ops::full({2}, 0, DType::i32, d), ops::full({2}, 0, DType::f64, d), 0);
    }));
    db.push_back(std::move(e));
}

}  // namespace

void add_norm_entries(std::vector<OpEntry>& db) {
    add_layer_norm(db);
    add_layer_norm_backward(db);
    add_cross_entropy(db);
}

}  // namespace burn::opdb
