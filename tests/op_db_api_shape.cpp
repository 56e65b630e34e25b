// Op-database entries of the composite shape helpers, masks and grids of issue 20 (no rows of their
// own, so `ops` is {}): squeeze_dims, unsqueeze_dims, movedim, slice_dim, split_with_sizes,
// tril_mask, triu_mask, diag_mask, meshgrid and cartesian_grid. References are naive loops over the
// host values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_shape {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The same values under a new shape (squeeze, unsqueeze).
TensorData reshaped(const TensorData& x, const Dims& shape) {
    ref::Host h = ref::host(x);
    h.shape = shape;
    return out(h, x.dtype());
}

/// out[i_0, ..., i_r] = x[j] with j[axes[d]] = i_d (torch.permute).
ref::Host permuted(const ref::Host& x, const std::vector<int64_t>& axes) {
    Dims os = x.shape;
    for (std::size_t d = 0; d < axes.size(); ++d)
        os[static_cast<int>(d)] = x.shape[static_cast<int>(axes[d])];
    ref::Host o = ref::filled(os, 0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, os);
        std::vector<int64_t> src(idx.size());
        for (std::size_t d = 0; d < axes.size(); ++d) src[static_cast<std::size_t>(axes[d])] = idx[d];
        o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(src, x.shape))];
    }
    return o;
}

/// x's elements at the given positions along dim.
ref::Host take_along(const ref::Host& x, int dim, const std::vector<int64_t>& pos) {
    Dims os = x.shape;
    os[dim] = static_cast<int64_t>(pos.size());
    ref::Host o = ref::filled(os, 0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, os);
        idx[static_cast<std::size_t>(dim)] =
            pos[static_cast<std::size_t>(idx[static_cast<std::size_t>(dim)])];
        o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
    }
    return o;
}

/// A mask entry: no inputs; ints = {offset, shape...}; true where keep(j - i, offset) is false.
void add_mask(std::vector<OpEntry>& db, const std::string& name,
              TensorAny (*fn)(const Dims&, int64_t, const Device&), bool (*removed)(int64_t, int64_t)) {
    OpEntry e = entry(name, {}, {DType::boolean});
    e.samples = [](DType) {
        return std::vector<Sample>{sample(Tag::basic, {}, {0, 3, 3}), sample(Tag::basic, {}, {1, 3, 4}),
                                   sample(Tag::basic, {}, {-1, 2, 4, 3}), sample(Tag::scalar, {}, {0, 1, 1}),
                                   sample(Tag::empty, {}, {0, 0, 3})};
    };
    e.forward = [fn](V, A a) {
        return fn(dims_of(std::vector<int64_t>(a.ints.begin() + 1, a.ints.end())), a.ints[0], a.device);
    };
    e.reference = [removed](In, A a) {
        const Dims shape = dims_of(std::vector<int64_t>(a.ints.begin() + 1, a.ints.end()));
        ref::Host o = ref::filled(shape, 0);
        for (int64_t k = 0; k < o.numel(); ++k) {
            auto idx = ref::unravel(k, shape);
            const int64_t i = idx[idx.size() - 2], j = idx.back();
            o.v[static_cast<std::size_t>(k)] = removed(j - i, a.ints[0]);
        }
        return ref::to_data(o, DType::boolean);
    };
    e.noncontiguous = false;
    const std::string x = "[" + name + "]";
    e.bad.push_back(bad("rank-1 shape", x, [fn](const Device& d) { fn(Dims{3}, 0, d); }));
    e.bad.push_back(bad("negative dim", x, [fn](const Device& d) { fn(Dims{2, -3}, 0, d); }));
    db.push_back(std::move(e));
}

void add_entries(std::vector<OpEntry>& db) {
    {  // ints = {want_rank, dims...}; want_rank -1: unchecked
        OpEntry e = entry("squeeze_dims", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"squeeze_dims", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 1, 3, 1})}, {2, 1, 3}),
                                       sample(Tag::basic, {g({2, 1, 3, 1})}, {3, -1}),
                                       sample(Tag::basic, {g({1, 2, 1, 3})}, {2}, {}, "every size-1 dim"),
                                       sample(Tag::scalar, {g({1, 1})}, {1}, {}, "all dims: keeps [1]"),
                                       sample(Tag::empty, {g({0, 1, 3})}, {-1, 1})};
        };
        e.forward = [](V in, A a) {
            return ops::squeeze_dims(in[0], dims_of(std::vector<int64_t>(a.ints.begin() + 1, a.ints.end())),
                                     a.ints[0]);
        };
        e.reference = [](In in, A a) {
            std::vector<bool> drop(static_cast<std::size_t>(in[0].shape().rank()), a.ints.size() == 1);
            for (std::size_t i = 1; i < a.ints.size(); ++i)
                drop[static_cast<std::size_t>(ref::norm_dim(a.ints[i], in[0].shape().rank()))] = true;
            Dims s;
            for (int d = 0; d < in[0].shape().rank(); ++d)
                if (!drop[static_cast<std::size_t>(d)] || in[0].shape()[d] != 1)
                    s.push_back(in[0].shape()[d]);
            if (s.rank() == 0) s.push_back(1);
            return reshaped(in[0], s);
        };
        e.bad.push_back(bad("dim of size 3", "[squeeze_dims]", [](const Device& d) {
            ops::squeeze_dims(f32({2, 1, 3}, d), Dims{2});
        }));
        e.bad.push_back(bad("dim twice", "[squeeze_dims]", [](const Device& d) {
            ops::squeeze_dims(f32({2, 1, 3}, d), Dims{1, -2});
        }));
        e.bad.push_back(bad("rank 1 asked, 2 left", "[squeeze_dims]", [](const Device& d) {
            ops::squeeze_dims(f32({2, 1, 3}, d), Dims{}, 1);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {  // ints = the positions in the result
        OpEntry e = entry("unsqueeze_dims", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"unsqueeze_dims", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3})}, {0, 2}), sample(Tag::basic, {g({2, 3})}, {-1}),
                sample(Tag::basic, {g({2, 3})}, {1, -1}), sample(Tag::scalar, {g({1})}, {0}),
                sample(Tag::empty, {g({0, 3})}, {3, 0})};
        };
        e.forward = [](V in, A a) { return ops::unsqueeze_dims(in[0], dims_of(a.ints)); };
        e.reference = [](In in, A a) {
            const int r = in[0].shape().rank() + static_cast<int>(a.ints.size());
            std::vector<bool> ins(static_cast<std::size_t>(r), false);
            for (int64_t d : a.ints) ins[static_cast<std::size_t>(ref::norm_dim(d, r))] = true;
            Dims s;
            int src = 0;
            for (int d = 0; d < r; ++d)
                s.push_back(ins[static_cast<std::size_t>(d)] ? 1 : in[0].shape()[src++]);
            return reshaped(in[0], s);
        };
        e.bad.push_back(bad("position twice", "[unsqueeze_dims]", [](const Device& d) {
            ops::unsqueeze_dims(f32({2, 3}, d), Dims{0, -4});
        }));
        e.bad.push_back(bad("position 4 of rank 4", "[unsqueeze_dims]", [](const Device& d) {
            ops::unsqueeze_dims(f32({2, 3}, d), Dims{0, 4});
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {  // ints = {k, src[k], dst[k], expected permutation axes[rank]} (the axes worked out by hand)
        OpEntry e = entry("movedim", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"movedim", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({2, 3, 4})}, {1, 0, 2, 1, 2, 0}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {2, 0, 1, 2, 0, 1, 2, 0}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {1, -1, 0, 2, 0, 1}),
                                       sample(Tag::scalar, {g({1})}, {1, 0, 0, 0}),
                                       sample(Tag::empty, {g({0, 3})}, {1, 0, 1, 1, 0})};
        };
        e.forward = [](V in, A a) {
            const auto k = static_cast<std::size_t>(a.ints[0]);
            return ops::movedim(in[0],
                                dims_of({a.ints.begin() + 1, a.ints.begin() + 1 + static_cast<long>(k)}),
                                dims_of({a.ints.begin() + 1 + static_cast<long>(k),
                                         a.ints.begin() + 1 + 2 * static_cast<long>(k)}));
        };
        e.reference = [](In in, A a) {
            const auto k = static_cast<long>(a.ints[0]);
            return out(permuted(ref::host(in[0]), {a.ints.begin() + 1 + 2 * k, a.ints.end()}), in[0].dtype());
        };
        e.bad.push_back(bad("source twice", "[movedim]", [](const Device& d) {
            ops::movedim(f32({2, 3, 4}, d), Dims{0, 0}, Dims{1, 2});
        }));
        e.bad.push_back(bad("destination twice", "[movedim]", [](const Device& d) {
            ops::movedim(f32({2, 3, 4}, d), Dims{0, 1}, Dims{2, -1});
        }));
        e.bad.push_back(bad("2 sources, 1 destination", "[movedim]", [](const Device& d) {
            ops::movedim(f32({2, 3, 4}, d), Dims{0, 1}, Dims{2});
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {  // ints = {dim, start, end, step}
        OpEntry e = entry("slice_dim", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"slice_dim", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({3, 4})}, {1, 0, 4, 2}),
                                       sample(Tag::basic, {g({3, 4})}, {0, 1, 3, 1}),
                                       sample(Tag::basic, {g({2, 3, 4})}, {-1, -3, -1, 1}),
                                       sample(Tag::basic, {g({2, 5})}, {1, 0, 5, -2}, {}, "negative step"),
                                       sample(Tag::scalar, {g({1})}, {0, 0, 1, 1}),
                                       sample(Tag::empty, {g({0, 3})}, {1, 1, 2, 1})};
        };
        e.forward = [](V in, A a) {
            return ops::slice_dim(in[0], a.ints[0], SliceArg(a.ints[1], a.ints[2], a.ints[3]));
        };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            const int64_t n = x.shape[d];
            const int64_t s = a.ints[1] < 0 ? a.ints[1] + n : a.ints[1],
                          t = a.ints[2] < 0 ? a.ints[2] + n : a.ints[2];
            return out(take_along(x, d, ref::slice_positions(s, t, a.ints[3])), in[0].dtype());
        };
        e.bad.push_back(bad("range past the end", "[slice_dim]|[slice]", [](const Device& d) {
            ops::slice_dim(f32({2, 3}, d), 1, SliceArg(0, 5));
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[slice_dim]", [](const Device& d) {
            ops::slice_dim(f32({2, 3}, d), 2, 0);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {  // ints = {dim, piece, sizes...}
        OpEntry e = entry("split_with_sizes", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"split_with_sizes", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({5, 2})}, {0, 0, 2, 3}), sample(Tag::basic, {g({5, 2})}, {0, 1, 2, 3}),
                sample(Tag::basic, {g({2, 6})}, {-1, 2, 1, 0, 5}, {}, "a zero size"),
                sample(Tag::scalar, {g({1})}, {0, 0, 1}), sample(Tag::empty, {g({0, 3})}, {1, 1, 1, 2})};
        };
        e.forward = [](V in, A a) {
            auto parts = ops::split_with_sizes(in[0], dims_of({a.ints.begin() + 2, a.ints.end()}), a.ints[0]);
            return parts.at(static_cast<std::size_t>(a.ints[1]));
        };
        e.reference = [](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            int64_t start = 0;
            for (int64_t i = 0; i < a.ints[1]; ++i) start += a.ints[static_cast<std::size_t>(2 + i)];
            std::vector<int64_t> pos;
            for (int64_t i = 0; i < a.ints[static_cast<std::size_t>(2 + a.ints[1])]; ++i)
                pos.push_back(start + i);
            return out(take_along(x, d, pos), in[0].dtype());
        };
        e.custom = [](DType dt, const Device& d) {
            auto parts = ops::split_with_sizes(ops::full({7, 2}, 1, dt, d), Dims{3, 0, 4}, 0);
            ASSERT_EQ(parts.size(), 3u);
            EXPECT_EQ(parts[1].shape(), (Dims{0, 2}));
        };
        e.bad.push_back(bad("sizes add up to 4, not 5", "[split_with_sizes]", [](const Device& d) {
            ops::split_with_sizes(f32({5, 2}, d), Dims{2, 2}, 0);
        }));
        e.bad.push_back(bad("sizes add up to 6, not 5", "[split_with_sizes]", [](const Device& d) {
            ops::split_with_sizes(f32({5, 2}, d), Dims{2, 4}, 0);
        }));
        e.bad.push_back(bad("negative size", "[split_with_sizes]", [](const Device& d) {
            ops::split_with_sizes(f32({5, 2}, d), Dims{6, -1}, 0);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }

    // ---- masks and grids
    add_mask(db, "tril_mask", &ops::tril_mask, [](int64_t jd, int64_t k) { return jd > k; });
    add_mask(db, "triu_mask", &ops::triu_mask, [](int64_t jd, int64_t k) { return jd < k; });
    add_mask(db, "diag_mask", &ops::diag_mask, [](int64_t jd, int64_t k) { return jd != k; });
    // ints = {cartesian, which output}; one entry per output, whose gradient reaches only its own input
    for (int64_t w = 0; w < 3; ++w) {
        const std::string name = w == 0 ? "meshgrid" : "meshgrid_" + std::to_string(w);
        OpEntry e = entry(name, {}, kAll);
        e.samples = [name, w](DType dt) {
            InputGen g{name, dt};
            std::vector<Sample> s;
            for (int64_t xy = 0; xy < 2; ++xy) {
                s.push_back(sample(Tag::basic, {g({2}), g({3}), g({4})}, {xy, w}));
                if (w < 2) s.push_back(sample(Tag::basic, {g({3}), g({2})}, {xy, w}));
            }
            if (w == 0) s.push_back(sample(Tag::scalar, {g({1})}, {1, 0}));
            if (w < 2) s.push_back(sample(Tag::empty, {g({0}), g({3})}, {0, w}));
            return s;
        };
        e.forward = [](V in, A a) {
            return ops::meshgrid(in, a.ints[0] != 0).at(static_cast<std::size_t>(a.ints[1]));
        };
        e.reference = [](In in, A a) {
            const bool xy = a.ints[0] != 0;
            const auto w = static_cast<std::size_t>(a.ints[1]);
            const int n = static_cast<int>(in.size());
            Dims shape;
            for (const auto& t : in) shape.push_back(t.numel());
            auto pos = [&](int i) { return xy && n >= 2 && i < 2 ? 1 - i : i; };
            if (xy && n >= 2) std::swap(shape[0], shape[1]);
            ref::Host v = ref::host(in[w]);
            ref::Host o = ref::filled(shape, 0);
            for (int64_t k = 0; k < o.numel(); ++k)
                o.v[static_cast<std::size_t>(k)] = v.v[static_cast<std::size_t>(
                    ref::unravel(k, shape)[static_cast<std::size_t>(pos(static_cast<int>(w)))])];
            return out(o, in[0].dtype());
        };
        e.bad.push_back(bad("a matrix input", "[meshgrid]", [](const Device& d) {
            ops::meshgrid({f32({2, 2}, d)}, false);
        }));
        e.bad.push_back(bad("no inputs", "[meshgrid]", [](const Device&) { ops::meshgrid({}, false); }));
        e.bad.push_back(bad("dtypes differ", "[meshgrid]", [](const Device& d) {
            ops::meshgrid({f32({2}, d), ops::full({2}, 1, DType::i32, d)}, false);
        }));
        e.differentiable = true;
        e.grad_inputs = {static_cast<int>(w)};
        db.push_back(std::move(e));
    }
    {  // ints = the shape
        OpEntry e = entry("cartesian_grid", {}, kInt);
        e.samples = [](DType) {
            return std::vector<Sample>{sample(Tag::basic, {}, {2, 3}), sample(Tag::basic, {}, {2, 1, 3}),
                                       sample(Tag::scalar, {}, {1}), sample(Tag::empty, {}, {0, 2})};
        };
        e.forward = [](V, A a) { return ops::cartesian_grid(dims_of(a.ints), a.dtype, a.device); };
        e.reference = [](In, A a) {
            const Dims shape = dims_of(a.ints);
            Dims os = shape;
            os.push_back(shape.rank());
            ref::Host o = ref::filled(os, 0);
            for (int64_t k = 0; k < o.numel(); ++k) {
                auto idx = ref::unravel(k, os);
                o.v[static_cast<std::size_t>(k)] =
                    static_cast<double>(idx[static_cast<std::size_t>(idx.back())]);
            }
            return ref::to_data(o, a.dtype);
        };
        e.noncontiguous = false;
        e.bad.push_back(bad("float dtype", "[cartesian_grid]",
                            [](const Device& d) { ops::cartesian_grid(Dims{2}, DType::f32, d); }));
        db.push_back(std::move(e));
    }
}

}  // namespace api_shape

void add_api_shape_entries(std::vector<OpEntry>& db) {
    api_shape::add_entries(db);
}

}  // namespace burn::opdb
