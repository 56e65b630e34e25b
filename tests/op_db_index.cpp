// Op-database entries: indexing (gather, scatter, select, select_assign, one_hot), masks
// (mask_fill) and the scalar-first and integer-power composites (rsub_scalar, rdiv_scalar, powi).
// Semantics follow PyTorch: gather = torch.gather, scatter = torch.scatter_add, select =
// torch.index_select, select_assign = torch.index_add; indices may be any integer dtype.
#include <gtest/gtest.h>

#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

TensorData out(const ref::Host& h, DType dt) {
    return ref::to_data(h, value_dtype(dt));
}
TensorAny idx(const Dims& s, double v, const Device& d, DType dt = DType::i32) {
    return ops::full(s, v, dt, d);
}

/// One gather/scatter-style case: x's shape, the dim, the index shape and the index dtype.
struct IndexCase {
    Dims x;
    int64_t dim;
    Dims index;
    DType idt = DType::i32;
    Tag tag = Tag::basic;
};

const std::vector<IndexCase> kGatherCases = {
    {{3, 4}, 0, {5, 4}},
    {{3, 4}, 1, {3, 2}, DType::i64},
    {{2, 3, 4}, 1, {2, 5, 4}, DType::i8},
    {{2, 3, 4}, -1, {2, 3, 2}, DType::u8},
    {{1}, 0, {1}, DType::i32, Tag::scalar},
    {{0, 3}, 1, {0, 2}, DType::i32, Tag::empty},
    {{2, 3}, 1, {2, 0}, DType::i32, Tag::empty},
};

const std::vector<IndexCase> kSelectCases = {
    {{3, 4}, 0, {5}},
    {{3, 4}, 1, {2}, DType::i64},
    {{2, 3, 4}, -1, {3}, DType::i8},
    {{1}, 0, {1}, DType::i32, Tag::scalar},
    {{3, 4}, 0, {0}, DType::i32, Tag::empty},
    {{0, 3}, 1, {2}, DType::i32, Tag::empty},
};

/// Samples {x, indices} (gather, select) or {x, indices, values} (scatter, select_assign).
Samples index_samples(const std::string& name, const std::vector<IndexCase>& cases, bool with_values,
                      bool select) {
    return [=](DType dt) {
        InputGen g{name, dt};
        std::vector<Sample> s;
        for (const auto& c : cases) {
            const int d = ref::norm_dim(c.dim, c.x.rank());
            std::vector<TensorData> in{g(c.x), g.index(c.index, std::max<int64_t>(c.x[d], 1), c.idt)};
            if (with_values) {
                Dims vs = c.index;
                if (select) {
                    vs = c.x;
                    vs[d] = c.index[0];
                }
                in.push_back(g(vs));
            }
            s.push_back(sample(c.tag, std::move(in), {c.dim}));
        }
        return s;
    };
}

/// For every element i of the index tensor (gather/scatter) or of the values (select forms), the flat
/// positions in x and in the index-shaped tensor it pairs.
template <class F>
void each_pair(const ref::Host& x, const ref::Host& index, const Dims& over, int d, bool select, F&& f) {
    for (int64_t i = 0; i < over.numel(); ++i) {
        auto pos = ref::unravel(i, over);
        const int64_t j = select ? pos[static_cast<std::size_t>(d)] : i;
        pos[static_cast<std::size_t>(d)] = static_cast<int64_t>(index.v[static_cast<std::size_t>(j)]);
        f(ref::ravel(pos, x.shape), i);
    }
}

void add_gather_scatter(std::vector<OpEntry>& db) {
    for (bool select : {false, true}) {
        const std::string name = select ? "select" : "gather";
        OpEntry e = entry(name, {select ? OpId::select : OpId::gather}, kAll);
        e.samples = index_samples(name, select ? kSelectCases : kGatherCases, false, select);
        e.forward = [select](V in, A a) {
            return select ? ops::select(in[0], a.ints[0], in[1]) : ops::gather(in[0], a.ints[0], in[1]);
        };
        e.reference = [select](In in, A a) {
            ref::Host x = ref::host(in[0]), index = ref::host(in[1]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            Dims s = index.shape;
            if (select) {
                s = x.shape;
                s[d] = index.numel();
            }
            ref::Host o = ref::filled(s, 0.0);
            each_pair(x, index, s, d, select, [&](int64_t xi, int64_t oi) {
                o.v[static_cast<std::size_t>(oi)] = x.v[static_cast<std::size_t>(xi)];
            });
            return out(o, a.dtype);
        };
        const std::string x = "[" + name + "]";
        auto call = [select](const Device&, TensorAny t, int64_t dim, TensorAny i) {
            select ? ops::select(t, dim, i) : ops::gather(t, dim, i);
        };
        const Dims is = select ? Dims{2} : Dims{3, 4};
        e.bad.push_back(bad("index 3 on a dim of 3", x, [=](const Device& d) {
            call(d, f32({3, 4}, d), 0, idx(is, 3, d));
        }));
        e.bad.push_back(bad("index -1", x, [=](const Device& d) {
            call(d, f32({3, 4}, d), 0, idx(is, -1, d));
        }));
        e.bad.push_back(bad("float indices", x, [=](const Device& d) {
            call(d, f32({3, 4}, d), 0, idx(is, 0, d, DType::f32));
        }));
        e.bad.push_back(bad("dim 2 of rank 2", x, [=](const Device& d) {
            call(d, f32({3, 4}, d), 2, idx(is, 0, d));
        }));
        e.bad.push_back(bad(select ? "2-D indices" : "rank-1 indices for rank 2", x, [=](const Device& d) {
            call(d, f32({3, 4}, d), 0, idx(select ? Dims{2, 2} : Dims{4}, 0, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (bool select : {false, true}) {
        const std::string name = select ? "select_assign" : "scatter";
        OpEntry e = entry(name, {select ? OpId::select_add : OpId::scatter_add}, kNumeric);
        e.samples = index_samples(name, select ? kSelectCases : kGatherCases, true, select);
        e.forward = [select](V in, A a) {
            return select ? ops::select_assign(in[0], a.ints[0], in[1], in[2])
                          : ops::scatter(in[0], a.ints[0], in[1], in[2]);
        };
        // Additive: duplicates accumulate (torch.scatter_add / torch.index_add).
        e.reference = [select](In in, A a) {
            ref::Host x = ref::host(in[0]), index = ref::host(in[1]), v = ref::host(in[2]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            each_pair(x, index, v.shape, d, select, [&](int64_t xi, int64_t vi) {
                x.v[static_cast<std::size_t>(xi)] += v.v[static_cast<std::size_t>(vi)];
            });
            return out(x, a.dtype);
        };
        const std::string x = select ? "[select_assign]|[select_add]" : "[scatter]|[scatter_add]";
        auto call = [select](TensorAny t, int64_t dim, TensorAny i, TensorAny v) {
            select ? ops::select_assign(t, dim, i, v) : ops::scatter(t, dim, i, v);
        };
        const Dims is = select ? Dims{2} : Dims{2, 4}, vs = Dims{2, 4};
        e.bad.push_back(bad("index 3 on a dim of 3", x, [=](const Device& d) {
            call(f32({3, 4}, d), 0, idx(is, 3, d), f32(vs, d));
        }));
        e.bad.push_back(bad("float indices", x, [=](const Device& d) {
            call(f32({3, 4}, d), 0, idx(is, 0, d, DType::f32), f32(vs, d));
        }));
        e.bad.push_back(bad("values of the wrong shape", x, [=](const Device& d) {
            call(f32({3, 4}, d), 0, idx(is, 0, d), f32({2, 3}, d));
        }));
        e.bad.push_back(bad("values of another dtype", x, [=](const Device& d) {
            call(f32({3, 4}, d), 0, idx(is, 0, d), ops::full(vs, 0, DType::f64, d));
        }));
        e.bad.push_back(bad("dim 2 of rank 2", x, [=](const Device& d) {
            call(f32({3, 4}, d), 2, idx(is, 0, d), f32(vs, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 2};
        db.push_back(std::move(e));
    }
}

void add_one_hot(std::vector<OpEntry>& db) {
    OpEntry e = entry("one_hot", {}, {DType::i32, DType::i64, DType::i8, DType::u8, DType::f32, DType::f64});
    e.samples = [](DType dt) {
        InputGen g{"one_hot", dt};
        return std::vector<Sample>{
            sample(Tag::basic, {g.index({4}, 5, dt)}, {5}), sample(Tag::basic, {g.index({2, 3}, 4, dt)}, {4}),
            sample(Tag::scalar, {g.index({1}, 3, dt)}, {3}), sample(Tag::empty, {g.index({0}, 3, dt)}, {3})};
    };
    e.forward = [](V in, A a) { return ops::one_hot(in[0], a.ints[0]); };
    e.reference = [](In in, A a) {
        ref::Host x = ref::host(in[0]);
        Dims s = x.shape;
        s.push_back(a.ints[0]);
        ref::Host o = ref::filled(s, 0.0);
        for (int64_t i = 0; i < x.numel(); ++i)
            o.v[static_cast<std::size_t>(i * a.ints[0] +
                                         static_cast<int64_t>(x.v[static_cast<std::size_t>(i)]))] = 1;
        return out(o, a.dtype);
    };
    e.bad.push_back(
        bad("class 5 of 5", "[one_hot]", [](const Device& d) { ops::one_hot(idx({3}, 5, d), 5); }));
    e.bad.push_back(bad("bool input", "[one_hot]",
                        [](const Device& d) { ops::one_hot(idx({3}, 1, d, DType::boolean), 5); }));
    db.push_back(std::move(e));
}

double fill_value(DType dt) {
    return is_float(dt) ? -1.5 : is_bool(dt) ? 1 : dt == DType::u8 ? 7 : -2;
}

void add_masks_and_composites(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("mask_fill", {OpId::where}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"mask_fill", dt};
            const double v = fill_value(dt);
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3}), g.mask({2, 3})}, {}, {v}),
                                       sample(Tag::basic, {g({2, 3, 4}), g.mask({2, 3, 4})}, {}, {v}),
                                       sample(Tag::broadcast, {g({2, 3, 4}), g.mask({2, 1, 4})}, {}, {v}),
                                       sample(Tag::broadcast, {g({2, 3}), g.mask({1, 3})}, {}, {v}),
                                       sample(Tag::scalar, {g({1}), g.mask({1})}, {}, {v}),
                                       sample(Tag::empty, {g({0, 3}), g.mask({0, 3})}, {}, {v})};
        };
        e.forward = [](V in, A a) { return ops::mask_fill(in[0], in[1], a.reals.at(0)); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), m = ref::host(in[1]);
            ref::Host o = ref::filled(ref::broadcast(x.shape, m.shape), 0.0);
            for (int64_t i = 0; i < o.numel(); ++i) {
                auto p = ref::unravel(i, o.shape);
                o.v[static_cast<std::size_t>(i)] =
                    ref::at_broadcast(m, p) != 0 ? a.reals[0] : ref::at_broadcast(x, p);
            }
            return out(o, a.dtype);
        };
        e.bad.push_back(bad("float mask", "[mask_fill]|[mask_where]",
                            [](const Device& d) { ops::mask_fill(f32({2}, d), f32({2}, d), 1); }));
        e.bad.push_back(bad("undefined tensor", "[mask_fill]", [](const Device& d) {
            ops::mask_fill(TensorAny(), idx({2}, 1, d, DType::boolean), 1);
        }));
        e.bad.push_back(bad("shapes do not broadcast", "[mask_fill]|[mask_where]", [](const Device& d) {
            ops::mask_fill(f32({2, 3}, d), idx({3, 2}, 1, d, DType::boolean), 1);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (bool is_sub : {true, false}) {
        const std::string name = is_sub ? "rsub_scalar" : "rdiv_scalar";
        OpEntry e = entry(name, {is_sub ? OpId::sub : OpId::div}, kNumeric);
        e.samples = [name, is_sub](DType dt) {
            InputGen g{name, dt};
            const Domain dom = is_sub ? Domain::real : Domain::nonzero;
            const std::vector<double> s = {is_float(dt) ? 1.5 : 2};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3}, dom)}, {}, s), sample(Tag::basic, {g({2, 3, 4}, dom)}, {}, s),
                sample(Tag::scalar, {g({1}, dom)}, {}, s), sample(Tag::empty, {g({0, 3}, dom)}, {}, s)};
        };
        e.forward = [is_sub](V in, A a) {
            return is_sub ? ops::rsub_scalar(in[0], a.reals.at(0)) : ops::rdiv_scalar(in[0], a.reals.at(0));
        };
        // s - x and s / x; integer division truncates toward zero.
        e.reference = [is_sub](In in, A a) {
            ref::Host x = ref::host(in[0]);
            for (double& v : x.v) {
                const double s = a.reals[0];
                v = is_sub ? s - v : (is_float(a.dtype) ? s / v : std::trunc(s / v));
            }
            return out(x, a.dtype);
        };
        e.bad.push_back(bad("bool input", "[" + name + "]|[" + (is_sub ? "sub" : "div") + "_scalar]",
                            [is_sub](const Device& d) {
                                auto b = idx({2}, 1, d, DType::boolean);
                                is_sub ? ops::rsub_scalar(b, 1) : ops::rdiv_scalar(b, 1);
                            }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("powi", {OpId::powf}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"powi", dt};
            auto ex = [&](const Dims& s) { return g.index(s, 4, DType::i32); };  // exponents 0..3
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3}, Domain::small), ex({2, 3})}),
                                       sample(Tag::basic, {g({2, 3, 4}, Domain::small), ex({2, 3, 4})}),
                                       sample(Tag::broadcast, {g({2, 3}, Domain::small), ex({1, 3})}),
                                       sample(Tag::scalar, {g({1}, Domain::small), ex({1})}),
                                       sample(Tag::empty, {g({0, 3}, Domain::small), ex({0, 3})})};
        };
        e.forward = [](V in, A) { return ops::powi(in[0], in[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), p = ref::host(in[1]);
            ref::Host o = ref::filled(ref::broadcast(x.shape, p.shape), 0.0);
            for (int64_t i = 0; i < o.numel(); ++i) {
                auto q = ref::unravel(i, o.shape);
                o.v[static_cast<std::size_t>(i)] = std::pow(ref::at_broadcast(x, q), ref::at_broadcast(p, q));
            }
            return out(o, a.dtype);
        };
        e.bad.push_back(
            bad("float exponent", "[powi]", [](const Device& d) { ops::powi(f32({2}, d), f32({2}, d)); }));
        e.bad.push_back(bad("bool base", "[powi]", [](const Device& d) {
            ops::powi(idx({2}, 1, d, DType::boolean), idx({2}, 1, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace

void add_index_entries(std::vector<OpEntry>& db) {
    add_gather_scatter(db);
    add_one_hot(db);
    add_masks_and_composites(db);
}

}  // namespace burn::opdb
