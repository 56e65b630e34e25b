// Op-database entries of issue 20's data-dependent selections and fills, composites with `ops` = {}:
// argwhere ([n, rank] positions of the non-zero elements), nonzero (one [n] tensor per dim, compared
// here stacked as [rank, n]), mask_select, one_hot_fill and slice_fill. References walk the host values
// in row-major order.
#include <cmath>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_select {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The positions of x's non-zero values: [n, rank] (argwhere) or [rank, n] (transposed: nonzero).
TensorData positions_ref(In in, bool transposed) {
    ref::Host x = ref::host(in[0]);
    std::vector<std::vector<int64_t>> hits;
    for (int64_t i = 0; i < x.numel(); ++i)
        if (x.v[static_cast<std::size_t>(i)] != 0) hits.push_back(ref::unravel(i, x.shape));
    const auto n = static_cast<int64_t>(hits.size());
    const int r = x.rank();
    ref::Host o = ref::filled(transposed ? Dims{r, n} : Dims{n, r}, 0);
    for (int64_t j = 0; j < n; ++j)
        for (int d = 0; d < r; ++d)
            o.v[static_cast<std::size_t>(transposed ? d * n + j : j * r + d)] =
                static_cast<double>(hits[static_cast<std::size_t>(j)][static_cast<std::size_t>(d)]);
    return ref::to_data(o, DType::i32);
}

std::vector<Sample> select_samples(const std::string& name, DType dt) {
    InputGen g{name, dt};
    std::vector<Sample> s = {sample(Tag::basic, {g({2, 3}, Domain::ties)}),
                             sample(Tag::basic, {g({2, 3, 4}, Domain::ties)}),
                             sample(Tag::basic, {data_of({2, 2}, {0, 0, 0, 0}, dt)}, {}, {}, "no hit"),
                             sample(Tag::scalar, {g({1})}), sample(Tag::empty, {g({0, 3})})};
    if (is_float(dt))
        s.push_back(sample(Tag::special, {data_of({4}, {NAN, -0.0, 0, INFINITY}, dt)}, {}, {},
                           "NaN is non-zero, -0 is zero"));
    return s;
}

void add_entries(std::vector<OpEntry>& db) {
    for (int which = 0; which < 2; ++which) {
        const std::string name = which == 0 ? "argwhere" : "nonzero";
        OpEntry e = entry(name, {}, kAll);
        e.samples = [name](DType dt) { return select_samples(name, dt); };
        e.forward = [which](V in, A) {
            if (which == 0) return ops::argwhere(in[0]);
            std::vector<TensorAny> parts = ops::nonzero(in[0]);
            return ops::stack(parts, 0);
        };
        e.reference = [which](In in, A) { return positions_ref(in, which == 1); };
        e.out_dtype = [](A) { return DType::i32; };
        const std::string x = "[" + name + "]";
        e.bad.push_back(bad("undefined tensor", x, [which](const Device&) {
            if (which == 0)
                ops::argwhere(TensorAny());
            else
                ops::nonzero(TensorAny());
        }));
        db.push_back(std::move(e));
    }
}

/// mask_select: inputs x and a bool mask (same rank, broadcast).
void add_mask_select(std::vector<OpEntry>& db) {
    OpEntry e = entry("mask_select", {}, kAll);
    e.samples = [](DType dt) {
        InputGen g{"mask_select", dt};
        InputGen m{"mask_select.mask", DType::boolean};
        return std::vector<Sample>{
            sample(Tag::basic, {g({2, 3}), m({2, 3})}), sample(Tag::broadcast, {g({2, 3, 4}), m({1, 3, 1})}),
            sample(Tag::broadcast, {g({3, 1}), m({3, 4})}, {}, {}, "x broadcast"),
            sample(Tag::scalar, {g({1}), m({1})}), sample(Tag::empty, {g({0, 3}), m({0, 3})})};
    };
    e.forward = [](V in, A) { return ops::mask_select(in[0], in[1]); };
    e.reference = [](In in, A) {
        ref::Host x = ref::host(in[0]), m = ref::host(in[1]);
        const Dims s = ref::broadcast(x.shape, m.shape);
        std::vector<double> v;
        for (int64_t i = 0; i < s.numel(); ++i) {
            const auto idx = ref::unravel(i, s);
            if (ref::at_broadcast(m, idx) != 0) v.push_back(ref::at_broadcast(x, idx));
        }
        const auto n = static_cast<int64_t>(v.size());
        return out(ref::Host{Dims{n}, std::move(v)}, in[0].dtype());
    };
    e.bad.push_back(bad("float mask", "[mask_select]",
                        [](const Device& d) { ops::mask_select(f32({2}, d), f32({2}, d)); }));
    e.bad.push_back(bad("mask of another rank", "[mask_select]", [](const Device& d) {
        ops::mask_select(f32({2, 2}, d), ops::full({2}, 1, DType::boolean, d));
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

/// one_hot_fill: ints {num_classes, axis}, reals {on, off}; classes in [-C, C).
void add_one_hot_fill(std::vector<OpEntry>& db) {
    OpEntry e = entry("one_hot_fill", {}, kNumeric);
    e.samples = [](DType dt) {
        auto classes = [dt](const Dims& s, int64_t c, bool negative) {
            std::vector<double> v;
            for (int64_t i = 0; i < s.numel(); ++i)
                v.push_back(double((i * 7 + 3) % c - (negative && i % 2 ? c : 0)));
            return data_of(s, v, dt);
        };
        const bool neg = dt != DType::u8;
        return std::vector<Sample>{
            sample(Tag::basic, {classes({2, 3}, 4, neg)}, {4, -1}, {1, 0}),
            sample(Tag::basic, {classes({2, 3}, 5, neg)}, {5, 0}, {3, neg ? -1.0 : 7.0}, "axis 0"),
            sample(Tag::basic, {classes({2, 3}, 3, false)}, {3, 1}, {2, 0.5}, "axis 1"),
            sample(Tag::scalar, {classes({1}, 2, false)}, {2, -1}, {1, 0}),
            sample(Tag::empty, {classes({0, 2}, 3, false)}, {3, -1}, {1, 0})};
    };
    e.forward = [](V in, A a) {
        return ops::one_hot_fill(in[0], a.ints[0], a.reals[0], a.reals[1], a.ints[1]);
    };
    e.reference = [](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int64_t c = a.ints[0];
        const int r = x.rank() + 1;
        const int axis = static_cast<int>(a.ints[1] < 0 ? a.ints[1] + r : a.ints[1]);
        Dims s;
        for (int d = 0, k = 0; d < r; ++d) s.push_back(d == axis ? c : x.shape[k++]);
        ref::Host o = ref::filled(s, a.reals[1]);
        for (int64_t i = 0; i < x.numel(); ++i) {
            auto cls = static_cast<int64_t>(std::trunc(x.v[static_cast<std::size_t>(i)]));
            if (cls < 0) cls += c;
            std::vector<int64_t> idx = ref::unravel(i, x.shape);
            idx.insert(idx.begin() + axis, cls);
            o.v[static_cast<std::size_t>(ref::ravel(idx, s))] = a.reals[0];
        }
        return out(o, in[0].dtype());
    };
    e.bad.push_back(bad("class past num_classes", "[one_hot", [](const Device& d) {
        ops::one_hot_fill(ops::full({2}, 5, DType::i32, d), 3, 1, 0, -1);
    }));
    e.bad.push_back(bad("axis 3 of an output of rank 2", "[one_hot_fill]", [](const Device& d) {
        ops::one_hot_fill(ops::full({2}, 1, DType::i32, d), 3, 1, 0, 3);
    }));
    db.push_back(std::move(e));
}

/// slice_fill: ints {start0, end0, start1, end1}, reals {value}.
void add_slice_fill(std::vector<OpEntry>& db) {
    OpEntry e = entry("slice_fill", {}, kAll);
    e.samples = [](DType dt) {
        InputGen g{"slice_fill", dt};
        return std::vector<Sample>{sample(Tag::basic, {g({3, 4})}, {0, 2, 1, 3}, {1}),
                                   sample(Tag::basic, {g({3, 4})}, {1, 3, 0, 4}, {0}),
                                   sample(Tag::empty, {g({3, 4})}, {1, 1, 0, 4}, {1}, "empty range")};
    };
    e.forward = [](V in, A a) {
        return ops::slice_fill(in[0], {SliceArg(a.ints[0], a.ints[1]), SliceArg(a.ints[2], a.ints[3])},
                               a.reals[0]);
    };
    e.reference = [](In in, A a) {
        ref::Host x = ref::host(in[0]);
        for (int64_t i = a.ints[0]; i < a.ints[1]; ++i)
            for (int64_t j = a.ints[2]; j < a.ints[3]; ++j)
                x.v[static_cast<std::size_t>(i * x.shape[1] + j)] = a.reals[0];
        return out(x, in[0].dtype());
    };
    e.bad.push_back(bad("too many ranges", "[slice", [](const Device& d) {
        ops::slice_fill(f32({2}, d), {SliceArg(0, 1), SliceArg(0, 1)}, 0);
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

}  // namespace api_select

void add_api_select_entries(std::vector<OpEntry>& db) {
    api_select::add_entries(db);
    api_select::add_mask_select(db);
    api_select::add_one_hot_fill(db);
    api_select::add_slice_fill(db);
}

}  // namespace burn::opdb
