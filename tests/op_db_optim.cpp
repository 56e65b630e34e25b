// Op-database entry of the fused optimizer ops: adam_step (its three outputs flattened and
// concatenated, so that one reference checks them all).
#include <cmath>

#include "op_db.hpp"
#include "ops/optim_ops.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

// reals = {beta_1, beta_2, step_size, eps, decay, l2}
ops::AdamStepHyper hyper_of(const std::vector<double>& r) {
    return {r.at(0), r.at(1), r.at(2), r.at(3), r.at(4), r.at(5)};
}

}  // namespace

void add_optim_entries(std::vector<OpEntry>& db) {
    OpEntry e = entry("adam_step", {OpId::adam_step}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"adam_step", dt};
        const std::vector<double> adam{0.9, 0.999, 0.01, 1e-3, 1.0, 0.1};    // L2 weight decay
        const std::vector<double> adamw{0.8, 0.99, 0.05, 1e-2, 0.995, 0.0};  // decoupled weight decay
        auto state = [&](const Dims& s) {
            // param, grad, exp_avg (any sign), exp_avg_sq (a second moment: positive)
            return std::vector<TensorData>{g(s), g(s), g(s, Domain::small), g(s, Domain::positive)};
        };
        return std::vector<Sample>{sample(Tag::basic, state({2, 3}), {}, adam, "adam"),
                                   sample(Tag::basic, state({2, 3, 4}), {}, adamw, "adamw"),
                                   sample(Tag::scalar, state({1}), {}, adam, "adam"),
                                   sample(Tag::empty, state({0, 3}), {}, adamw, "adamw")};
    };
    e.forward = [](V in, A a) {
        auto r = ops::adam_step(in[0], in[1], in[2], in[3], hyper_of(a.reals));
        return ops::cat({flat(r[0]), flat(r[1]), flat(r[2])}, 0);
    };
    e.reference = [](In in, A a) {
        ref::Host p = ref::host(in[0]), g = ref::host(in[1]), m = ref::host(in[2]), v = ref::host(in[3]);
        const auto& h = a.reals;
        const std::size_t n = p.v.size();
        ref::Host o = ref::filled(Dims{static_cast<int64_t>(3 * n)}, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            double gi = g.v[i] + h[5] * p.v[i];
            double mi = h[0] * m.v[i] + (1 - h[0]) * gi;
            double vi = h[1] * v.v[i] + (1 - h[1]) * gi * gi;
            o.v[i] = h[4] * p.v[i] - h[2] * mi / (std::sqrt(vi) + h[3]);
            o.v[n + i] = mi;
            o.v[2 * n + i] = vi;
        }
        return ref::to_data(o, value_dtype(a.dtype));
    };
    auto call = [](const Device& d, Dims gs, DType gdt, Dims vs, ops::AdamStepHyper h) {
        ops::adam_step(ops::full({2, 3}, 1, DType::f32, d), ops::full(gs, 1, gdt, d),
                       ops::full({2, 3}, 0, DType::f32, d), ops::full(vs, 0, DType::f32, d), h);
    };
    e.bad.push_back(bad("grad of another shape", "[adam_step]", [call](const Device& d) {
        call(d, {3, 2}, DType::f32, {2, 3}, {});
    }));
    e.bad.push_back(bad("state of another shape", "[adam_step]", [call](const Device& d) {
        call(d, {2, 3}, DType::f32, {6}, {});
    }));
    e.bad.push_back(bad("grad of another dtype", "[adam_step]", [call](const Device& d) {
        call(d, {2, 3}, DType::f64, {2, 3}, {});
    }));
    e.bad.push_back(bad("negative eps", "[adam_step]", [call](const Device& d) {
        call(d, {2, 3}, DType::f32, {2, 3}, {0.9, 0.999, 1e-3, -1e-8, 1.0, 0.0});
    }));
    e.bad.push_back(bad("int tensors", "[adam_step]", [](const Device& d) {
        auto x = ops::full({2}, 1, DType::i32, d);
        ops::adam_step(x, x, x, x, {});
    }));
    e.bad.push_back(bad("undefined state", "[adam_step]", [](const Device& d) {
        auto x = ops::full({2}, 1, DType::f32, d);
        ops::adam_step(x, x, TensorAny(), x, {});
    }));
    db.push_back(std::move(e));

    // adam_step_multi over two tensors: inputs {p0, p1, g0, g1, m0, m1, v0, v1}; the reference is
    // adam_step's on the tensors concatenated (the op's flat outputs are exactly that).
    OpEntry multi = entry("adam_step_multi", {OpId::adam_step_multi}, kFloat);
    multi.samples = [](DType dt) {
        InputGen g{"adam_step_multi", dt};
        const std::vector<double> adamw{0.8, 0.99, 0.05, 1e-2, 0.995, 0.1};
        auto two = [&](const Dims& a, const Dims& b) {
            return std::vector<TensorData>{g(a),
                                           g(b),
                                           g(a),
                                           g(b),
                                           g(a, Domain::small),
                                           g(b, Domain::small),
                                           g(a, Domain::positive),
                                           g(b, Domain::positive)};
        };
        return std::vector<Sample>{sample(Tag::basic, two({2, 3}, {4}), {}, adamw, "adamw"),
                                   sample(Tag::empty, two({0, 3}, {1}), {}, adamw, "adamw")};
    };
    multi.forward = [](V in, A a) {
        auto r = ops::adam_step_multi({in[0], in[1]}, {in[2], in[3]}, {in[4], in[5]}, {in[6], in[7]},
                                      hyper_of(a.reals));
        return ops::cat({r[0], r[1], r[2]}, 0);
    };
    multi.reference = [](In in, A a) {
        std::vector<double> p, g, m, v;
        for (int t = 0; t < 2; ++t) {
            auto add = [&](std::vector<double>& to, int k) {
                const ref::Host h = ref::host(in[static_cast<std::size_t>(2 * k + t)]);
                to.insert(to.end(), h.v.begin(), h.v.end());
            };
            add(p, 0), add(g, 1), add(m, 2), add(v, 3);
        }
        const auto& h = a.reals;
        const std::size_t n = p.size();
        ref::Host o = ref::filled(Dims{static_cast<int64_t>(3 * n)}, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            double gi = g[i] + h[5] * p[i];
            double mi = h[0] * m[i] + (1 - h[0]) * gi;
            double vi = h[1] * v[i] + (1 - h[1]) * gi * gi;
            o.v[i] = h[4] * p[i] - h[2] * mi / (std::sqrt(vi) + h[3]);
            o.v[n + i] = mi;
            o.v[2 * n + i] = vi;
        }
        return ref::to_data(o, value_dtype(a.dtype));
    };
    multi.bad.push_back(bad("lists of different lengths", "[adam_step_multi]", [](const Device& d) {
        auto x = ops::full({2}, 1, DType::f32, d);
        ops::adam_step_multi({x, x}, {x}, {x, x}, {x, x}, {});
    }));
    multi.bad.push_back(bad("state of another shape", "[adam_step_multi]", [](const Device& d) {
        auto x = ops::full({2}, 1, DType::f32, d), y = ops::full({3}, 1, DType::f32, d);
        ops::adam_step_multi({x}, {x}, {y}, {x}, {});
    }));
    db.push_back(std::move(multi));
}

}  // namespace burn::opdb
