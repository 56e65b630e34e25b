// Op-database entries of issue 20's data-dependent selections, composites with `ops` = {}: argwhere
// ([n, rank] positions of the non-zero elements) and nonzero (one [n] tensor per dim, compared here
// stacked as [rank, n]). References walk the host values in row-major order.
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

}  // namespace api_select

void add_api_select_entries(std::vector<OpEntry>& db) {
    api_select::add_entries(db);
}

}  // namespace burn::opdb
