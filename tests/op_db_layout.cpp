// Op-database entries: creation (full, arange, eye, random), cast and copy, and the reshaping views
// (reshape, permute, swap_dims, expand, unsqueeze/squeeze/flatten, tril/triu).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

BadCase undefined(const std::string& op, const Forward& f, std::vector<int64_t> ints = {}) {
    return bad("undefined tensor", "[" + op + "]", [f, ints](const Device&) {
        Args a;
        a.ints = ints;
        f({TensorAny()}, a);
    });
}

// ---- creation

void add_creation(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("full", {OpId::fill}, kAll);
        e.samples = [](DType dt) {
            const double v1 = is_float(dt) ? 1.5 : is_bool(dt) ? 1 : 3;
            const double v2 = is_float(dt) ? -0.25 : is_bool(dt) ? 0 : dt == DType::u8 ? 200 : -2;
            return std::vector<Sample>{
                sample(Tag::basic, {}, {2, 3}, {v1}), sample(Tag::basic, {}, {2, 3, 4}, {v2}),
                sample(Tag::scalar, {}, {1}, {v2}), sample(Tag::empty, {}, {0, 3}, {v1})};
        };
        e.forward = [](V, A a) { return ops::full(dims_of(a.ints), a.reals.at(0), a.dtype, a.device); };
        e.reference = [](In, A a) { return out(ref::filled(dims_of(a.ints), a.reals.at(0)), a.dtype); };
        e.noncontiguous = false;
        e.bad.push_back(bad("negative dim", "[full]", [](const Device& d) {
            ops::full({2, -1}, 0, DType::f32, d);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e =
            entry("arange", {OpId::arange},
                  {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8});
        e.samples = [](DType) {
            return std::vector<Sample>{
                sample(Tag::basic, {}, {0, 5, 1}),   sample(Tag::basic, {}, {2, 11, 3}),
                sample(Tag::basic, {}, {5, -3, -2}), sample(Tag::basic, {}, {-4, 4, 3}),
                sample(Tag::scalar, {}, {7, 8, 1}),  sample(Tag::empty, {}, {3, 3, 1}),
                sample(Tag::empty, {}, {3, 0, 1})};
        };
        e.forward = [](V, A a) { return ops::arange(a.ints[0], a.ints[1], a.ints[2], a.dtype, a.device); };
        e.reference = [](In, A a) {
            std::vector<double> v;
            for (int64_t i = a.ints[0]; a.ints[2] > 0 ? i < a.ints[1] : i > a.ints[1]; i += a.ints[2])
                v.push_back(static_cast<double>(i));
            return data_of({static_cast<int64_t>(v.size())}, v, value_dtype(a.dtype));
        };
        e.noncontiguous = false;
        e.bad.push_back(
            bad("step 0", "[arange]", [](const Device& d) { ops::arange(0, 4, 0, DType::i32, d); }));
        e.bad.push_back(
            bad("bool dtype", "[arange]", [](const Device& d) { ops::arange(0, 4, 1, DType::boolean, d); }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("eye", {}, kAll);
        e.samples = [](DType) {
            return std::vector<Sample>{sample(Tag::basic, {}, {3}), sample(Tag::basic, {}, {4}),
                                       sample(Tag::scalar, {}, {1}), sample(Tag::empty, {}, {0})};
        };
        e.forward = [](V, A a) { return ops::eye(a.ints[0], a.dtype, a.device); };
        e.reference = [](In, A a) {
            const int64_t n = a.ints[0];
            ref::Host h = ref::filled({n, n}, 0.0);
            for (int64_t i = 0; i < n; ++i) h.v[static_cast<std::size_t>(i * n + i)] = 1;
            return out(h, a.dtype);
        };
        e.noncontiguous = false;
        e.bad.push_back(bad("negative size", "[eye]", [](const Device& d) { ops::eye(-1, DType::f32, d); }));
        db.push_back(std::move(e));
    }
    {
        // Statistics, determinism for a seed, and equality across devices (Philox is counter-based).
        OpEntry e = entry("random", {OpId::random}, kFloat);
        e.forward = [](V, A a) {
            return ops::random(dims_of(a.ints), Distribution::Default, a.dtype, a.device);
        };
        e.custom = [](DType dt, const Device& d) {
            auto draw = [&](const Dims& s, Distribution dist) { return ops::random(s, dist, dt, d); };
            auto stats = [](const TensorData& x, double& mean, double& std) {
                ref::Host h = ref::host(x);
                mean = ref::sum(h.v) / static_cast<double>(h.numel());
                double ss = 0;
                for (double v : h.v) ss += (v - mean) * (v - mean);
                std = std::sqrt(ss / static_cast<double>(h.numel()));
            };
            const int64_t n = 20000;
            double m, s;
            d.seed(1234);
            TensorData u = ops::into_data(draw({n}, Distribution::Uniform(-1, 3)));
            EXPECT_EQ(u.dtype(), dt);
            stats(u, m, s);
            EXPECT_NEAR(m, 1.0, 0.05) << "uniform(-1, 3) mean";
            EXPECT_NEAR(s, 4 / std::sqrt(12.0), 0.03) << "uniform(-1, 3) std";
            for (double v : ref::host(u).v) ASSERT_TRUE(v >= -1 && v <= 3) << "uniform(-1, 3) gave " << v;
            stats(ops::into_data(draw({n}, Distribution::Normal(2, 0.5))), m, s);
            EXPECT_NEAR(m, 2.0, 0.02) << "normal(2, 0.5) mean";
            EXPECT_NEAR(s, 0.5, 0.03) << "normal(2, 0.5) std";
            TensorData b = ops::into_data(draw({n}, Distribution::Bernoulli(0.3)));
            stats(b, m, s);
            EXPECT_NEAR(m, 0.3, 0.02) << "bernoulli(0.3) rate";
            for (double v : ref::host(b).v) ASSERT_TRUE(v == 0 || v == 1) << "bernoulli gave " << v;
            // Same seed, same values; the stream moves on between calls; another seed differs.
            d.seed(7);
            TensorData x1 = ops::into_data(draw({64}, Distribution::Default));
            TensorData x2 = ops::into_data(draw({64}, Distribution::Default));
            d.seed(7);
            EXPECT_TRUE(ops::into_data(draw({64}, Distribution::Default)) == x1)
                << "not deterministic for a seed";
            EXPECT_FALSE(x1 == x2) << "two draws after one seed are equal";
            d.seed(8);
            EXPECT_FALSE(ops::into_data(draw({64}, Distribution::Default)) == x1) << "seeds 7 and 8 agree";
            // Every device draws the same numbers for a seed: uniform bits exactly; normal values up to
            // the last bits of log / cos, whose device versions may round differently from the host's.
            for (const Device& other : Device::available()) {
                d.seed(99);
                TensorData here = ops::into_data(draw({3, 5}, Distribution::Normal(0, 1)));
                TensorData here_u = ops::into_data(draw({3, 5}, Distribution::Default));
                other.seed(99);
                TensorData there = ops::into_data(ops::random({3, 5}, Distribution::Normal(0, 1), dt, other));
                TensorData there_u = ops::into_data(ops::random({3, 5}, Distribution::Default, dt, other));
                EXPECT_TRUE(there_u == here_u)
                    << other << " and " << d << " give different uniform values for one seed";
                const double tol = dt == DType::f64 ? 1e-13 : dt == DType::f32 ? 1e-6 : 1e-2;
                const auto a = ref::host(here).v, b = ref::host(there).v;
                for (std::size_t i = 0; i < a.size(); ++i)
                    EXPECT_NEAR(a[i], b[i], tol * (1 + std::abs(a[i])))
                        << other << " and " << d << " give different normal values for one seed at " << i;
            }
            EXPECT_EQ(draw({0, 3}, Distribution::Default).shape(), (Dims{0, 3}));
            EXPECT_EQ(draw({1}, Distribution::Default).shape(), (Dims{1}));
        };
        e.noncontiguous = false;
        e.bad.push_back(bad("bernoulli p = 1.5", "[random]", [](const Device& d) {
            ops::random({4}, Distribution::Bernoulli(1.5), DType::f32, d);
        }));
        e.bad.push_back(bad("normal std < 0", "[random]", [](const Device& d) {
            ops::random({4}, Distribution::Normal(0, -1), DType::f32, d);
        }));
        e.bad.push_back(bad("negative dim", "[random]", [](const Device& d) {
            ops::random({-4}, Distribution::Default, DType::f32, d);
        }));
        db.push_back(std::move(e));
    }
}

// ---- cast and copy

const std::vector<DType> kEvery = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                                   DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};

/// Values every (src, dst) pair converts without overflow or undefined behaviour.
TensorData cast_input(InputGen& g, const Dims& s, DType src, DType dst) {
    ref::Host h = ref::host(g(s, Domain::real));
    const bool neg = info(src).is_signed && dst != DType::u8;
    std::mt19937_64 rng(static_cast<uint64_t>(src) * 31 + static_cast<uint64_t>(dst));
    std::uniform_real_distribution<double> uni(neg ? -100 : 0, 100);
    for (std::size_t i = 0; i < h.v.size(); ++i) {
        if (is_bool(src)) continue;
        double v = i == 0 ? 0.0 : uni(rng);
        h.v[i] = is_float(src) ? v : std::trunc(v);
    }
    return ref::to_data(h, src);
}

void add_cast(std::vector<OpEntry>& db) {
    OpEntry e = entry("cast", {OpId::cast}, kEvery);
    e.samples = [](DType dt) {
        InputGen g{"cast", dt};
        std::vector<Sample> s;
        for (DType to : kEvery)
            s.push_back(sample(Tag::basic, {cast_input(g, {2, 3}, dt, to)}, {static_cast<int64_t>(to)}));
        s.push_back(sample(Tag::basic, {cast_input(g, {2, 3, 4}, dt, DType::f32)},
                           {static_cast<int64_t>(DType::f32)}));
        s.push_back(
            sample(Tag::scalar, {cast_input(g, {1}, dt, DType::i32)}, {static_cast<int64_t>(DType::i32)}));
        s.push_back(
            sample(Tag::empty, {cast_input(g, {0, 3}, dt, DType::f16)}, {static_cast<int64_t>(DType::f16)}));
        return s;
    };
    e.forward = [](V in, A a) { return ops::cast(in[0], static_cast<DType>(a.ints[0])); };
    // Exactly the target's rounding: floats round to nearest (via float for f16/bf16, as compute_t
    // does), ints truncate toward zero, bool is != 0.
    e.reference = [](In in, A a) {
        ref::Host h = ref::host(in[0]);
        const DType to = static_cast<DType>(a.ints[0]);
        for (double& v : h.v)
            if (is_int(to)) v = std::trunc(v);
        return ref::to_data(h, to);
    };
    e.out_dtype = [](A a) { return static_cast<DType>(a.ints[0]); };
    e.tol = [](DType) { return Tol{0, 0}; };
    e.bad.push_back(undefined("cast", e.forward, {static_cast<int64_t>(DType::f32)}));
    db.push_back(std::move(e));

    OpEntry c = entry("contiguous", {OpId::copy}, kAll);
    c.samples = [](DType dt) {
        InputGen g{"contiguous", dt};
        return std::vector<Sample>{sample(Tag::basic, {g({2, 3})}), sample(Tag::basic, {g({2, 3, 4})}),
                                   sample(Tag::scalar, {g({1})}), sample(Tag::empty, {g({0, 3})})};
    };
    c.forward = [](V in, A) { return ops::contiguous(in[0]); };
    c.reference = [](In in, A a) { return out(ref::host(in[0]), a.dtype); };
    c.bad.push_back(undefined("contiguous", c.forward));
    c.differentiable = true;
    c.grad_inputs = {0};
    db.push_back(std::move(c));
}

// ---- views

/// Entries whose samples are one input of a shape plus ints; samples lists {shape, ints, tag}.
struct ShapeCase {
    Dims shape;
    std::vector<int64_t> ints;
    Tag tag = Tag::basic;
};

OpEntry view_entry(const std::string& name, std::vector<OpId> ids, std::vector<ShapeCase> cases, Forward f,
                   Reference r, std::vector<DType> dtypes = kAll) {
    OpEntry e = entry(name, std::move(ids), std::move(dtypes));
    e.samples = [name, cases](DType dt) {
        InputGen g{name, dt};
        std::vector<Sample> s;
        for (const auto& c : cases) s.push_back(sample(c.tag, {g(c.shape)}, c.ints));
        return s;
    };
    e.forward = std::move(f);
    e.reference = std::move(r);
    e.bad.push_back(undefined(name, e.forward, cases.front().ints));
    e.differentiable = true;
    e.grad_inputs = {0};
    return e;
}

ref::Host permuted(const ref::Host& x, const std::vector<int64_t>& axes) {
    const int r = x.rank();
    Dims shape = x.shape;
    std::vector<int> ax(static_cast<std::size_t>(r));
    for (int i = 0; i < r; ++i) {
        ax[static_cast<std::size_t>(i)] = ref::norm_dim(axes[static_cast<std::size_t>(i)], r);
        shape[i] = x.shape[ax[static_cast<std::size_t>(i)]];
    }
    ref::Host o = ref::filled(shape, 0.0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, shape);
        std::vector<int64_t> src(static_cast<std::size_t>(r));
        for (int d = 0; d < r; ++d)
            src[static_cast<std::size_t>(ax[static_cast<std::size_t>(d)])] = idx[static_cast<std::size_t>(d)];
        o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(src, x.shape))];
    }
    return o;
}

/// The same values under a new shape.
TensorData reshaped(In in, const Dims& shape, DType dt) {
    ref::Host h = ref::host(in[0]);
    h.shape = shape;
    return out(h, dt);
}

void add_views(std::vector<OpEntry>& db) {
    {
        OpEntry e = view_entry(
            "reshape", {OpId::reshape},
            {{{2, 3}, {3, 2}},
             {{2, 3, 4}, {4, -1}},
             {{2, 3, 4}, {24}},
             {{2, 3}, {1, 6, 1}},
             {{1}, {1, 1}, Tag::scalar},
             {{0, 3}, {3, 0}, Tag::empty},
             {{0, 3}, {0}, Tag::empty}},
            [](V in, A a) { return ops::reshape(in[0], dims_of(a.ints)); },
            [](In in, A a) {
                Dims s = dims_of(a.ints);
                int64_t known = 1;
                for (int64_t d : s) known *= d == -1 ? 1 : d;
                for (int64_t& d : s)
                    if (d == -1) d = in[0].numel() / known;
                return reshaped(in, s, a.dtype);
            });
        auto bad_shape = [](Dims to) {
            return [to](const Device& d) { ops::reshape(ops::full({2, 3}, 0, DType::f32, d), to); };
        };
        e.bad.push_back(bad("6 elements into [4, 2]", "[reshape]", bad_shape({4, 2})));
        e.bad.push_back(bad("two -1", "[reshape]", bad_shape({-1, -1})));
        e.bad.push_back(bad("-2 in shape", "[reshape]", bad_shape({-2, -3})));
        e.bad.push_back(bad("-1 with a zero dim", "[reshape]", [](const Device& d) {
            ops::reshape(ops::full({0, 3}, 0, DType::f32, d), {-1, 0});
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "permute", {OpId::permute},
            {{{2, 3, 4}, {2, 0, 1}},
             {{2, 3, 4}, {1, 0, 2}},
             {{2, 3, 4}, {-1, 0, 1}},
             {{2, 3}, {1, 0}},
             {{1}, {0}, Tag::scalar},
             {{0, 3}, {1, 0}, Tag::empty}},
            [](V in, A a) { return ops::permute(in[0], dims_of(a.ints)); },
            [](In in, A a) { return out(permuted(ref::host(in[0]), a.ints), a.dtype); });
        auto bad_axes = [](Dims axes) {
            return [axes](const Device& d) { ops::permute(ops::full({2, 3, 4}, 0, DType::f32, d), axes); };
        };
        e.bad.push_back(bad("repeated axis", "[permute]", bad_axes({0, 0, 1})));
        e.bad.push_back(bad("too few axes", "[permute]", bad_axes({0, 1})));
        e.bad.push_back(bad("axis out of range", "[permute]", bad_axes({0, 1, 3})));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "swap_dims", {OpId::permute},
            {{{2, 3, 4}, {0, 2}},
             {{2, 3, 4}, {-1, -2}},
             {{2, 3}, {1, 1}},
             {{1}, {0, 0}, Tag::scalar},
             {{0, 3}, {0, 1}, Tag::empty}},
            [](V in, A a) { return ops::swap_dims(in[0], a.ints[0], a.ints[1]); },
            [](In in, A a) {
                const int r = in[0].shape().rank();
                std::vector<int64_t> axes;
                for (int i = 0; i < r; ++i) axes.push_back(i);
                std::swap(axes[static_cast<std::size_t>(ref::norm_dim(a.ints[0], r))],
                          axes[static_cast<std::size_t>(ref::norm_dim(a.ints[1], r))]);
                return out(permuted(ref::host(in[0]), axes), a.dtype);
            });
        e.bad.push_back(bad("dim out of range", "[swap_dims]", [](const Device& d) {
            ops::swap_dims(ops::full({2, 3}, 0, DType::f32, d), 0, 2);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "expand", {OpId::expand},
            {{{2, 1, 4}, {2, 3, 4}},
             {{3, 1}, {2, 3, 5}},
             {{2, 1}, {-1, 4}},
             {{1}, {2, 3}, Tag::broadcast},
             {{1}, {1}, Tag::scalar},
             {{0, 1}, {0, 3}, Tag::empty},
             {{2, 1}, {0, 2, 3}, Tag::empty}},
            [](V in, A a) { return ops::expand(in[0], dims_of(a.ints)); },
            [](In in, A a) {
                ref::Host x = ref::host(in[0]);
                Dims s = dims_of(a.ints);
                const int lead = s.rank() - x.rank();
                for (int i = lead; i < s.rank(); ++i)
                    if (s[i] == -1) s[i] = x.shape[i - lead];
                ref::Host o = ref::filled(s, 0.0);
                for (int64_t i = 0; i < o.numel(); ++i) {
                    auto idx = ref::unravel(i, s);
                    std::vector<int64_t> src(idx.begin() + lead, idx.end());
                    o.v[static_cast<std::size_t>(i)] = ref::at_broadcast(x, src);
                }
                return out(o, a.dtype);
            });
        e.bad.push_back(bad("dim 2 to 4", "[expand]", [](const Device& d) {
            ops::expand(ops::full({2, 3}, 0, DType::f32, d), {4, 3});
        }));
        e.bad.push_back(bad("lower rank", "[expand]", [](const Device& d) {
            ops::expand(ops::full({2, 3}, 0, DType::f32, d), {3});
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "unsqueeze_dim", {OpId::reshape},
            {{{2, 3}, {0}},
             {{2, 3}, {2}},
             {{2, 3}, {-1}},
             {{1}, {0}, Tag::scalar},
             {{0, 3}, {1}, Tag::empty}},
            [](V in, A a) { return ops::unsqueeze_dim(in[0], a.ints[0]); },
            [](In in, A a) {
                Dims s = in[0].shape();
                s.insert(ref::norm_dim(a.ints[0], s.rank() + 1), 1);
                return reshaped(in, s, a.dtype);
            });
        e.bad.push_back(bad("dim 3 of rank 2", "[unsqueeze_dim]", [](const Device& d) {
            ops::unsqueeze_dim(ops::full({2, 3}, 0, DType::f32, d), 3);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "squeeze_dim", {OpId::reshape},
            {{{2, 1, 4}, {1}},
             {{1, 3}, {0}},
             {{2, 1}, {-1}},
             {{1, 1}, {0}, Tag::scalar},
             {{0, 1}, {1}, Tag::empty}},
            [](V in, A a) { return ops::squeeze_dim(in[0], a.ints[0]); },
            [](In in, A a) {
                Dims s = in[0].shape();
                s.erase(ref::norm_dim(a.ints[0], s.rank()));
                return reshaped(in, s, a.dtype);
            });
        e.bad.push_back(bad("dim of size 3", "[squeeze_dim]", [](const Device& d) {
            ops::squeeze_dim(ops::full({2, 3}, 0, DType::f32, d), 1);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = view_entry(
            "flatten", {OpId::reshape},
            {{{2, 3, 4}, {0, 1}},
             {{2, 3, 4}, {1, 2}},
             {{2, 3, 4}, {0, -1}},
             {{1}, {0, 0}, Tag::scalar},
             {{0, 3}, {0, 1}, Tag::empty}},
            [](V in, A a) { return ops::flatten(in[0], a.ints[0], a.ints[1]); },
            [](In in, A a) {
                const Dims& x = in[0].shape();
                const int s = ref::norm_dim(a.ints[0], x.rank()), t = ref::norm_dim(a.ints[1], x.rank());
                Dims o;
                for (int i = 0; i < s; ++i) o.push_back(x[i]);
                int64_t m = 1;
                for (int i = s; i <= t; ++i) m *= x[i];
                o.push_back(m);
                for (int i = t + 1; i < x.rank(); ++i) o.push_back(x[i]);
                return reshaped(in, o, a.dtype);
            });
        e.bad.push_back(bad("start after end", "[flatten]", [](const Device& d) {
            ops::flatten(ops::full({2, 3, 4}, 0, DType::f32, d), 2, 1);
        }));
        db.push_back(std::move(e));
    }
    for (bool lower : {true, false}) {
        const std::string name = lower ? "tril" : "triu";
        OpEntry e = view_entry(
            name, {},
            {{{3, 4}, {0}},
             {{3, 4}, {1}},
             {{4, 3}, {-1}},
             {{2, 3, 4}, {0}},
             {{2, 3, 4}, {2}},
             {{1, 1}, {0}, Tag::scalar},
             {{0, 3}, {0}, Tag::empty}},
            [lower](V in, A a) { return lower ? ops::tril(in[0], a.ints[0]) : ops::triu(in[0], a.ints[0]); },
            [lower](In in, A a) {
                ref::Host x = ref::host(in[0]);
                const int r = x.rank();
                for (int64_t i = 0; i < x.numel(); ++i) {
                    auto idx = ref::unravel(i, x.shape);
                    const int64_t diff =
                        idx[static_cast<std::size_t>(r - 1)] - idx[static_cast<std::size_t>(r - 2)];
                    const bool keep = lower ? diff <= a.ints[0] : diff >= a.ints[0];
                    if (!keep) x.v[static_cast<std::size_t>(i)] = 0;
                }
                return out(x, a.dtype);
            });
        e.bad.push_back(bad("rank 1", "[" + name + "]", [lower](const Device& d) {
            auto x = ops::full({3}, 0, DType::f32, d);
            lower ? ops::tril(x, 0) : ops::triu(x, 0);
        }));
        db.push_back(std::move(e));
    }
}

}  // namespace

void add_layout_entries(std::vector<OpEntry>& db) {
    add_creation(db);
    add_cast(db);
    add_views(db);
}

}  // namespace burn::opdb
