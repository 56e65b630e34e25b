// Op-database entries of the window functions (creation composites, `ops` = {}: hann_window,
// hamming_window, blackman_window, each periodic and symmetric) against torch's formulas in float64,
// and multinomial, whose draws are checked by `custom`: frequencies, the zero-probability categories,
// distinct draws without replacement and determinism for a seed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_signal {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

void add_window(std::vector<OpEntry>& db, const std::string& name,
                TensorAny (*fn)(int64_t, bool, DType, const Device&), double a0, double a1, double a2) {
    OpEntry e = entry(name, {}, kFloat);
    e.samples = [](DType) {
        return std::vector<Sample>{sample(Tag::basic, {}, {8, 1}, {}, "periodic"),
                                   sample(Tag::basic, {}, {7, 0}, {}, "symmetric"),
                                   sample(Tag::scalar, {}, {1, 1}), sample(Tag::empty, {}, {0, 0})};
    };
    e.forward = [fn](V, A a) { return fn(a.ints[0], a.ints[1] != 0, a.dtype, a.device); };
    e.reference = [a0, a1, a2](In, A a) {
        const int64_t n = a.ints[0];
        const double m = static_cast<double>(a.ints[1] != 0 ? n : n - 1);
        ref::Host h = ref::filled(Dims{n}, 1.0);
        if (n > 1)
            for (int64_t k = 0; k < n; ++k) {
                const double t = 2 * M_PI * static_cast<double>(k) / m;
                h.v[static_cast<std::size_t>(k)] = a0 - a1 * std::cos(t) + a2 * std::cos(2 * t);
            }
        return out(h, a.dtype);
    };
    e.tol = [](DType dt) { return dt == DType::f32 ? Tol{1e-5, 1e-6} : default_tol(dt); };  // 0 is near-exact
    e.noncontiguous = false;
    const std::string x = "[" + name + "]";
    e.bad.push_back(bad("negative length", x, [fn](const Device& d) { fn(-1, true, DType::f32, d); }));
    e.bad.push_back(bad("int dtype", x, [fn](const Device& d) { fn(4, true, DType::i32, d); }));
    db.push_back(std::move(e));
}

/// Draws from p (one row) many times: the observed frequencies of each category.
std::vector<double> frequencies(const std::vector<double>& p, DType dt, const Device& d, int64_t draws) {
    TensorAny probs = tensor({static_cast<int64_t>(p.size())}, p, dt, d);
    std::vector<int64_t> idx =
        ops::into_data(ops::cast(ops::multinomial(probs, draws, true), DType::i64)).to_vec<int64_t>();
    std::vector<double> f(p.size(), 0.0);
    for (int64_t i : idx) f.at(static_cast<std::size_t>(i)) += 1.0 / static_cast<double>(draws);
    return f;
}

void check_multinomial(DType dt, const Device& d) {
    d.seed(7);
    const std::vector<double> p = {0.1, 0, 0.2, 0.7};
    std::vector<double> f = frequencies(p, dt, d, 20000);
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(f[i], p[i], 0.02) << "category " << i;
    EXPECT_EQ(f[1], 0.0) << "a zero-probability category was drawn";
    // unnormalised weights give the same distribution
    f = frequencies({1, 0, 2, 7}, dt, d, 20000);
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(f[i], p[i], 0.02) << "category " << i;
    // without replacement: distinct indices, only non-zero categories, rows independent
    TensorAny rows = tensor({2, 4}, {0, 1, 0, 1, 1, 1, 1, 1}, dt, d);
    auto idx = ops::into_data(ops::cast(ops::multinomial(rows, 2, false), DType::i64)).to_vec<int64_t>();
    ASSERT_EQ(idx.size(), 4u);
    EXPECT_EQ(std::set<int64_t>({idx[0], idx[1]}), (std::set<int64_t>{1, 3}));
    EXPECT_NE(idx[2], idx[3]);
    auto all =
        ops::into_data(ops::cast(ops::multinomial(tensor({5}, {1, 2, 3, 4, 5}, dt, d), 5, false), DType::i64))
            .to_vec<int64_t>();
    EXPECT_EQ(std::set<int64_t>(all.begin(), all.end()).size(), 5u);
    // a seed makes the draws reproducible
    d.seed(11);
    auto a = ops::into_data(ops::multinomial(tensor({3}, {1, 1, 1}, dt, d), 16, true)).to_vec<int32_t>();
    d.seed(11);
    auto b = ops::into_data(ops::multinomial(tensor({3}, {1, 1, 1}, dt, d), 16, true)).to_vec<int32_t>();
    EXPECT_EQ(a, b);
}

void add_entries(std::vector<OpEntry>& db) {
    add_window(db, "hann_window", &ops::hann_window, 0.5, 0.5, 0);
    add_window(db, "hamming_window", &ops::hamming_window, 0.54, 0.46, 0);
    add_window(db, "blackman_window", &ops::blackman_window, 0.42, 0.5, 0.08);
    {
        OpEntry e = entry("multinomial", {}, kFloat);
        e.samples = [](DType) { return std::vector<Sample>{}; };  // random draws: checked by custom
        e.forward = [](V in, A) { return ops::multinomial(in[0], 4, true); };
        e.custom = check_multinomial;
        e.noncontiguous = false;
        auto p = [](const Device& d) { return tensor({3}, {1, 2, 3}, DType::f32, d); };
        e.bad.push_back(bad("negative probability", "[multinomial]", [](const Device& d) {
            ops::multinomial(tensor({2}, {1, -1}, DType::f32, d), 1, true);
        }));
        e.bad.push_back(bad("zero sum", "[multinomial]", [](const Device& d) {
            ops::multinomial(tensor({2}, {0, 0}, DType::f32, d), 1, true);
        }));
        e.bad.push_back(bad("more samples than categories", "[multinomial]",
                            [p](const Device& d) { ops::multinomial(p(d), 4, false); }));
        e.bad.push_back(bad("too few non-zero categories", "[multinomial]", [](const Device& d) {
            ops::multinomial(tensor({3}, {1, 0, 0}, DType::f32, d), 2, false);
        }));
        e.bad.push_back(bad("rank 3", "[multinomial]", [](const Device& d) {
            ops::multinomial(f32({1, 1, 2}, d), 1, true);
        }));
        e.bad.push_back(bad("int probs", "[multinomial]", [](const Device& d) {
            ops::multinomial(ops::full({2}, 1, DType::i32, d), 1, true);
        }));
        db.push_back(std::move(e));
    }
}

}  // namespace api_signal

void add_api_signal_entries(std::vector<OpEntry>& db) {
    api_signal::add_entries(db);
}

}  // namespace burn::opdb
