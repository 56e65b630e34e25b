// Op-database entries of scatter and select_assign with burn's IndexingUpdateOp: the scatter_reduce
// row (assign, mul, min, max; add is scatter_add's entry), select_assign's reduce modes (composites
// over it), and burn's gather_nd / scatter_nd (composites over select and select_assign). Indices repeat on
// purpose, so colliding values combine in order (assign: the last wins); Bool tensors take assign, min (and)
// and max (or). References walk the indices in row-major order.
#include <algorithm>
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_scatter {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

const IndexingUpdateOp kModes[] = {IndexingUpdateOp::Assign, IndexingUpdateOp::Mul, IndexingUpdateOp::Min,
                                   IndexingUpdateOp::Max};
const char* const kNames[] = {"assign", "mul", "min", "max"};

double combine(int mode, double dst, double v, DType dt) {
    if (mode == 0) return v;
    if (mode == 1) return dst * v;
    if (std::isnan(dst) || std::isnan(v)) return NAN;
    if (is_bool(dt)) return mode == 2 ? (dst != 0 && v != 0) : (dst != 0 || v != 0);
    return mode == 2 ? std::min(dst, v) : std::max(dst, v);
}

/// out = x; for each position p of the indices (row-major): out[p with dim = idx[p]] op= values[p].
TensorData scatter_ref(const TensorData& xd, const TensorData& id, const TensorData& vd, int64_t dim,
                       int mode) {
    ref::Host x = ref::host(xd), idx = ref::host(id), v = ref::host(vd);
    const int d = ref::norm_dim(dim, x.rank());
    ref::Host o = x;
    for (int64_t i = 0; i < idx.numel(); ++i) {
        auto p = ref::unravel(i, idx.shape);
        const double val = v.v[static_cast<std::size_t>(ref::ravel(p, v.shape))];
        p[static_cast<std::size_t>(d)] = static_cast<int64_t>(idx.v[static_cast<std::size_t>(i)]);
        double& dst = o.v[static_cast<std::size_t>(ref::ravel(p, o.shape))];
        dst = combine(mode, dst, val, xd.dtype());
    }
    return out(o, xd.dtype());
}

std::vector<Sample> scatter_samples(const std::string& name, DType dt, int mode) {
    InputGen g{name, dt};
    const Domain dom = mode == 1 ? Domain::nonzero : Domain::real;
    std::vector<Sample> s = {
        sample(Tag::basic, {g({3, 4}, dom), g.index({4, 4}, 3), g({4, 4}, dom)}, {0}, {}, "repeated indices"),
        sample(Tag::basic, {g({2, 5}, dom), g.index({2, 3}, 5), g({2, 4}, dom)}, {1}, {},
               "values past indices"),
        sample(Tag::basic, {g({2, 3, 2}, dom), g.index({2, 2, 2}, 3), g({2, 2, 2}, dom)}, {-2}),
        sample(Tag::empty, {g({3, 4}, dom), g.index({0, 4}, 3), g({0, 4}, dom)}, {0})};
    if (is_float(dt) && mode >= 2)
        s.push_back(sample(
            Tag::special,
            {data_of({3}, {1, NAN, 2}, dt), data_of({2}, {0, 2}, DType::i32), data_of({2}, {NAN, -1}, dt)},
            {0}, {}, "NaN propagates"));
    return s;
}

/// The leading-K position of tuple t of idx ([B, K] flattened) and x's shape.
int64_t tuple_position(const ref::Host& idx, int64_t t, int64_t k, const Dims& xs) {
    int64_t p = 0;
    for (int64_t j = 0; j < k; ++j)
        p = p * xs[static_cast<int>(j)] + static_cast<int64_t>(idx.v[static_cast<std::size_t>(t * k + j)]);
    return p;
}

/// x [P, R...] seen flat: gather_nd's slice of tuple t is elements p * R .. (p + 1) * R.
void add_nd_entries(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("gather_nd", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"gather_nd", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({3, 4}), g.index({5, 1}, 3)}, {}, {}, "rows"),
                sample(Tag::basic, {g({2, 3, 4}), g.index({2, 3, 2}, 2)}, {}, {}, "K = 2"),
                sample(Tag::basic, {g({3, 4}), g.index({4, 2}, 3)}, {}, {}, "elements"),
                sample(Tag::empty, {g({3, 4}), g.index({0, 1}, 3)})};
        };
        e.forward = [](V in, A) { return ops::gather_nd(in[0], in[1]); };
        e.reference = [](In in, A) {
            ref::Host x = ref::host(in[0]), idx = ref::host(in[1]);
            const int64_t k = idx.shape[idx.rank() - 1], b = k == 0 ? 0 : idx.numel() / k;
            Dims os;
            for (int d = 0; d < idx.rank() - 1; ++d) os.push_back(idx.shape[d]);
            int64_t r = 1;
            for (int d = static_cast<int>(k); d < x.rank(); ++d) {
                os.push_back(x.shape[d]);
                r *= x.shape[d];
            }
            ref::Host o = ref::filled(os, 0);
            for (int64_t t = 0; t < b; ++t)
                for (int64_t i = 0; i < r; ++i)
                    o.v[static_cast<std::size_t>(t * r + i)] =
                        x.v[static_cast<std::size_t>(tuple_position(idx, t, k, x.shape) * r + i)];
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("tuple out of range", "[gather_nd]", [](const Device& d) {
            ops::gather_nd(f32({2, 3}, d), tensor({1, 2}, {1, 3}, DType::i32, d));
        }));
        e.bad.push_back(bad("tuple longer than the rank", "[gather_nd]", [](const Device& d) {
            ops::gather_nd(f32({2, 3}, d), ops::full({1, 3}, 0, DType::i32, d));
        }));
        e.bad.push_back(bad("float indices", "[gather_nd]", [](const Device& d) {
            ops::gather_nd(f32({2, 3}, d), f32({1, 1}, d));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    const IndexingUpdateOp nd_ops[] = {IndexingUpdateOp::Add, IndexingUpdateOp::Assign,
                                       IndexingUpdateOp::Max};
    const char* const nd_names[] = {"add", "assign", "max"};
    const int nd_modes[] = {-1, 0, 3};  // combine()'s modes; -1: add
    for (int m = 0; m < 3; ++m) {
        const IndexingUpdateOp op = nd_ops[m];
        const int mode = nd_modes[m];
        const std::string name = std::string("scatter_nd_") + nd_names[m];
        OpEntry e = entry(name, {}, mode < 0 ? kNumeric : kAll);
        e.samples = [name](DType dt) {
            InputGen g{name, dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({3, 4}), g.index({5, 1}, 3), g({5, 4})}, {}, {}, "rows, repeated"),
                sample(Tag::basic, {g({2, 3, 2}), g.index({4, 2}, 2), g({4, 2})}, {}, {}, "K = 2"),
                sample(Tag::empty, {g({3, 4}), g.index({0, 1}, 3), g({0, 4})})};
        };
        e.forward = [op](V in, A) { return ops::scatter_nd(in[0], in[1], in[2], op); };
        e.reference = [mode](In in, A) {
            ref::Host x = ref::host(in[0]), idx = ref::host(in[1]), v = ref::host(in[2]);
            const int64_t k = idx.shape[idx.rank() - 1], b = idx.numel() / k;
            const int64_t r = b == 0 ? 0 : v.numel() / b;
            for (int64_t t = 0; t < b; ++t)
                for (int64_t i = 0; i < r; ++i) {
                    double& dst = x.v[static_cast<std::size_t>(tuple_position(idx, t, k, x.shape) * r + i)];
                    const double val = v.v[static_cast<std::size_t>(t * r + i)];
                    dst = mode < 0 ? dst + val : combine(mode, dst, val, in[0].dtype());
                }
            return out(x, in[0].dtype());
        };
        e.bad.push_back(bad("values of the wrong shape", "[scatter_nd]", [op](const Device& d) {
            ops::scatter_nd(f32({3, 4}, d), ops::full({2, 1}, 0, DType::i32, d), f32({2, 3}, d), op);
        }));
        e.bad.push_back(bad("tuple out of range", "[scatter_nd]", [op](const Device& d) {
            ops::scatter_nd(f32({3, 4}, d), tensor({1, 1}, {-1}, DType::i32, d), f32({1, 4}, d), op);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 2};
        db.push_back(std::move(e));
    }
}

void add_entries(std::vector<OpEntry>& db) {
    add_nd_entries(db);
    for (int mode = 0; mode < 4; ++mode) {
        const IndexingUpdateOp op = kModes[mode];
        const std::string name = std::string("scatter_") + kNames[mode];
        OpEntry e = entry(name, {OpId::scatter_reduce}, mode == 1 ? kNumeric : kAll);
        e.samples = [name, mode](DType dt) { return scatter_samples(name, dt, mode); };
        e.forward = [op](V in, A a) { return ops::scatter_reduce(in[0], a.ints[0], in[1], in[2], op); };
        e.reference = [mode](In in, A a) { return scatter_ref(in[0], in[1], in[2], a.ints[0], mode); };
        e.bad.push_back(bad("index out of range", "[scatter]", [op](const Device& d) {
            ops::scatter_reduce(f32({2, 2}, d), 0, tensor({1, 2}, {0, 2}, DType::i32, d), f32({1, 2}, d), op);
        }));
        e.bad.push_back(bad("float indices", "[scatter]", [op](const Device& d) {
            ops::scatter_reduce(f32({2, 2}, d), 0, f32({1, 2}, d), f32({1, 2}, d), op);
        }));
        e.bad.push_back(bad("indices past the tensor", "(IndexingUpdateOp::", [op](const Device& d) {
            ops::scatter_reduce(f32({2, 2}, d), 0, ops::full({1, 3}, 0, DType::i32, d), f32({1, 3}, d), op);
        }));
        e.bad.push_back(bad("rank mismatch", "[scatter]", [op](const Device& d) {
            ops::scatter_reduce(f32({2, 2}, d), 0, ops::full({2}, 0, DType::i32, d), f32({2}, d), op);
        }));
        if (mode == 1)
            e.bad.push_back(bad("bool with mul", "[scatter]", [](const Device& d) {
                auto b = ops::full({2}, 1, DType::boolean, d);
                ops::scatter_reduce(b, 0, ops::full({1}, 0, DType::i32, d),
                                    ops::full({1}, 1, DType::boolean, d), IndexingUpdateOp::Mul);
            }));
        e.differentiable = true;
        e.grad_inputs = {0, 2};
        db.push_back(std::move(e));
    }
    for (int mode = 0; mode < 4; ++mode) {
        const IndexingUpdateOp op = kModes[mode];
        const std::string name = std::string("select_assign_") + kNames[mode];
        OpEntry e = entry(name, {}, mode == 1 ? kNumeric : kAll);
        e.samples = [name, mode](DType dt) {
            InputGen g{name, dt};
            const Domain dom = mode == 1 ? Domain::nonzero : Domain::real;
            return std::vector<Sample>{
                sample(Tag::basic, {g({3, 4}, dom), g.index({5}, 3), g({5, 4}, dom)}, {0}, {},
                       "repeated indices"),
                sample(Tag::basic, {g({2, 3, 4}, dom), g.index({2}, 4), g({2, 3, 2}, dom)}, {-1}),
                sample(Tag::empty, {g({3, 4}, dom), g.index({0}, 3), g({0, 4}, dom)}, {0})};
        };
        e.forward = [op](V in, A a) { return ops::select_assign_reduce(in[0], a.ints[0], in[1], in[2], op); };
        e.reference = [mode](In in, A a) {
            // the 1-D indices spread over the values' shape
            ref::Host idx = ref::host(in[1]), v = ref::host(in[2]);
            const int d = ref::norm_dim(a.ints[0], v.rank());
            ref::Host full = ref::filled(v.shape, 0);
            for (int64_t i = 0; i < full.numel(); ++i)
                full.v[static_cast<std::size_t>(i)] =
                    idx.v[static_cast<std::size_t>(ref::unravel(i, v.shape)[static_cast<std::size_t>(d)])];
            return scatter_ref(in[0], ref::to_data(full, DType::i64), in[2], a.ints[0], mode);
        };
        e.bad.push_back(bad("values of the wrong shape", "[select_assign]", [op](const Device& d) {
            ops::select_assign_reduce(f32({3, 4}, d), 0, ops::full({2}, 0, DType::i32, d), f32({2, 3}, d),
                                      op);
        }));
        e.bad.push_back(bad("2-D indices", "[select_assign]", [op](const Device& d) {
            ops::select_assign_reduce(f32({3, 4}, d), 0, ops::full({2, 1}, 0, DType::i32, d), f32({2, 4}, d),
                                      op);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 2};
        db.push_back(std::move(e));
    }
}

}  // namespace api_scatter

void add_api_update_entries(std::vector<OpEntry>& db) {
    api_scatter::add_entries(db);
}

}  // namespace burn::opdb
