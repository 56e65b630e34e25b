// Op-database entries of issue 20's running extrema and statistics: the derived scan rows cummax and
// cummin (their CPU kernels and decompositions are both checked against these references) with their
// torch-style indices, and the
// composites median, median_dim (values and indices) and cov (`ops` = {}). References are naive
// float64 loops over the host values.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_stats {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Lane = std::vector<double>;

/// Samples of a lane op: ints[0] is the dim. NaN lanes for floats.
/// ties: a sample of equal values (not where the gradcheck runs: a tie has no derivative).
std::vector<Sample> lane_samples(const std::string& name, DType dt, bool empty_dim, bool ties) {
    InputGen g{name, dt};
    std::vector<Sample> s = {sample(Tag::basic, {g({2, 5})}, {1}), sample(Tag::basic, {g({2, 3, 4})}, {0}),
                             sample(Tag::basic, {g({2, 3, 4})}, {-1}), sample(Tag::scalar, {g({1})}, {0}),
                             sample(Tag::empty, {g({0, 3})}, {1})};
    if (ties) s.push_back(sample(Tag::special, {g({3, 4}, Domain::ties)}, {1}, {}, "ties"));
    if (empty_dim) s.push_back(sample(Tag::empty, {g({2, 0})}, {1}, {}, "empty dim"));
    if (is_float(dt))
        s.push_back(sample(Tag::special, {data_of({2, 4}, {1, NAN, 3, 0, NAN, -1, NAN, 2}, dt)}, {1}, {},
                           "NaN lanes"));
    return s;
}

/// The running extremum of a lane; a NaN propagates to the end.
Lane running(const Lane& v, bool max) {
    Lane o;
    double acc = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double x = v[i];
        if (i == 0 || std::isnan(x) || std::isnan(acc))
            acc = (i == 0 || std::isnan(x)) ? x : acc;
        else
            acc = max ? std::max(acc, x) : std::min(acc, x);
        o.push_back(acc);
    }
    return o;
}

/// torch.cummax's / cummin's index of each lane position: the latest record (x >= best, or NaN).
Lane running_index(const Lane& v, bool max) {
    Lane o;
    double best = 0, at = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double x = v[i];
        if (i == 0 || std::isnan(x) || (!std::isnan(best) && (max ? x >= best : x <= best))) {
            best = x;
            at = static_cast<double>(i);
        }
        o.push_back(at);
    }
    return o;
}

/// The lower median's position in the lane (torch's rule) and its value: the stable-sorted element at
/// (n - 1) / 2, or the first NaN when the lane holds one.
std::pair<double, double> median_of(const Lane& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::isnan(v[i])) return {v[i], static_cast<double>(i)};
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    const std::size_t k = order[(v.size() - 1) / 2];
    return {v[k], static_cast<double>(k)};
}

void add_scan_indices(std::vector<OpEntry>& db, const std::string& name, bool max) {
    OpEntry e = entry(name, {}, kNumeric);
    e.samples = [name](DType dt) { return lane_samples(name, dt, true, true); };
    e.forward = [max](V in, A a) {
        return (max ? ops::cummax_with_indices(in[0], a.ints[0]) : ops::cummin_with_indices(in[0], a.ints[0]))
            .second;
    };
    e.reference = [max](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int d = ref::norm_dim(a.ints[0], x.rank());
        return ref::to_data(
            ref::map_lanes(x, d, x.shape[d], [max](const Lane& l) { return running_index(l, max); }),
            DType::i32);
    };
    e.out_dtype = [](A) { return DType::i32; };
    const std::string x = max ? "[cummax]" : "[cummin]";
    e.bad.push_back(bad("bool input", x, [max](const Device& d) {
        auto b = ops::full({2}, 1, DType::boolean, d);
        max ? ops::cummax_with_indices(b, 0) : ops::cummin_with_indices(b, 0);
    }));
    db.push_back(std::move(e));
}

void add_scan(std::vector<OpEntry>& db, const std::string& name, OpId id, bool max) {
    OpEntry e = entry(name, {id}, kNumeric);
    e.samples = [name](DType dt) { return lane_samples(name, dt, true, false); };
    e.forward = [max](V in, A a) {
        return max ? ops::cummax(in[0], a.ints[0]) : ops::cummin(in[0], a.ints[0]);
    };
    e.reference = [max](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int d = ref::norm_dim(a.ints[0], x.rank());
        return out(ref::map_lanes(x, d, x.shape[d], [max](const Lane& l) { return running(l, max); }),
                   in[0].dtype());
    };
    const std::string x = "[" + name + "]";
    auto fn = [max](TensorAny t, int64_t d) { return max ? ops::cummax(t, d) : ops::cummin(t, d); };
    e.bad.push_back(bad("dim 2 of rank 2", x, [fn](const Device& d) { fn(f32({2, 3}, d), 2); }));
    e.bad.push_back(
        bad("bool input", x, [fn](const Device& d) { fn(ops::full({2}, 1, DType::boolean, d), 0); }));
    e.bad.push_back(bad("undefined tensor", x, [fn](const Device&) { fn(TensorAny(), 0); }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

/// x [v, o] (dim 1) or [o, v] (dim 0): C[i][j] = sum_k (x_ik - m_i)(x_jk - m_j) / (n - correction).
TensorData cov_ref(In in, A a) {
    ref::Host x = ref::host(in[0]);
    const bool rows = ref::norm_dim(a.ints[0], 2) == 1;  // variables are rows
    const int64_t nv = rows ? x.shape[0] : x.shape[1], n = rows ? x.shape[1] : x.shape[0];
    auto at = [&](int64_t var, int64_t obs) {
        return x.v[static_cast<std::size_t>(rows ? var * n + obs : obs * nv + var)];
    };
    std::vector<double> m(static_cast<std::size_t>(nv), 0);
    for (int64_t i = 0; i < nv; ++i) {
        for (int64_t k = 0; k < n; ++k) m[static_cast<std::size_t>(i)] += at(i, k);
        m[static_cast<std::size_t>(i)] /= static_cast<double>(n);
    }
    ref::Host o = ref::filled(Dims{nv, nv}, 0);
    for (int64_t i = 0; i < nv; ++i)
        for (int64_t j = 0; j < nv; ++j) {
            double s = 0;
            for (int64_t k = 0; k < n; ++k)
                s +=
                    (at(i, k) - m[static_cast<std::size_t>(i)]) * (at(j, k) - m[static_cast<std::size_t>(j)]);
            o.v[static_cast<std::size_t>(i * nv + j)] = s / static_cast<double>(n - a.ints[1]);
        }
    return out(o, in[0].dtype());
}

void add_entries(std::vector<OpEntry>& db) {
    add_scan(db, "cummax", OpId::cummax, true);
    add_scan(db, "cummin", OpId::cummin, false);
    add_scan_indices(db, "cummax_indices", true);
    add_scan_indices(db, "cummin_indices", false);
    {
        OpEntry e = entry("median", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"median", dt};
            std::vector<Sample> s = {sample(Tag::basic, {g({2, 3})}, {}, {}, "even count: the lower one"),
                                     sample(Tag::basic, {g({3, 3})}), sample(Tag::basic, {g({2, 3, 4})}),
                                     sample(Tag::scalar, {g({1})})};
            if (is_float(dt))
                s.push_back(sample(Tag::special, {data_of({4}, {1, NAN, 3, 0}, dt)}, {}, {}, "a NaN"));
            return s;
        };
        e.forward = [](V in, A) { return ops::median(in[0]); };
        e.reference = [](In in, A) {
            ref::Host x = ref::host(in[0]);
            return out(ref::Host{Dims{1}, {median_of(x.v).first}}, in[0].dtype());
        };
        e.bad.push_back(bad("empty input", "[median]", [](const Device& d) { ops::median(f32({0, 3}, d)); }));
        e.bad.push_back(bad("bool input", "[median]",
                            [](const Device& d) { ops::median(ops::full({2}, 1, DType::boolean, d)); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    for (int which = 0; which < 2; ++which) {
        const std::string name = which == 0 ? "median_dim" : "median_dim_indices";
        OpEntry e = entry(name, {}, kNumeric);
        e.samples = [name, which](DType dt) { return lane_samples(name, dt, false, which == 1); };
        e.forward = [which](V in, A a) {
            auto vi = ops::median_dim_with_indices(in[0], a.ints[0]);
            return which == 0 ? vi.first : vi.second;
        };
        e.reference = [which](In in, A a) {
            ref::Host x = ref::host(in[0]);
            const int d = ref::norm_dim(a.ints[0], x.rank());
            ref::Host o = ref::reduce_dim(x, d, [which](const Lane& l) {
                auto m = median_of(l);
                return which == 0 ? m.first : m.second;
            });
            return which == 0 ? out(o, in[0].dtype()) : ref::to_data(o, DType::i32);
        };
        if (which == 1) e.out_dtype = [](A) { return DType::i32; };
        e.bad.push_back(bad("empty dim", "[median_dim]", [](const Device& d) {
            ops::median_dim(f32({2, 0}, d), 1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[median_dim]", [](const Device& d) {
            ops::median_dim(f32({2, 3}, d), 2);
        }));
        e.differentiable = which == 0;
        if (which == 0) e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("cov", {}, kFloat);
        e.samples = [](DType dt) {
            InputGen g{"cov", dt};
            return std::vector<Sample>{sample(Tag::basic, {g({3, 5})}, {1, 1}, {}, "[v, o], sample"),
                                       sample(Tag::basic, {g({4, 2})}, {0, 0}, {}, "[o, v], population"),
                                       sample(Tag::basic, {g({2, 4})}, {-1, 1}),
                                       sample(Tag::scalar, {g({1, 3})}, {1, 1})};
        };
        e.forward = [](V in, A a) { return ops::cov(in[0], a.ints[0], a.ints[1]); };
        e.reference = cov_ref;
        e.bad.push_back(bad("rank 3", "[cov]", [](const Device& d) { ops::cov(f32({2, 3, 4}, d), 1, 1); }));
        e.bad.push_back(bad("int input", "[cov]", [](const Device& d) {
            ops::cov(ops::full({2, 3}, 1, DType::i32, d), 1, 1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[cov]", [](const Device& d) {
            ops::cov(f32({2, 3}, d), 2, 1);
        }));
        e.bad.push_back(bad("negative correction", "[cov]", [](const Device& d) {
            ops::cov(f32({2, 3}, d), 1, -1);
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace api_stats

void add_api_stats_entries(std::vector<OpEntry>& db) {
    api_stats::add_entries(db);
}

}  // namespace burn::opdb
