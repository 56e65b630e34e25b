// Op-database entries: reductions along a dim (kept with size 1) and full reductions (shape [1]),
// softmax / log_softmax, var, cumsum, cumprod, sort / argsort (stable, i32 indices) and topk.
// Index outputs are i32; argmax/argmin and max/min indices pick the first of equal values (PyTorch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Lane = std::vector<double>;
using LaneFn = std::function<Lane(const Lane&, const Args&)>;

int64_t first_extreme(const Lane& v, bool max) {
    int64_t best = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
        if (max ? v[i] > v[static_cast<std::size_t>(best)] : v[i] < v[static_cast<std::size_t>(best)])
            best = static_cast<int64_t>(i);
    return best;
}

/// Stable order of a lane: ascending, or descending with equal values kept in input order.
std::vector<int64_t> stable_order(const Lane& v, bool descending) {
    std::vector<int64_t> o(v.size());
    std::iota(o.begin(), o.end(), 0);
    std::stable_sort(o.begin(), o.end(), [&](int64_t a, int64_t b) {
        return descending ? v[static_cast<std::size_t>(a)] > v[static_cast<std::size_t>(b)]
                          : v[static_cast<std::size_t>(a)] < v[static_cast<std::size_t>(b)];
    });
    return o;
}

double mean(const Lane& v) {
    return ref::sum(v) / static_cast<double>(v.size());
}

struct DimCase {
    Dims shape;
    std::vector<int64_t> ints;  // ints[0] is the dim
    Tag tag = Tag::basic;
};

/// A lane-wise entry: the output along dim is f(lane), of length out_len(n, args).
struct LaneSpec {
    std::string name;
    std::vector<OpId> ops;
    std::vector<DType> dtypes;
    Domain domain;
    std::vector<DimCase> cases;
    Forward forward;
    LaneFn f;
    std::function<int64_t(int64_t, const Args&)> out_len;  // null: 1 (a reduction keeping dim)
    DType out = DType::f32;                                // used when fixed_out
    bool fixed_out = false;
    bool distinct = false;  // values distinct within a sample (no ties)
};

/// Distinct values: a shuffled 0..n-1, scaled to 0.25 steps for floats (exact in every dtype).
TensorData distinct_values(const Dims& s, DType dt, uint64_t seed) {
    std::vector<double> v(static_cast<std::size_t>(s.numel()));
    std::iota(v.begin(), v.end(), 0.0);
    std::mt19937_64 rng(seed);
    std::shuffle(v.begin(), v.end(), rng);
    if (is_float(dt))
        for (double& x : v) x = 0.25 * x - 2;
    return data_of(s, v, dt);
}

OpEntry lane_entry(LaneSpec spec) {
    OpEntry e = entry(spec.name, spec.ops, spec.dtypes);
    const std::string name = spec.name;
    const Domain dom = spec.domain;
    const auto cases = spec.cases;
    const bool distinct = spec.distinct;
    e.samples = [name, dom, cases, distinct](DType dt) {
        InputGen g{name, dt};
        std::vector<Sample> s;
        for (const auto& c : cases)
            s.push_back(sample(
                c.tag,
                {distinct ? distinct_values(c.shape, dt, static_cast<uint64_t>(g.k++)) : g(c.shape, dom)},
                c.ints));
        return s;
    };
    e.forward = spec.forward;
    auto f = spec.f;
    auto out_len = spec.out_len;
    const bool fixed = spec.fixed_out;
    const DType out = spec.out;
    e.reference = [f, out_len, fixed, out](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int d = ref::norm_dim(a.ints.at(0), x.rank());
        const int64_t m = out_len ? out_len(x.shape[d], a) : 1;
        ref::Host o = ref::map_lanes(x, d, m, [&](const Lane& lane) { return f(lane, a); });
        return ref::to_data(o, fixed ? out : value_dtype(a.dtype));
    };
    if (fixed) e.out_dtype = [out](A) { return out; };
    const Forward fw = spec.forward;
    // Entries for a second output (max_dim_indices, topk_indices) report the op's own name: the
    // frontend's (topk) or the OpId's (sort).
    const std::string suffix = "_indices";
    const bool second = name.size() > suffix.size() && name.ends_with(suffix);
    const std::string base = second ? name.substr(0, name.size() - suffix.size()) : name;
    const std::string expect =
        spec.ops.empty() ? "[" + name + "]"
                         : "[" + name + "]|[" + base + "]|[" + std::string(op_name(spec.ops[0])) + "]";
    e.bad.push_back(bad("dim 2 of rank 2", expect, [fw](const Device& d) {
        Args a;
        a.ints = {2, 0, 0};
        fw({ops::full({2, 3}, 1, DType::f32, d)}, a);
    }));
    e.bad.push_back(bad("undefined tensor", expect, [fw](const Device&) {
        Args a;
        a.ints = {0, 0, 0};
        fw({TensorAny()}, a);
    }));
    return e;
}

/// The standard dim cases; with_empty_dim adds reductions over a zero-sized dim.
std::vector<DimCase> dim_cases(bool with_empty_dim, std::vector<int64_t> extra = {}) {
    auto c = [&](Dims s, int64_t dim, Tag t = Tag::basic) {
        std::vector<int64_t> ints{dim};
        ints.insert(ints.end(), extra.begin(), extra.end());
        return DimCase{s, ints, t};
    };
    std::vector<DimCase> v = {c({2, 3}, 0), c({2, 3}, 1),           c({2, 3, 4}, 1),         c({2, 3, 4}, -1),
                              c({4, 1}, 0), c({1}, 0, Tag::scalar), c({0, 3}, 1, Tag::empty)};
    if (with_empty_dim) {
        v.push_back(c({0, 3}, 0, Tag::empty));
        v.push_back(c({2, 0}, 1, Tag::empty));
    }
    return v;
}

/// Full reductions: the same lane function over the flattened tensor, shape [1].
OpEntry full_entry(const std::string& name, std::vector<DType> dtypes, Domain dom, bool empty_ok,
                   std::function<TensorAny(TensorAny)> op, LaneFn f, bool bool_out) {
    OpEntry e = entry(name, {}, std::move(dtypes));
    e.samples = [name, dom, empty_ok](DType dt) {
        InputGen g{name, dt};
        std::vector<Sample> s{sample(Tag::basic, {g({2, 3}, dom)}), sample(Tag::basic, {g({2, 2}, dom)}),
                              sample(Tag::scalar, {g({1}, dom)})};
        if (empty_ok) s.push_back(sample(Tag::empty, {g({0, 3}, dom)}));
        return s;
    };
    e.forward = [op](V in, A) { return op(in[0]); };
    e.reference = [f, bool_out](In in, A a) {
        Lane r = f(ref::host(in[0]).v, a);
        return data_of({1}, r, bool_out ? DType::boolean : value_dtype(a.dtype));
    };
    if (bool_out) e.out_dtype = [](A) { return DType::boolean; };
    e.bad.push_back(bad("undefined tensor", "[" + name + "]", [op](const Device&) { op(TensorAny()); }));
    return e;
}

Lane one(double v) {
    return Lane{v};
}

void add_reductions(std::vector<OpEntry>& db) {
    const LaneFn sum = [](const Lane& v, A) { return one(ref::sum(v)); };
    const LaneFn mean_f = [](const Lane& v, A) { return one(mean(v)); };
    const LaneFn prod = [](const Lane& v, A) {
        double p = 1;
        for (double x : v) p *= x;
        return one(p);
    };
    const LaneFn max = [](const Lane& v, A) {
        return one(v[static_cast<std::size_t>(first_extreme(v, true))]);
    };
    const LaneFn min = [](const Lane& v, A) {
        return one(v[static_cast<std::size_t>(first_extreme(v, false))]);
    };
    const LaneFn any = [](const Lane& v, A) {
        return one(std::any_of(v.begin(), v.end(), [](double x) { return x != 0; }));
    };
    const LaneFn all = [](const Lane& v, A) {
        return one(std::all_of(v.begin(), v.end(), [](double x) { return x != 0; }));
    };

    using Op = TensorAny (*)(TensorAny, int64_t);
    auto dim_fw = [](Op op) { return [op](V in, A a) { return op(in[0], a.ints[0]); }; };
    auto add = [&](std::string name, OpId id, std::vector<DType> dt, Domain dom, bool empty_dim, Op op,
                   LaneFn f, bool fixed = false, DType out = DType::f32, bool differentiable = true) {
        LaneSpec s{name, {id}, std::move(dt), dom, dim_cases(empty_dim), dim_fw(op), f, nullptr, out, fixed};
        OpEntry e = lane_entry(std::move(s));
        e.differentiable = differentiable;
        if (differentiable) e.grad_inputs = {0};
        db.push_back(std::move(e));
    };
    add("sum_dim", OpId::sum_dim, kNumeric, Domain::small, true, &ops::sum_dim, sum);
    add("mean_dim", OpId::mean_dim, kFloat, Domain::real, false, &ops::mean_dim, mean_f);
    add("prod_dim", OpId::prod_dim, kNumeric, Domain::small, true, &ops::prod_dim, prod);
    add("max_dim", OpId::max_dim, kNumeric, Domain::ties, false, &ops::max_dim, max);
    add("min_dim", OpId::min_dim, kNumeric, Domain::ties, false, &ops::min_dim, min);
    add(
        "argmax", OpId::argmax, kNumeric, Domain::ties, false, &ops::argmax,
        [](const Lane& v, A) { return one(static_cast<double>(first_extreme(v, true))); }, true, DType::i32,
        false);
    add(
        "argmin", OpId::argmin, kNumeric, Domain::ties, false, &ops::argmin,
        [](const Lane& v, A) { return one(static_cast<double>(first_extreme(v, false))); }, true, DType::i32,
        false);
    add("any_dim", OpId::any_dim, kAll, Domain::ties, true, &ops::any_dim, any, true, DType::boolean, false);
    add("all_dim", OpId::all_dim, kAll, Domain::ties, true, &ops::all_dim, all, true, DType::boolean, false);
    for (bool is_max : {true, false}) {
        const std::string name = is_max ? "max_dim_indices" : "min_dim_indices";
        LaneSpec s{name,
                   {is_max ? OpId::max_dim : OpId::min_dim},
                   kNumeric,
                   Domain::ties,
                   dim_cases(false),
                   [is_max](V in, A a) {
                       return is_max ? ops::max_dim_with_indices(in[0], a.ints[0]).second
                                     : ops::min_dim_with_indices(in[0], a.ints[0]).second;
                   },
                   [is_max](const Lane& v, A) { return one(static_cast<double>(first_extreme(v, is_max))); },
                   nullptr,
                   DType::i32,
                   true};
        db.push_back(lane_entry(std::move(s)));
    }
    for (const char* name : {"max_dim", "argmax"}) {
        // No maximum of nothing (PyTorch raises too).
        OpEntry* target = nullptr;
        for (auto& x : db)
            if (x.name == name) target = &x;
        target->bad.push_back(
            bad("reducing a zero-sized dim", std::string("[") + name + "]", [name](const Device& d) {
                auto x = ops::full({0, 3}, 1, DType::f32, d);
                std::string(name) == "max_dim" ? ops::max_dim(x, 0) : ops::argmax(x, 0);
            }));
    }

    using Full = TensorAny (*)(TensorAny);
    auto full = [&](std::string name, std::vector<DType> dt, Domain dom, bool empty_ok, Full op, LaneFn f,
                    bool bool_out = false) {
        db.push_back(full_entry(name, std::move(dt), dom, empty_ok, op, f, bool_out));
    };
    full("sum", kNumeric, Domain::small, true, &ops::sum, sum);
    full("mean", kFloat, Domain::real, false, &ops::mean, mean_f);
    full("prod", kNumeric, Domain::unit, true, &ops::prod, prod);
    full("max", kNumeric, Domain::ties, false, &ops::max, max);
    full("min", kNumeric, Domain::ties, false, &ops::min, min);
    full("any", kAll, Domain::ties, true, &ops::any, any, true);
    full("all", kAll, Domain::ties, true, &ops::all, all, true);
}

/// m (same rank as shape, dims of 1 broadcast) expanded to shape.
ref::Host expand_host(const ref::Host& m, const Dims& shape) {
    ref::Host o = ref::filled(shape, 0);
    for (int64_t i = 0; i < shape.numel(); ++i) {
        int64_t r = i, src = 0, step = 1;
        for (int d = shape.rank() - 1; d >= 0; --d) {
            const int64_t k = r % shape[d];
            r /= shape[d];
            if (m.shape[d] != 1) src += k * step;
            step *= m.shape[d];
        }
        o.v[static_cast<std::size_t>(i)] = m.v[static_cast<std::size_t>(src)];
    }
    return o;
}

/// masked_softmax(x, mask, dim, fill) = softmax(where(mask, fill, x)) and softmax_backward with a mask
/// (0 where it is true): masks of x's shape and broadcast ones ([1, n], [rows, 1]), fully masked rows
/// (uniform), a composed non-last dim.
void add_masked_softmax(std::vector<OpEntry>& db) {
    struct Case {
        Dims x, mask;
        int64_t dim;
        Tag tag;
    };
    const std::vector<Case> cases = {
        {{3, 5}, {3, 5}, 1, Tag::basic},        {{2, 3, 8}, {1, 3, 8}, -1, Tag::basic},
        {{4, 6}, {1, 6}, 1, Tag::broadcast},    {{4, 6}, {4, 1}, 1, Tag::broadcast},
        {{2, 3, 4}, {2, 3, 4}, 1, Tag::basic},  {{0, 3}, {0, 3}, 1, Tag::empty},
        {{2, 2, 40}, {2, 2, 40}, 2, Tag::basic}};
    // the reference: where(mask, fill, x) then softmax along dim, then (backward) zero where masked
    auto lanes = [](const ref::Host& x, int d, const std::function<void(std::vector<std::size_t>&)>& f) {
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < d; ++i) outer *= x.shape[i];
        for (int i = d + 1; i < x.rank(); ++i) inner *= x.shape[i];
        const int64_t n = x.shape[d];
        std::vector<std::size_t> at(static_cast<std::size_t>(n));
        for (int64_t p = 0; p < outer; ++p)
            for (int64_t j = 0; j < inner; ++j) {
                for (int64_t k = 0; k < n; ++k)
                    at[static_cast<std::size_t>(k)] = static_cast<std::size_t>((p * n + k) * inner + j);
                f(at);
            }
    };
    const double fill = -1e30;
    {
        OpEntry e = entry("masked_softmax", {OpId::masked_softmax}, kFloat);
        e.samples = [cases](DType dt) {
            InputGen g{"masked_softmax", dt};
            std::vector<Sample> s;
            for (const auto& c : cases) s.push_back(sample(c.tag, {g(c.x), g.mask(c.mask)}, {c.dim}));
            // a fully masked row: uniform, like mask_fill + softmax (f16 holds the fill as -inf: NaN rows)
            if (dt != DType::f16)
                s.push_back(sample(
                    Tag::basic, {g({2, 4}), ref::make_data({2, 4}, {1, 1, 1, 1, 0, 1, 0, 1}, DType::boolean)},
                    {1}));
            return s;
        };
        e.forward = [fill](V in, A a) { return ops::masked_softmax(in[0], in[1], a.ints[0], fill); };
        e.reference = [lanes, fill](In in, A a) {
            ref::Host x = ref::host(in[0]);
            ref::Host m = expand_host(ref::host(in[1]), x.shape);
            const int d = ref::norm_dim(a.ints.at(0), x.rank());
            ref::Host o = ref::filled(x.shape, 0);
            // f16 holds the fill as -inf (mask_fill writes it so): a fully masked lane is NaN there
            const double held = a.dtype == DType::f16 ? -INFINITY : fill;
            lanes(x, d, [&](std::vector<std::size_t>& at) {
                double mx = -INFINITY, z = 0;
                auto v = [&](std::size_t i) { return m.v[i] != 0 ? held : x.v[i]; };
                for (auto i : at) mx = std::max(mx, v(i));
                for (auto i : at) z += std::exp(v(i) - mx);  // all -inf: NaN, as softmax gives
                for (auto i : at) o.v[i] = std::exp(v(i) - mx) / z;
            });
            return ref::to_data(o, value_dtype(a.dtype));
        };
        e.bad.push_back(bad("int mask", "[masked_softmax]", [](const Device& d) {
            ops::masked_softmax(f32({2, 3}, d), ops::full({2, 3}, 1, DType::i32, d), 1, -1e9);
        }));
        e.bad.push_back(bad("mask does not broadcast", "[masked_softmax]", [](const Device& d) {
            ops::masked_softmax(f32({2, 3}, d), ops::full({3, 3}, 1, DType::boolean, d), 1, -1e9);
        }));
        e.bad.push_back(bad("int input", "[masked_softmax]", [](const Device& d) {
            ops::masked_softmax(ops::full({2, 3}, 1, DType::i32, d), ops::full({2, 3}, 1, DType::boolean, d),
                                1, 0);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("softmax_backward_masked", {OpId::softmax_backward}, kFloat);
        e.samples = [cases](DType dt) {
            InputGen g{"softmax_backward_masked", dt};
            std::vector<Sample> s;
            for (const auto& c : cases) s.push_back(sample(c.tag, {g(c.x), g(c.x), g.mask(c.mask)}, {c.dim}));
            return s;
        };
        e.forward = [](V in, A a) { return ops::softmax_backward(in[0], in[1], a.ints[0], false, in[2]); };
        e.bad.push_back(bad("float mask", "[softmax_backward]", [](const Device& d) {
            ops::softmax_backward(f32({2, 3}, d), f32({2, 3}, d), 1, false, f32({2, 3}, d));
        }));
        e.bad.push_back(bad("mask does not broadcast", "[softmax_backward]", [](const Device& d) {
            ops::softmax_backward(f32({2, 3}, d), f32({2, 3}, d), 1, false,
                                  ops::full({2, 2}, 1, DType::boolean, d));
        }));
        e.reference = [lanes](In in, A a) {
            ref::Host y = ref::host(in[0]), g = ref::host(in[1]);
            ref::Host m = expand_host(ref::host(in[2]), y.shape);
            const int d = ref::norm_dim(a.ints.at(0), y.rank());
            ref::Host o = ref::filled(y.shape, 0);
            lanes(y, d, [&](std::vector<std::size_t>& at) {
                double sum = 0;
                for (auto i : at) sum += g.v[i] * y.v[i];
                for (auto i : at) o.v[i] = m.v[i] != 0 ? 0.0 : y.v[i] * (g.v[i] - sum);
            });
            return ref::to_data(o, value_dtype(a.dtype));
        };
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
}

void add_lane_maps(std::vector<OpEntry>& db) {
    const auto same_len = [](int64_t n, A) { return n; };
    for (bool log : {false, true}) {
        const std::string name = log ? "log_softmax" : "softmax";
        LaneSpec s{name,
                   {log ? OpId::log_softmax : OpId::softmax},
                   kFloat,
                   Domain::real,
                   dim_cases(false),
                   [log](V in, A a) {
                       return log ? ops::log_softmax(in[0], a.ints[0]) : ops::softmax(in[0], a.ints[0]);
                   },
                   [log](const Lane& v, A) {
                       const double m = v[static_cast<std::size_t>(first_extreme(v, true))];
                       double z = 0;
                       for (double x : v) z += std::exp(x - m);
                       Lane o;
                       for (double x : v) o.push_back(log ? x - m - std::log(z) : std::exp(x - m) / z);
                       return o;
                   },
                   same_len};
        OpEntry e = lane_entry(std::move(s));
        e.bad.push_back(bad("int input", "[" + name + "]", [log](const Device& d) {
            auto x = ops::full({2, 3}, 1, DType::i32, d);
            log ? ops::log_softmax(x, 1) : ops::softmax(x, 1);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (bool log : {false, true}) {
        // The fused gradient of softmax / log_softmax from (y, g); y need not be a softmax output.
        const std::string name = log ? "log_softmax_backward" : "softmax_backward";
        OpEntry e = entry(name, {OpId::softmax_backward}, kFloat);
        e.samples = [name](DType dt) {
            InputGen g{name, dt};
            std::vector<Sample> s;
            for (const auto& c : dim_cases(false))
                s.push_back(sample(c.tag, {g(c.shape), g(c.shape)}, c.ints));
            return s;
        };
        e.forward = [log](V in, A a) { return ops::softmax_backward(in[0], in[1], a.ints[0], log); };
        e.reference = [log](In in, A a) {
            ref::Host y = ref::host(in[0]), g = ref::host(in[1]);
            const int d = ref::norm_dim(a.ints.at(0), y.rank());
            int64_t outer = 1, inner = 1;
            for (int i = 0; i < d; ++i) outer *= y.shape[i];
            for (int i = d + 1; i < y.rank(); ++i) inner *= y.shape[i];
            const int64_t n = y.shape[d];
            ref::Host o = ref::filled(y.shape, 0);
            auto at = [&](int64_t p, int64_t k, int64_t j) {
                return static_cast<std::size_t>((p * n + k) * inner + j);
            };
            for (int64_t p = 0; p < outer; ++p)
                for (int64_t j = 0; j < inner; ++j) {
                    double sum = 0;
                    for (int64_t k = 0; k < n; ++k)
                        sum += log ? g.v[at(p, k, j)] : g.v[at(p, k, j)] * y.v[at(p, k, j)];
                    for (int64_t k = 0; k < n; ++k) {
                        const double yv = y.v[at(p, k, j)], gv = g.v[at(p, k, j)];
                        o.v[at(p, k, j)] = log ? gv - std::exp(yv) * sum : yv * (gv - sum);
                    }
                }
            return ref::to_data(o, value_dtype(a.dtype));
        };
        e.bad.push_back(bad("shape mismatch", "[softmax_backward]", [log](const Device& d) {
            ops::softmax_backward(f32({2, 3}, d), f32({3, 2}, d), 1, log);
        }));
        e.bad.push_back(bad("int input", "[softmax_backward]", [log](const Device& d) {
            auto x = ops::full({2, 3}, 1, DType::i32, d);
            ops::softmax_backward(x, x, 1, log);
        }));
        e.bad.push_back(bad("dim out of range", "[softmax_backward]", [log](const Device& d) {
            ops::softmax_backward(f32({2, 3}, d), f32({2, 3}, d), 2, log);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    add_masked_softmax(db);
    {
        LaneSpec s{"cumsum",
                   {OpId::cumsum},
                   kNumeric,
                   Domain::small,
                   dim_cases(true),
                   [](V in, A a) { return ops::cumsum(in[0], a.ints[0]); },
                   [](const Lane& v, A) {
                       Lane o;
                       double acc = 0;
                       for (double x : v) o.push_back(acc += x);
                       return o;
                   },
                   same_len};
        OpEntry e = lane_entry(std::move(s));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        // A derived row: the CPU kernel and the decomposition (slice, mul, cat) are both checked
        // against this reference, and its gradient comes from the decomposition.
        LaneSpec s{"cumprod",
                   {OpId::cumprod},
                   kNumeric,
                   Domain::small,
                   dim_cases(true),
                   [](V in, A a) { return ops::cumprod(in[0], a.ints[0]); },
                   [](const Lane& v, A) {
                       Lane o;
                       double acc = 1;
                       for (double x : v) o.push_back(acc *= x);
                       return o;
                   },
                   same_len};
        OpEntry e = lane_entry(std::move(s));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        // ints {dim, correction}: correction 1 = sample variance, 0 = biased.
        std::vector<DimCase> cases = dim_cases(false, {1});
        for (auto& c : cases)
            if (c.shape == Dims{1} || c.shape == Dims{4, 1}) c.ints[1] = 0;  // n = 1 has no sample variance
        cases.push_back({{2, 3, 4}, {1, 0}});
        LaneSpec s{"var",
                   {},
                   kFloat,
                   Domain::real,
                   cases,
                   [](V in, A a) { return ops::var(in[0], a.ints[0], a.ints[1]); },
                   [](const Lane& v, A a) {
                       const double m = mean(v);
                       double ss = 0;
                       for (double x : v) ss += (x - m) * (x - m);
                       return one(ss / static_cast<double>(static_cast<int64_t>(v.size()) - a.ints[1]));
                   },
                   nullptr};
        OpEntry e = lane_entry(std::move(s));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

void add_sorting(std::vector<OpEntry>& db) {
    // ints {dim, descending}
    const std::vector<DimCase> sort_cases = {{{2, 5}, {1, 0}},
                                             {{2, 5}, {1, 1}},
                                             {{4, 3}, {0, 0}},
                                             {{2, 3, 4}, {1, 1}},
                                             {{2, 3, 4}, {-1, 0}},
                                             {{1}, {0, 0}, Tag::scalar},
                                             {{0, 3}, {1, 0}, Tag::empty},
                                             {{0, 3}, {0, 1}, Tag::empty},
                                             // Long lines (CUDA: CUB's radix sort past 4096 values).
                                             {{2, 5000}, {1, 1}, Tag::special},
                                             {{4500, 2}, {0, 0}, Tag::special}};
    for (bool indices : {false, true}) {
        const std::string name = indices ? "argsort" : "sort";
        LaneSpec s{name,
                   {OpId::sort},
                   kNumeric,
                   Domain::ties,
                   sort_cases,
                   [indices](V in, A a) {
                       auto r = ops::sort_with_indices(in[0], a.ints[0], a.ints[1] != 0);
                       return indices ? r.second : r.first;
                   },
                   [indices](const Lane& v, A a) {
                       Lane o;
                       for (int64_t i : stable_order(v, a.ints[1] != 0))
                           o.push_back(indices ? static_cast<double>(i) : v[static_cast<std::size_t>(i)]);
                       return o;
                   },
                   [](int64_t n, A) { return n; },
                   DType::i32,
                   indices};
        OpEntry e = lane_entry(std::move(s));
        e.differentiable = !indices;
        if (!indices) e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    // ints {dim, k}; topk values are descending. Indices are checked on distinct values only.
    const std::vector<DimCase> topk_cases = {{{2, 5}, {1, 2}},
                                             {{4, 3}, {0, 4}},
                                             {{2, 3, 4}, {-1, 1}},
                                             {{2, 3, 4}, {1, 3}},
                                             {{1}, {0, 1}, Tag::scalar},
                                             {{0, 3}, {1, 2}, Tag::empty},
                                             {{2, 3}, {1, 0}, Tag::empty}};
    // A long line for the values only (the indices' samples have distinct values, too few in i8).
    std::vector<DimCase> topk_long = topk_cases;
    topk_long.push_back({{3, 5000}, {1, 7}, Tag::special});
    for (bool indices : {false, true}) {
        const std::string name = indices ? "topk_indices" : "topk";
        LaneSpec s{name,
                   {OpId::sort},
                   kNumeric,
                   Domain::ties,
                   indices ? topk_cases : topk_long,
                   [indices](V in, A a) {
                       auto r = ops::topk_with_indices(in[0], a.ints[1], a.ints[0]);
                       return indices ? r.second : r.first;
                   },
                   [indices](const Lane& v, A a) {
                       Lane o;
                       auto order = stable_order(v, true);
                       for (int64_t j = 0; j < a.ints[1]; ++j) {
                           const int64_t i = order[static_cast<std::size_t>(j)];
                           o.push_back(indices ? static_cast<double>(i) : v[static_cast<std::size_t>(i)]);
                       }
                       return o;
                   },
                   [](int64_t, A a) { return a.ints[1]; },
                   DType::i32,
                   indices,
                   indices};
        OpEntry e = lane_entry(std::move(s));
        e.bad.push_back(bad("k 6 of 5", "[topk]", [](const Device& d) {
            ops::topk_with_indices(f32({2, 5}, d), 6, 1);
        }));
        e.differentiable = !indices;
        if (!indices) e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace

void add_reduce_entries(std::vector<OpEntry>& db) {
    add_reductions(db);
    add_lane_maps(db);
    add_sorting(db);
}

}  // namespace burn::opdb
