// Op-database entries of the burn 0.22 tensor functions added for parity (composites, so `ops` is {}):
// iter_dim's items, max_abs_dims, argtopk, linalg's outer_dim and vector_normalize, meshgrid_stack and
// activation::shrink. References are naive float64 loops over the host values.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_parity {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// x reduced to max |.| over dims (kept with size 1).
ref::Host max_abs_over(const ref::Host& x, const std::vector<int64_t>& dims) {
    Dims os = x.shape;
    for (int64_t d : dims) os[ref::norm_dim(d, x.rank())] = 1;
    ref::Host o = ref::filled(os, 0);
    for (int64_t i = 0; i < x.numel(); ++i) {
        auto idx = ref::unravel(i, x.shape);
        for (int64_t d : dims) idx[static_cast<std::size_t>(ref::norm_dim(d, x.rank()))] = 0;
        double& m = o.v[static_cast<std::size_t>(ref::ravel(idx, os))];
        m = std::max(m, std::fabs(x.v[static_cast<std::size_t>(i)]));
    }
    return o;
}

/// The positions of x's elements at index i of dim (dim kept with size 1).
ref::Host item_of(const ref::Host& x, int d, int64_t i) {
    Dims os = x.shape;
    os[d] = 1;
    ref::Host o = ref::filled(os, 0);
    for (int64_t k = 0; k < o.numel(); ++k) {
        auto idx = ref::unravel(k, os);
        idx[static_cast<std::size_t>(d)] = i;
        o.v[static_cast<std::size_t>(k)] = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
    }
    return o;
}

void add_iter_and_reductions(std::vector<OpEntry>& db) {
    {
        // ints: {dim, index}: the index-th item of iter_dim(dim), dim kept with size 1
        OpEntry e = entry("iter_dim", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"iter_dim", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({4, 5})}, {0, 2}),     sample(Tag::basic, {g({4, 5})}, {1, -1}),
                sample(Tag::basic, {g({2, 3, 4})}, {-1, 0}), sample(Tag::basic, {g({2, 3, 4})}, {1, 2}),
                sample(Tag::scalar, {g({1})}, {0, 0}),       sample(Tag::empty, {g({0, 3})}, {1, 2})};
        };
        e.forward = [](V in, A a) { return ops::iter_dim_item(in[0], a.ints[0], a.ints[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            const int64_t i = a.ints[1] < 0 ? a.ints[1] + x.shape[d] : a.ints[1];
            const ref::Host o = item_of(x, d, i);
            return ref::make_data(o.shape, o.v, a.dtype);
        };
        e.bad.push_back(bad("index 4 of 4", "[iter_dim]", [](const Device& d) {
            ops::iter_dim_item(f32({4, 5}, d), 0, 4);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[iter_dim]", [](const Device& d) {
            ops::iter_dim_item(f32({4, 5}, d), 2, 0);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("max_abs_dims", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"max_abs_dims", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3, 4})}, {0, 2}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {-1, 0, 1}),
                                       sample(Tag::basic, {g({2, 3})}, {1}),
                                       sample(Tag::basic, {g({2, 3})}, {}, {}, "no dims: |x|"),
                                       sample(Tag::scalar, {g({1})}, {0}),
                                       sample(Tag::empty, {g({0, 3})}, {1})};
        };
        e.forward = [](V in, A a) { return ops::max_abs_dims(in[0], dims_of(a.ints)); };
        e.reference = [](In in, A a) { return out(max_abs_over(ref::host(in[0]), a.ints), in[0].dtype()); };
        e.bad.push_back(bad("dim 0 twice", "[max_abs_dims]", [](const Device& d) {
            ops::max_abs_dims(f32({2, 3}, d), Dims{0, 0});
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[max_abs_dims]", [](const Device& d) {
            ops::max_abs_dims(f32({2, 3}, d), Dims{2});
        }));
        e.bad.push_back(bad("bool input", "[max_abs_dims]", [](const Device& d) {
            ops::max_abs_dims(ops::full({2}, 1, DType::boolean, d), Dims{0});
        }));
        e.bad.push_back(bad("undefined tensor", "[max_abs_dims]",
                            [](const Device&) { ops::max_abs_dims(TensorAny(), Dims{0}); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        // ints: {k, dim}; the indices of the k largest along dim, equal values in input order (as topk)
        OpEntry e = entry("argtopk", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"argtopk", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 5})}, {2, 1}),
                                       sample(Tag::basic, {g({4, 3})}, {4, 0}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {1, -1}),
                                       sample(Tag::special, {g({3, 6}, Domain::ties)}, {3, 1}, {}, "ties"),
                                       sample(Tag::scalar, {g({1})}, {1, 0}),
                                       sample(Tag::empty, {g({0, 3})}, {2, 1})};
        };
        e.forward = [](V in, A a) { return ops::argtopk(in[0], a.ints[0], a.ints[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[1], x.rank());
            const int64_t k = a.ints[0];
            ref::Host o = ref::map_lanes(x, d, k, [k](const std::vector<double>& lane) {
                std::vector<int64_t> order(lane.size());
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
                    return lane[static_cast<std::size_t>(p)] > lane[static_cast<std::size_t>(q)];
                });
                return std::vector<double>(order.begin(), order.begin() + k);
            });
            return ref::to_data(o, DType::i32);
        };
        e.out_dtype = [](A) { return DType::i32; };
        e.bad.push_back(bad("k 4 of 3", "[argtopk]", [](const Device& d) {
            ops::argtopk(f32({2, 3}, d), 4, 1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[argtopk]", [](const Device& d) {
            ops::argtopk(f32({2, 3}, d), 1, 2);
        }));
        db.push_back(std::move(e));
    }
}

void add_linalg_grid_shrink(std::vector<OpEntry>& db) {
    {
        // ints: {dim}
        OpEntry e = entry("outer_dim", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"outer_dim", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3}, Domain::small), g({2, 4}, Domain::small)}, {-1}),
                sample(Tag::basic, {g({3, 2}, Domain::small), g({4, 2}, Domain::small)}, {0}),
                sample(Tag::basic, {g({2, 3, 2}, Domain::small), g({2, 2, 2}, Domain::small)}, {1}),
                sample(Tag::broadcast, {g({2, 3}, Domain::small), g({1, 4}, Domain::small)}, {1}),
                sample(Tag::scalar, {g({1}), g({1})}, {0}),
                sample(Tag::empty, {g({0, 3}), g({0, 2})}, {1})};
        };
        e.forward = [](V in, A a) { return ops::outer_dim(in[0], in[1], a.ints[0]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]), y = ref::host(in[1]);
            const int r = x.rank();
            const auto d = static_cast<std::size_t>(ref::norm_dim(a.ints[0], r));
            // x [..., m, 1, ...] times y [..., 1, n, ...]
            Dims xs = x.shape, ys = y.shape;
            xs.insert(static_cast<int>(d) + 1, 1);
            ys.insert(static_cast<int>(d), 1);
            const ref::Host xu{xs, x.v}, yu{ys, y.v};
            const Dims os = ref::broadcast(xs, ys);
            ref::Host o = ref::filled(os, 0);
            for (int64_t i = 0; i < os.numel(); ++i) {
                auto idx = ref::unravel(i, os);
                o.v[static_cast<std::size_t>(i)] = ref::at_broadcast(xu, idx) * ref::at_broadcast(yu, idx);
            }
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("ranks 2 and 1", "[outer_dim]", [](const Device& d) {
            ops::outer_dim(f32({2, 3}, d), f32({3}, d), 0);
        }));
        e.bad.push_back(bad("batch dims 2 and 3", "[outer_dim]|[mul]", [](const Device& d) {
            ops::outer_dim(f32({2, 3}, d), f32({3, 3}, d), 1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[outer_dim]", [](const Device& d) {
            ops::outer_dim(f32({2, 3}, d), f32({2, 3}, d), 2);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1};
        db.push_back(std::move(e));
    }
    {
        // ints: {dim}, reals: {p, eps}
        OpEntry e = entry("vector_normalize", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"vector_normalize", dt};
            std::vector<Sample> s;
            for (double p : std::vector<double>{1, 2, 3, INFINITY})
                s.push_back(sample(Tag::basic, {g({2, 3})}, {1}, {p, 1e-12}));
            s.push_back(sample(Tag::basic, {g({2, 3, 4})}, {0}, {2, 1e-12}));
            s.push_back(
                sample(Tag::basic, {g({3, 2}, Domain::small)}, {-1}, {2, 10}, "eps above every norm"));
            s.push_back(
                sample(Tag::special, {data_of({2, 2}, {0, 0, 3, -4}, dt)}, {1}, {2, 1e-6}, "a zero row"));
            s.push_back(sample(Tag::scalar, {g({1})}, {0}, {2, 1e-12}));
            s.push_back(sample(Tag::empty, {g({0, 3})}, {1}, {2, 1e-12}));
            return s;
        };
        e.forward = [](V in, A a) { return ops::vector_normalize(in[0], a.reals[0], a.ints[0], a.reals[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            const double p = a.reals[0], eps = a.reals[1];
            ref::Host o = ref::map_lanes(x, d, x.shape[d], [p, eps](const std::vector<double>& l) {
                double n = 0;
                for (double v : l)
                    n = std::isinf(p) ? std::max(n, std::fabs(v)) : n + std::pow(std::fabs(v), p);
                if (!std::isinf(p)) n = std::pow(n, 1 / p);
                std::vector<double> r;
                for (double v : l) r.push_back(v / std::max(n, eps));
                return r;
            });
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("int input", "[vector_normalize]", [](const Device& d) {
            ops::vector_normalize(ops::full({2}, 1, DType::i32, d), 2, 0, 1e-12);
        }));
        e.bad.push_back(bad("negative eps", "[vector_normalize]",
                            [](const Device& d) { ops::vector_normalize(f32({2}, d), 2, 0, -1); }));
        e.bad.push_back(bad("dim 2 of rank 2", "[vector_normalize]", [](const Device& d) {
            ops::vector_normalize(f32({2, 3}, d), 2, 2, 1e-12);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        // inputs: the vectors; ints: {index_last}
        OpEntry e = entry("meshgrid_stack", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"meshgrid_stack", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2}), g({3})}, {0}), sample(Tag::basic, {g({2}), g({3})}, {1}),
                sample(Tag::basic, {g({2}), g({1}), g({3})}, {1}), sample(Tag::scalar, {g({1})}, {0}),
                sample(Tag::empty, {g({0}), g({2})}, {1})};
        };
        e.forward = [](V in, A a) { return ops::meshgrid_stack(in, a.ints[0] != 0); };
        e.reference = [](In in, A a) {
            const int n = static_cast<int>(in.size());
            const bool last = a.ints[0] != 0;
            Dims grid;
            for (const auto& t : in) grid.push_back(t.shape()[0]);
            Dims os = grid;
            os.insert(last ? n : 0, n);
            ref::Host o = ref::filled(os, 0);
            for (int64_t i = 0; i < os.numel(); ++i) {
                auto idx = ref::unravel(i, os);
                const int64_t which = last ? idx.back() : idx.front();
                if (last)
                    idx.pop_back();
                else
                    idx.erase(idx.begin());
                const ref::Host v = ref::host(in[static_cast<std::size_t>(which)]);
                o.v[static_cast<std::size_t>(i)] =
                    v.v[static_cast<std::size_t>(idx[static_cast<std::size_t>(which)])];
            }
            return ref::make_data(o.shape, o.v, a.dtype);
        };
        e.bad.push_back(
            bad("no vectors", "[meshgrid_stack]", [](const Device&) { ops::meshgrid_stack({}, false); }));
        e.bad.push_back(bad("a matrix input", "[meshgrid]", [](const Device& d) {
            ops::meshgrid_stack({f32({2, 2}, d)}, false);
        }));
        e.differentiable = true;
        e.grad_inputs = {0, 1, 2};
        db.push_back(std::move(e));
    }
    {
        // reals: {lambda, bias}
        OpEntry e = entry("shrink", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"shrink", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3})}, {}, {0.5, 0.5}),
                sample(Tag::basic, {g({2, 3, 4})}, {}, {1, 0.25}),
                sample(Tag::basic, {g({4, 3})}, {}, {0, 2}),
                sample(Tag::special, {data_of({7}, {NAN, INFINITY, -INFINITY, 0.5, -0.5, 0.75, -1}, dt)}, {},
                       {0.5, 0.25}, "NaN, inf, +-lambda"),
                sample(Tag::scalar, {g({1})}, {}, {0.5, 0.5}),
                sample(Tag::empty, {g({0, 3})}, {}, {0.5, 0.5})};
        };
        e.forward = [](V in, A a) { return activation::any::shrink(in[0], a.reals[0], a.reals[1]); };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const double lambda = a.reals[0], bias = a.reals[1];
            for (double& v : x.v) {
                if (std::fabs(v) <= lambda)
                    v = 0;
                else if (v < 0)
                    v += bias;
                else if (v > 0)
                    v -= bias;  // NaN falls through unchanged
            }
            return out(x, in[0].dtype());
        };
        e.bad.push_back(bad("bool input", "[shrink]", [](const Device& d) {
            activation::any::shrink(ops::full({2}, 1, DType::boolean, d), 0.5, 0.5);
        }));
        e.bad.push_back(bad("undefined tensor", "[shrink]",
                            [](const Device&) { activation::any::shrink(TensorAny(), 0.5, 0.5); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace api_parity

void add_api_parity_entries(std::vector<OpEntry>& db) {
    api_parity::add_iter_and_reductions(db);
    api_parity::add_linalg_grid_shrink(db);
}

}  // namespace burn::opdb
