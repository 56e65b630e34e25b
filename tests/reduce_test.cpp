// Reductions and cumsum against naive double references: every dim of rank-3 tensors, contiguous and
// strided inputs (permute, flip, step slice, broadcast), float, half and int dtypes, empty dims,
// NaN propagation, full reductions, var, and the error messages.
#include <cmath>

#include "reduce_test_util.hpp"

// The tests live in the helpers' namespace: a using-directive at file scope would leak into the
// other files of a unity batch (tests/CMakeLists.txt).
namespace reduce_test {

namespace {

void check_reductions(DType dt, const Dims& s, uint32_t seed) {
    std::mt19937 rng(seed);
    const bool fl = is_float(dt);
    const double rtol = rtol_of(dt);
    const Gen gen = fl ? uniform(-2, 2) : dt == DType::u8 ? ints(0, 9) : ints(-9, 9);
    const Gen prod_gen = fl ? uniform(0.9, 1.12) : dt == DType::u8 ? ints(0, 3) : ints(-2, 2);
    for (View view : kViews) {
        for (int64_t dim : {0, 1, 2, -1}) {
            const int d = static_cast<int>(dim < 0 ? dim + 3 : dim);
            const std::string what = label(dt, view, s, dim);
            TensorAny x = make_view(view, s, dt, gen, rng);
            const auto h = host(x);
            const auto scale = ref_reduce(h, s, d, abs_sum);
            auto wrap_or = [&](double v) { return fl ? v : wrap(dt, static_cast<int64_t>(v)); };

            auto sum = ops::sum_dim(x, dim);
            EXPECT_EQ(sum.shape(), kept(s, d)) << what;
            EXPECT_EQ(sum.dtype(), dt) << what;
            auto want_sum =
                ref_reduce(h, s, d, [&](const std::vector<double>& l) { return wrap_or(sum_of(l)); });
            expect_close(host(sum), want_sum, scale, rtol, "sum_dim " + what);

            auto want_mean = ref_reduce(h, s, d, [&](const std::vector<double>& l) {
                if (fl) return sum_of(l) / double(l.size());
                return wrap(dt, static_cast<int64_t>(sum_of(l)) / static_cast<int64_t>(l.size()));
            });
            std::vector<double> mean_scale = scale;
            for (auto& v : mean_scale) v /= double(s[d]);
            expect_close(host(ops::mean_dim(x, dim)), want_mean, mean_scale, rtol, "mean_dim " + what);

            TensorAny px = make_view(view, s, dt, prod_gen, rng);
            const auto ph = host(px);
            auto want_prod = ref_reduce(ph, s, d, [&](const std::vector<double>& l) {
                double p = 1;
                int64_t ip = 1;
                for (double v : l) {
                    p *= v;
                    ip *= static_cast<int64_t>(v);
                }
                return fl ? p : wrap(dt, ip);
            });
            std::vector<double> prod_scale(want_prod.size());
            for (std::size_t i = 0; i < prod_scale.size(); ++i) prod_scale[i] = std::fabs(want_prod[i]);
            expect_close(host(ops::prod_dim(px, dim)), want_prod, prod_scale, rtol, "prod_dim " + what);

            for (bool mx : {true, false}) {
                auto [values, indices] =
                    mx ? ops::max_dim_with_indices(x, dim) : ops::min_dim_with_indices(x, dim);
                EXPECT_EQ(indices.dtype(), DType::i32) << what;
                EXPECT_EQ(values.shape(), kept(s, d)) << what;
                auto want_idx = ref_reduce(
                    h, s, d, [&](const std::vector<double>& l) { return double(first_extreme(l, mx)); });
                auto want_val = ref_reduce(
                    h, s, d, [&](const std::vector<double>& l) { return l[first_extreme(l, mx)]; });
                EXPECT_EQ(host(values), want_val) << (mx ? "max_dim " : "min_dim ") << what;
                EXPECT_EQ(host(indices), want_idx) << (mx ? "max_dim " : "min_dim ") << what;
                auto arg = mx ? ops::argmax(x, dim) : ops::argmin(x, dim);
                EXPECT_EQ(arg.dtype(), DType::i32) << what;
                EXPECT_EQ(arg.shape(), kept(s, d)) << what;
                EXPECT_EQ(host(arg), want_idx) << (mx ? "argmax " : "argmin ") << what;
                EXPECT_EQ(host(mx ? ops::max_dim(x, dim) : ops::min_dim(x, dim)), want_val) << what;
            }

            auto want_cum = ref_map(h, s, d, [&](const std::vector<double>& l) {
                std::vector<double> r;
                double acc = 0;
                for (double v : l) r.push_back(wrap_or(acc += v));
                return r;
            });
            auto cum_scale = ref_map(h, s, d, [&](const std::vector<double>& l) {
                return std::vector<double>(l.size(), abs_sum(l));
            });
            auto cum = ops::cumsum(x, dim);
            EXPECT_EQ(cum.shape(), s) << what;
            expect_close(host(cum), want_cum, cum_scale, rtol, "cumsum " + what);
        }
    }
}

}  // namespace

TEST(Reduce, FloatDtypesEveryDimAndView) {
    check_reductions(DType::f32, Dims{3, 5, 7}, 1);
    check_reductions(DType::f64, Dims{3, 5, 7}, 2);
    check_reductions(DType::f16, Dims{3, 5, 7}, 3);
    check_reductions(DType::bf16, Dims{2, 4, 3}, 4);
}

TEST(Reduce, IntDtypesEveryDimAndView) {
    check_reductions(DType::i32, Dims{3, 5, 7}, 5);
    check_reductions(DType::i64, Dims{3, 5, 7}, 6);
    check_reductions(DType::i8, Dims{4, 9, 5}, 7);  // sums and products wrap like the dtype
    check_reductions(DType::u8, Dims{3, 5, 7}, 8);
    check_reductions(DType::i16, Dims{2, 3, 4}, 9);
}

TEST(Reduce, ColumnBlocksAndTails) {
    // inner > the kernels' column block (256) with a ragged tail; long rows; single-element dims
    check_reductions(DType::f32, Dims{2, 3, 300}, 10);
    check_reductions(DType::i32, Dims{2, 3, 300}, 11);
    check_reductions(DType::f32, Dims{1, 600, 2}, 12);
    check_reductions(DType::f64, Dims{1, 1, 1}, 13);
}

TEST(Reduce, AnyAll) {
    std::mt19937 rng(20);
    const Gen gen = [](std::mt19937& r) {
        const double c[] = {0, 0, 0, 1.5, -2, 3};
        return c[std::uniform_int_distribution<int>(0, 5)(r)];
    };
    const Dims s{3, 4, 5};
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::i32, DType::i8, DType::u8, DType::boolean}) {
        for (View view : kViews) {
            for (int64_t dim : {0, 1, 2}) {
                const int d = static_cast<int>(dim);
                TensorAny x = make_view(view, s, dt, gen, rng);
                const auto h = host(x);
                auto a = ops::any_dim(x, dim), b = ops::all_dim(x, dim);
                EXPECT_EQ(a.dtype(), DType::boolean);
                EXPECT_EQ(a.shape(), kept(s, d));
                auto want_any = ref_reduce(h, s, d, [](const std::vector<double>& l) {
                    for (double v : l)
                        if (v != 0) return 1.0;
                    return 0.0;
                });
                auto want_all = ref_reduce(h, s, d, [](const std::vector<double>& l) {
                    for (double v : l)
                        if (v == 0) return 0.0;
                    return 1.0;
                });
                const std::string what = label(dt, view, s, dim);
                EXPECT_EQ(host(a), want_any) << "any_dim " << what;
                EXPECT_EQ(host(b), want_all) << "all_dim " << what;
                EXPECT_EQ(host(ops::any(x))[0], sum_of(want_any) > 0 ? 1.0 : 0.0) << what;
                EXPECT_EQ(host(ops::all(x))[0], sum_of(want_all) == double(want_all.size()) ? 1.0 : 0.0)
                    << what;
            }
        }
    }
    // NaN is non-zero, hence true
    auto n = make({kNaN, 1}, Dims{2}, DType::f32);
    EXPECT_EQ(host(ops::all(n)), (std::vector<double>{1}));
}

TEST(Reduce, NaNPropagation) {
    const std::vector<double> v = {1, kNaN, 5, kNaN, 2, 7, 3, 0, 9};
    for (DType dt : {DType::f32, DType::f64, DType::f16}) {
        auto x = make(v, Dims{3, 3}, dt);
        EXPECT_TRUE(std::isnan(host(ops::max(x))[0]));
        EXPECT_TRUE(std::isnan(host(ops::min(x))[0]));
        EXPECT_TRUE(std::isnan(host(ops::sum(x))[0]));
        auto [mv, mi] = ops::max_dim_with_indices(x, 1);
        auto hv = host(mv);
        EXPECT_TRUE(std::isnan(hv[0]) && std::isnan(hv[1]));
        EXPECT_EQ(hv[2], 9);
        EXPECT_EQ(host(mi), (std::vector<double>{1, 0, 2}));
        EXPECT_EQ(host(ops::argmin(x, 1)), (std::vector<double>{1, 0, 1}));
        EXPECT_EQ(host(ops::argmax(x, 0)), (std::vector<double>{1, 0, 2}));  // column layout
        auto mn = host(ops::min_dim(x, 0));
        EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
        EXPECT_EQ(mn[2], 5);
    }
    // NaN in the middle of a long f32 row (vectorised path) and in a split row
    std::vector<double> big(200000, 1.0);
    big[150001] = kNaN;
    big[150003] = kNaN;
    big[7] = 5;
    auto b = make(big, Dims{1, 200000}, DType::f32);
    EXPECT_EQ(host(ops::argmax(b, 1)), (std::vector<double>{150001}));
    EXPECT_EQ(host(ops::argmin(b, 1)), (std::vector<double>{150001}));
    EXPECT_TRUE(std::isnan(host(ops::max(b))[0]));
}

TEST(Reduce, EmptyDims) {
    for (DType dt : {DType::f32, DType::f16, DType::i32}) {
        auto x = ops::full(Dims{2, 0, 3}, 1.0, dt, Device());
        auto s = ops::sum_dim(x, 1);
        EXPECT_EQ(s.shape(), (Dims{2, 1, 3}));
        EXPECT_EQ(host(s), std::vector<double>(6, 0.0));
        EXPECT_EQ(host(ops::prod_dim(x, 1)), std::vector<double>(6, 1.0));
        EXPECT_EQ(host(ops::any_dim(x, 1)), std::vector<double>(6, 0.0));
        EXPECT_EQ(host(ops::all_dim(x, 1)), std::vector<double>(6, 1.0));
        EXPECT_EQ(ops::sum_dim(x, 0).shape(), (Dims{1, 0, 3}));
        EXPECT_EQ(ops::max_dim(x, 2).shape(),
                  (Dims{2, 0, 1}));  // reducing a non-empty dim of an empty tensor
        EXPECT_EQ(ops::cumsum(x, 1).shape(), (Dims{2, 0, 3}));
        EXPECT_EQ(host(ops::sum(x)), (std::vector<double>{0}));
        EXPECT_EQ(host(ops::prod(x)), (std::vector<double>{1}));
        EXPECT_EQ(host(ops::any(x)), (std::vector<double>{0}));
        EXPECT_EQ(host(ops::all(x)), (std::vector<double>{1}));
        expect_error([&] { ops::max_dim(x, 1); }, "[max_dim]");
        expect_error([&] { ops::min_dim_with_indices(x, 1); }, "[min_dim]");
        expect_error([&] { ops::argmax(x, 1); }, "[argmax]");
        expect_error([&] { ops::argmin(x, -2); }, "[argmin]");
        expect_error([&] { ops::max(x); }, "[max]");
        expect_error([&] { ops::min(x); }, "[min]");
        if (is_float(dt)) {
            auto m = host(ops::mean_dim(x, 1));
            for (double v : m) EXPECT_TRUE(std::isnan(v));
            EXPECT_TRUE(std::isnan(host(ops::mean(x))[0]));
            EXPECT_EQ(ops::softmax(x, 1).shape(), (Dims{2, 0, 3}));
        } else {
            expect_error([&] { ops::mean_dim(x, 1); }, "[mean_dim]");
            expect_error([&] { ops::mean(x); }, "[mean]");
        }
    }
}

TEST(Reduce, FullReductions) {
    std::mt19937 rng(40);
    const Dims s{4, 3, 6};
    for (DType dt : {DType::f32, DType::f64, DType::i32}) {
        for (View view : kViews) {
            TensorAny x = make_view(view, s, dt, is_float(dt) ? uniform(0.8, 1.2) : ints(-3, 3), rng);
            const auto h = host(x);
            const std::string what = label(dt, view, s, 0);
            double sum = sum_of(h), prod = 1, mx = -kInf, mn = kInf;
            uint64_t iprod = 1;  // wraps like the kernel's accumulator
            for (double v : h) {
                prod *= v;
                iprod *= static_cast<uint64_t>(static_cast<int64_t>(v));
                mx = std::max(mx, v);
                mn = std::min(mn, v);
            }
            const double rtol = rtol_of(dt);
            auto one = [](const TensorAny& t) {
                EXPECT_EQ(t.shape(), (Dims{1}));
                return host(t)[0];
            };
            EXPECT_NEAR(one(ops::sum(x)), sum, rtol * abs_sum(h)) << what;
            const double mean =
                is_float(dt) ? sum / double(h.size()) : double(int64_t(sum) / int64_t(h.size()));
            EXPECT_NEAR(one(ops::mean(x)), mean, rtol * abs_sum(h)) << what;
            EXPECT_NEAR(one(ops::prod(x)), is_float(dt) ? prod : wrap(dt, static_cast<int64_t>(iprod)),
                        rtol * std::fabs(prod))
                << what;
            EXPECT_EQ(one(ops::max(x)), mx) << what;
            EXPECT_EQ(one(ops::min(x)), mn) << what;
            EXPECT_EQ(ops::sum(x).dtype(), dt);
        }
    }
    // integer mean truncates toward zero, like burn
    EXPECT_EQ(host(ops::mean(make({-3, -4}, Dims{2}, DType::i32))), (std::vector<double>{-3}));
    EXPECT_EQ(host(ops::mean_dim(make({7, 8, 1, 1}, Dims{2, 2}, DType::i64), 1)),
              (std::vector<double>{7, 1}));
    // the typed API
    auto t = Tensor<2>::from_floats({{1, 5, 2}, {7, 0, 3}});
    EXPECT_EQ(t.sum().to_vec<float>(), (std::vector<float>{18}));
    EXPECT_EQ(t.max_dim(1).to_vec<float>(), (std::vector<float>{5, 7}));
    auto [v, i] = t.min_dim_with_indices(0);
    EXPECT_EQ(v.to_vec<float>(), (std::vector<float>{1, 0, 2}));
    EXPECT_EQ(i.to_vec<int32_t>(), (std::vector<int32_t>{0, 1, 0}));
    EXPECT_EQ(t.argmax(1).to_vec<int32_t>(), (std::vector<int32_t>{1, 0}));
    EXPECT_EQ(t.cumsum(1).to_vec<float>(), (std::vector<float>{1, 6, 8, 7, 7, 10}));
    EXPECT_EQ(t.greater_elem(4).any().to_vec<bool>(), (std::vector<bool>{true}));
    EXPECT_EQ(t.greater_elem(4).all_dim(0).to_vec<bool>(), (std::vector<bool>{false, false, false}));
    EXPECT_EQ(activation::softmax(t, 1).dims(), (Shape<2>{2, 3}));
}

TEST(Reduce, Var) {
    std::mt19937 rng(50);
    const Dims s{3, 5, 4};
    for (DType dt : {DType::f32, DType::f64, DType::f16}) {
        for (View view : {View::contiguous, View::permute, View::step}) {
            for (int64_t dim : {0, 1, 2}) {
                const int d = static_cast<int>(dim);
                TensorAny x = make_view(view, s, dt, uniform(-3, 3), rng);
                const auto h = host(x);
                for (int64_t corr : {0, 1}) {
                    auto want = ref_reduce(h, s, d, [&](const std::vector<double>& l) {
                        double m = sum_of(l) / double(l.size()), acc = 0;
                        for (double v : l) acc += (v - m) * (v - m);
                        return acc / double(int64_t(l.size()) - corr);
                    });
                    std::vector<double> scale(want.size());
                    for (std::size_t i = 0; i < want.size(); ++i) scale[i] = want[i] + 1e-3;
                    auto got = ops::var(x, dim, corr);
                    EXPECT_EQ(got.shape(), kept(s, d));
                    expect_close(host(got), want, scale, 4 * rtol_of(dt), label(dt, view, s, dim));
                }
            }
        }
    }
    auto t = Tensor<2>::from_floats({{1, 2, 3, 4}});
    EXPECT_NEAR(t.var(1).into_scalar(), 5.0 / 3.0, 1e-6);
    EXPECT_NEAR(t.var_bias(1).into_scalar(), 1.25, 1e-6);
    // one sample with Bessel's correction divides by zero (NaN), as burn and torch do
    EXPECT_TRUE(std::isnan(host(ops::var(make({2}, Dims{1, 1}, DType::f32), 1, 1))[0]));
}

TEST(Reduce, Errors) {
    auto x = ops::full(Dims{2, 3, 4}, 1.0, DType::f32, Device());
    auto b = ops::full(Dims{2, 3}, 1.0, DType::boolean, Device());
    auto i = ops::full(Dims{2, 3}, 1.0, DType::i32, Device());
    expect_error([&] { ops::sum_dim(x, 3); }, "[sum_dim] dim 3 is out of range");
    expect_error([&] { ops::mean_dim(x, -4); }, "[mean_dim]");
    expect_error([&] { ops::prod_dim(x, 5); }, "[prod_dim]");
    expect_error([&] { ops::argmax(x, 3); }, "[argmax]");
    expect_error([&] { ops::any_dim(x, 3); }, "[any_dim]");
    expect_error([&] { ops::cumsum(x, -4); }, "[cumsum]");
    expect_error([&] { ops::softmax(x, 3); }, "[softmax]");
    expect_error([&] { ops::var(x, 3, 1); }, "[var]");
    expect_error([&] { ops::sum(b); }, "[sum] is not defined for Bool");
    expect_error([&] { ops::sum_dim(b, 0); }, "[sum_dim] is not defined for Bool");
    expect_error([&] { ops::mean(b); }, "[mean]");
    expect_error([&] { ops::prod_dim(b, 0); }, "[prod_dim]");
    expect_error([&] { ops::max_dim(b, 0); }, "[max_dim]");
    expect_error([&] { ops::argmin(b, 0); }, "[argmin]");
    expect_error([&] { ops::cumsum(b, 0); }, "[cumsum]");
    expect_error([&] { ops::softmax(i, 0); }, "[softmax] needs a float tensor");
    expect_error([&] { ops::log_softmax(b, 0); }, "[log_softmax]");
    expect_error([&] { ops::var(i, 0, 1); }, "[var] needs a float tensor");
    expect_error([&] { ops::sum(TensorAny()); }, "[sum]");
    EXPECT_THROW(ops::sum_dim(x, 3), burn::IndexError);
    EXPECT_THROW(ops::sum(b), burn::DTypeError);
    EXPECT_THROW(ops::max(ops::full(Dims{0}, 1.0, DType::f32, Device())), burn::ShapeError);
    // any/all accept every dtype
    EXPECT_NO_THROW(ops::any(b));
    EXPECT_NO_THROW(ops::all_dim(i, 1));
}

TEST(Reduce, OtherRanksAndInputsKept) {
    std::mt19937 rng(70);
    // rank 5 through a permuted view, and rank 1
    const Dims base{2, 3, 1, 4, 5};
    TensorAny x = ops::permute(make(random_values(base.numel(), uniform(-2, 2), rng), base, DType::f32),
                               Dims{3, 0, 4, 2, 1});  // shape [4, 2, 5, 1, 3]
    const Dims s = x.shape();
    const auto h = host(x);
    for (int d = 0; d < 5; ++d) {
        const std::string what = detail::msg("rank 5 dim ", d);
        auto scale = ref_reduce(h, s, d, abs_sum);
        expect_close(host(ops::sum_dim(x, d)), ref_reduce(h, s, d, sum_of), scale, 1e-5, "sum_dim " + what);
        EXPECT_EQ(
            host(ops::argmax(x, d)),
            ref_reduce(h, s, d, [](const std::vector<double>& l) { return double(first_extreme(l, true)); }))
            << what;
        auto sm = host(ops::sum_dim(ops::softmax(x, d), d));
        for (double v : sm) EXPECT_NEAR(v, 1.0, 1e-5) << what;
    }
    auto v = make({3, -1, 4, 1, -5}, Dims{5}, DType::i64);
    EXPECT_EQ(host(ops::sum_dim(v, 0)), (std::vector<double>{2}));
    EXPECT_EQ(host(ops::cumsum(v, -1)), (std::vector<double>{3, 2, 6, 7, 2}));
    EXPECT_EQ(host(ops::argmin(v, 0)), (std::vector<double>{4}));
    // ops that may write in place leave an input that is still referenced untouched
    TensorAny kept_x = make({1, 2, 3, 4, 5, 6}, Dims{2, 3}, DType::f32);
    ops::softmax(kept_x, 1);
    ops::log_softmax(kept_x, 0);
    ops::cumsum(kept_x, 1);
    EXPECT_EQ(host(kept_x), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

}  // namespace reduce_test
