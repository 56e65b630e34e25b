// Op-database entries of the composite reductions and predicates of issue 20 (no rows of their own,
// so `ops` is {}): sum_dims, mean_dims, prod_dims, max_dims, min_dims, max_abs, max_abs_dim, var_mean,
// contains_nan, is_close and all_close. References are naive float64 loops over the host values.
#include <algorithm>
#include <cmath>
#include <limits>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_reduce {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Lane = std::vector<double>;

/// x reduced over dims (kept with size 1): f gets every element of one output position's group.
ref::Host reduce_over(const ref::Host& x, const std::vector<int64_t>& dims,
                      const std::function<double(const Lane&)>& f) {
    std::vector<bool> red(static_cast<std::size_t>(x.rank()), false);
    for (int64_t d : dims) red[static_cast<std::size_t>(ref::norm_dim(d, x.rank()))] = true;
    Dims os = x.shape;
    for (int d = 0; d < x.rank(); ++d)
        if (red[static_cast<std::size_t>(d)]) os[d] = 1;
    std::vector<Lane> groups(static_cast<std::size_t>(os.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
        auto idx = ref::unravel(i, x.shape);
        for (int d = 0; d < x.rank(); ++d)
            if (red[static_cast<std::size_t>(d)]) idx[static_cast<std::size_t>(d)] = 0;
        groups[static_cast<std::size_t>(ref::ravel(idx, os))].push_back(x.v[static_cast<std::size_t>(i)]);
    }
    ref::Host o = ref::filled(os, 0);
    for (std::size_t g = 0; g < groups.size(); ++g) o.v[g] = f(groups[g]);
    return o;
}

double lane_sum(const Lane& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}
double lane_prod(const Lane& v) {
    double s = 1;
    for (double x : v) s *= x;
    return s;
}
double lane_max(const Lane& v) {
    return *std::max_element(v.begin(), v.end());
}
double lane_min(const Lane& v) {
    return *std::min_element(v.begin(), v.end());
}

/// The samples of a multi-dim reduction: ints are the dims. with_empty: a zero-sized reduced dim too.
std::vector<Sample> dims_samples(const std::string& name, DType dt, Domain dom, bool with_empty) {
    InputGen g{name, dt};
    std::vector<Sample> s = {sample(Tag::basic, {g({2, 3, 4}, dom)}, {0, 2}),
                             sample(Tag::basic, {g({2, 3, 4}, dom)}, {-1, 0, 1}),
                             sample(Tag::basic, {g({2, 3}, dom)}, {1}),
                             sample(Tag::basic, {g({2, 3}, dom)}, {}, {}, "no dims: unchanged"),
                             sample(Tag::scalar, {g({1}, dom)}, {0}),
                             sample(Tag::empty, {g({0, 3}, dom)}, {1})};
    if (with_empty) s.push_back(sample(Tag::empty, {g({2, 0, 3}, dom)}, {0, 1}));
    return s;
}

void add_dims_entry(std::vector<OpEntry>& db, const std::string& name,
                    TensorAny (*fn)(TensorAny, const Dims&), Domain dom, bool with_empty,
                    std::function<double(const Lane&, DType)> f) {
    OpEntry e = entry(name, {}, kNumeric);
    e.samples = [name, dom, with_empty](DType dt) { return dims_samples(name, dt, dom, with_empty); };
    e.forward = [fn](V in, A a) { return fn(in[0], dims_of(a.ints)); };
    e.reference = [f](In in, A a) {
        const DType dt = in[0].dtype();
        return out(reduce_over(ref::host(in[0]), a.ints, [&](const Lane& l) { return f(l, dt); }), dt);
    };
    const std::string x = "[" + name + "]";
    e.bad.push_back(bad("dim 0 twice", x, [fn](const Device& d) { fn(f32({2, 3}, d), Dims{0, 0}); }));
    e.bad.push_back(bad("dim 2 of rank 2", x, [fn](const Device& d) { fn(f32({2, 3}, d), Dims{2}); }));
    e.bad.push_back(bad("undefined tensor", x, [fn](const Device&) { fn(TensorAny(), Dims{0}); }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

/// is_close's reference: torch.isclose with equal_nan = false.
bool close_ref_value(double a, double b, double rtol, double atol) {
    if (a == b) return true;
    if (!std::isfinite(a) || !std::isfinite(b)) return false;
    return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}

/// Pairs that are clearly close or clearly not (no sample sits on the boundary).
std::vector<Sample> close_samples(DType dt) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    std::vector<Sample> s;
    if (is_float(dt)) {
        const std::vector<double> a = {1, 2, nan, inf, -inf, inf, 0, 1e-9, 3, -2};
        const std::vector<double> b = {1 + 1e-7, 2.5, nan, inf, inf, 1, 1e-9, 0, 3, -2.00001};
        s.push_back(sample(Tag::special, {data_of({10}, a, dt), data_of({10}, b, dt)}, {}, {1e-5, 1e-8},
                           "NaN, inf, near and far pairs; torch's defaults"));
        s.push_back(sample(Tag::special, {data_of({2}, {inf, 4}, dt), data_of({2}, {inf, 6}, dt)}, {},
                           {0.5, 0}, "torch's example: rtol 0.5"));
    }
    const std::vector<double> ia = {1, 2, 3, -4, 5, 0}, ib = {1, 3, 3, -4, 6, 0};
    s.push_back(sample(Tag::basic, {data_of({2, 3}, ia, dt), data_of({2, 3}, ib, dt)}, {}, {0.2, 0}));
    s.push_back(
        sample(Tag::broadcast, {data_of({2, 3}, ia, dt), data_of({1, 3}, {1, 2, 4}, dt)}, {}, {0, 1}));
    s.push_back(sample(Tag::empty, {data_of({0, 3}, {}, dt), data_of({0, 3}, {}, dt)}, {}, {1e-5, 1e-8}));
    return s;
}

TensorData close_ref(In in, A a) {
    ref::Host x = ref::host(in[0]), y = ref::host(in[1]);
    ref::Host o = ref::filled(ref::broadcast(x.shape, y.shape), 0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, o.shape);
        o.v[static_cast<std::size_t>(i)] = close_ref_value(
            ref::at_broadcast(x, idx), ref::at_broadcast(y, idx), a.reals.at(0), a.reals.at(1));
    }
    return ref::to_data(o, DType::boolean);
}

void add_close_bad(OpEntry& e, const std::string& x,
                   std::function<void(TensorAny, TensorAny, double, double)> f) {
    e.bad.push_back(bad("dtype mismatch", x, [f](const Device& d) {
        f(f32({2}, d), ops::full({2}, 0, DType::f64, d), 1e-5, 1e-8);
    }));
    e.bad.push_back(bad("shapes [2, 3] and [3, 2]", x, [f](const Device& d) {
        f(f32({2, 3}, d), f32({3, 2}, d), 1e-5, 1e-8);
    }));
    e.bad.push_back(bad("negative rtol", x, [f](const Device& d) { f(f32({2}, d), f32({2}, d), -1, 0); }));
    e.bad.push_back(bad("bool inputs", x, [f](const Device& d) {
        f(ops::full({2}, 1, DType::boolean, d), ops::full({2}, 1, DType::boolean, d), 1e-5, 1e-8);
    }));
}

void add_entries(std::vector<OpEntry>& db) {
    add_dims_entry(db, "sum_dims", &ops::sum_dims, Domain::real, true,
                   [](const Lane& l, DType) { return lane_sum(l); });
    add_dims_entry(db, "prod_dims", &ops::prod_dims, Domain::small, true,
                   [](const Lane& l, DType) { return lane_prod(l); });
    add_dims_entry(db, "mean_dims", &ops::mean_dims, Domain::real, false, [](const Lane& l, DType dt) {
        const double m = lane_sum(l) / static_cast<double>(l.size());
        return is_float(dt) ? m : std::trunc(m);  // integers: one truncating division
    });
    add_dims_entry(db, "max_dims", &ops::max_dims, Domain::real, false,
                   [](const Lane& l, DType) { return lane_max(l); });
    add_dims_entry(db, "min_dims", &ops::min_dims, Domain::real, false,
                   [](const Lane& l, DType) { return lane_min(l); });

    {
        OpEntry e = entry("max_abs", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"max_abs", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3})}), sample(Tag::basic, {g({2, 3, 4})}),
                                       sample(Tag::scalar, {g({1})})};
        };
        e.forward = [](V in, A) { return ops::max_abs(in[0]); };
        e.reference = [](In in, A) {
            ref::Host x = ref::host(in[0]);
            double m = 0;
            for (double v : x.v) m = std::max(m, std::fabs(v));
            return out(ref::Host{Dims{1}, {m}}, in[0].dtype());
        };
        e.bad.push_back(bad("bool input", "[max_abs]",
                            [](const Device& d) { ops::max_abs(ops::full({2}, 1, DType::boolean, d)); }));
        e.bad.push_back(
            bad("undefined tensor", "[max_abs]", [](const Device&) { ops::max_abs(TensorAny()); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("max_abs_dim", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"max_abs_dim", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3})}, {1}), sample(Tag::basic, {g({2, 3, 4})}, {0}),
                sample(Tag::scalar, {g({1})}, {0}), sample(Tag::empty, {g({0, 3})}, {1})};
        };
        e.forward = [](V in, A a) { return ops::max_abs_dim(in[0], a.ints[0]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            return out(reduce_over(x, {a.ints[0]},
                                   [](const Lane& l) {
                                       double m = 0;
                                       for (double v : l) m = std::max(m, std::fabs(v));
                                       return m;
                                   }),
                       in[0].dtype());
        };
        e.bad.push_back(bad("dim 2 of rank 2", "[max_abs_dim]", [](const Device& d) {
            ops::max_abs_dim(f32({2, 3}, d), 2);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (int which = 0; which < 2; ++which) {
        const std::string name = which == 0 ? "var_mean" : "var_mean_mean";
        OpEntry e = entry(name, {}, kFloat);
        e.samples = [name](DType dt) {
            InputGen g{name, dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3})}, {1, 1}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {0, 0}),
                                       sample(Tag::basic, {g({3, 4})}, {-1, 0}, {}, "biased"),
                                       sample(Tag::scalar, {g({1, 1})}, {0, 0}, {}, "one element, biased")};
        };
        e.forward = [which](V in, A a) {
            auto vm = ops::var_mean(in[0], a.ints[0], a.ints[1]);
            return which == 0 ? vm.first : vm.second;
        };
        e.reference = [which](In in, A a) {
            const double corr = static_cast<double>(a.ints[1]);
            return out(reduce_over(ref::host(in[0]), {a.ints[0]},
                                   [which, corr](const Lane& l) {
                                       const double n = static_cast<double>(l.size()), m = lane_sum(l) / n;
                                       if (which == 1) return m;
                                       double s = 0;
                                       for (double v : l) s += (v - m) * (v - m);
                                       return s / (n - corr);
                                   }),
                       in[0].dtype());
        };
        e.bad.push_back(bad("int input", "[var_mean]", [](const Device& d) {
            ops::var_mean(ops::full({2, 3}, 1, DType::i32, d), 0, 1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[var_mean]", [](const Device& d) {
            ops::var_mean(f32({2, 3}, d), 2, 1);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("contains_nan", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"contains_nan", dt};
            std::vector<Sample> s = {sample(Tag::basic, {g({2, 3})}), sample(Tag::scalar, {g({1})}),
                                     sample(Tag::empty, {g({0, 3})})};
            if (is_float(dt)) {
                s.push_back(
                    sample(Tag::special, {data_of({4}, {1, std::nan(""), 2, 3}, dt)}, {}, {}, "one NaN"));
                s.push_back(sample(Tag::special, {data_of({3}, {1, INFINITY, -INFINITY}, dt)}, {}, {},
                                   "inf, no NaN"));
            }
            return s;
        };
        e.forward = [](V in, A) { return ops::contains_nan(in[0]); };
        e.reference = [](In in, A) {
            ref::Host x = ref::host(in[0]);
            double any = 0;
            for (double v : x.v) any = any || std::isnan(v);
            return ref::to_data(ref::Host{Dims{1}, {any}}, DType::boolean);
        };
        e.out_dtype = [](A) { return DType::boolean; };
        e.bad.push_back(
            bad("undefined tensor", "[contains_nan]", [](const Device&) { ops::contains_nan(TensorAny()); }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("is_close", {}, kNumeric);
        e.samples = close_samples;
        e.forward = [](V in, A a) { return ops::is_close(in[0], in[1], a.reals[0], a.reals[1]); };
        e.reference = close_ref;
        e.out_dtype = [](A) { return DType::boolean; };
        add_close_bad(e, "[is_close]",
                      [](TensorAny a, TensorAny b, double r, double t) { ops::is_close(a, b, r, t); });
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("all_close", {}, kNumeric);
        e.samples = close_samples;
        e.forward = [](V in, A a) {
            const bool c = ops::all_close(in[0], in[1], a.reals[0], a.reals[1]);
            return ops::full({1}, c ? 1 : 0, DType::boolean, in[0].device());
        };
        e.reference = [](In in, A a) {
            TensorData c = close_ref(in, a);
            double all = 1;
            for (int64_t i = 0; i < c.numel(); ++i) all = all && c.value_as_double(i) != 0;
            return ref::to_data(ref::Host{Dims{1}, {all}}, DType::boolean);
        };
        e.out_dtype = [](A) { return DType::boolean; };
        add_close_bad(e, "[is_close]|[all_close]",
                      [](TensorAny a, TensorAny b, double r, double t) { (void)ops::all_close(a, b, r, t); });
        db.push_back(std::move(e));
    }
}

}  // namespace api_reduce

void add_api_reduce_entries(std::vector<OpEntry>& db) {
    api_reduce::add_entries(db);
}

}  // namespace burn::opdb
