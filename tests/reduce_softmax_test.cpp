// softmax / log_softmax against double references (every dim, strided inputs, float and half dtypes,
// vector tails, wide column blocks, special values), and the multi-threaded reduction paths.
#include <cmath>

#include "reduce_test_util.hpp"

// The tests live in the helpers' namespace: a using-directive at file scope would leak into the
// other files of a unity batch (tests/CMakeLists.txt).
namespace reduce_test {

namespace {

std::vector<double> ref_softmax(const std::vector<double>& l, bool log) {
    double m = -kInf;
    for (double v : l) m = (std::isnan(v) || v > m) ? v : m;
    double s = 0;
    for (double v : l) s += std::exp(v - m);
    std::vector<double> r;
    for (double v : l) r.push_back(log ? (v - m) - std::log(s) : std::exp(v - m) / s);
    return r;
}

void check_softmax(DType dt, const Dims& s, const Gen& gen, uint32_t seed) {
    std::mt19937 rng(seed);
    for (View view : kViews) {
        for (int64_t dim : {0, 1, 2, -1}) {
            const int d = static_cast<int>(dim < 0 ? dim + 3 : dim);
            for (bool log : {false, true}) {
                const std::string what =
                    std::string(log ? "log_softmax " : "softmax ") + label(dt, view, s, dim);
                TensorAny x = make_view(view, s, dt, gen, rng);
                const auto h = host(x);
                auto want =
                    ref_map(h, s, d, [&](const std::vector<double>& l) { return ref_softmax(l, log); });
                // moved in: a contiguous input is overwritten in place
                auto y = log ? ops::log_softmax(std::move(x), dim) : ops::softmax(std::move(x), dim);
                EXPECT_EQ(y.shape(), s) << what;
                EXPECT_EQ(y.dtype(), dt) << what;
                std::vector<double> scale(want.size());
                for (std::size_t i = 0; i < want.size(); ++i)
                    scale[i] = log ? 1 + std::fabs(want[i]) : want[i] + 1e-6;
                expect_close(host(y), want, scale, 2 * rtol_of(dt), what);
            }
        }
    }
}

}  // namespace

TEST(Softmax, EveryDimViewAndDtype) {
    check_softmax(DType::f32, Dims{3, 5, 7}, uniform(-10, 10), 30);
    check_softmax(DType::f64, Dims{3, 5, 7}, uniform(-10, 10), 31);
    check_softmax(DType::f16, Dims{2, 5, 3}, uniform(-4, 4), 32);
    check_softmax(DType::bf16, Dims{2, 3, 4}, uniform(-4, 4), 33);
    // vector tails (rows of 37 and 1000), column blocks wider than 256, large magnitudes (stability)
    check_softmax(DType::f32, Dims{2, 37, 300}, uniform(-50, 50), 34);
    check_softmax(DType::f32, Dims{3, 2, 1000}, uniform(-200, 200), 35);
    check_softmax(DType::f64, Dims{2, 19, 33}, uniform(-700, 700), 36);
}

TEST(Softmax, SpecialValues) {
    // rows: masked entries; a NaN; all -inf; a +inf  (torch gives 0 for -inf entries, NaN rows otherwise)
    const std::vector<double> v = {1,     -kInf, 2,     -kInf, 0.5,   3, kNaN, 1, 2, 0,
                                   -kInf, -kInf, -kInf, -kInf, -kInf, 1, kInf, 2, 0, 3};
    for (DType dt : {DType::f32, DType::f64}) {
        for (bool log : {false, true}) {
            for (bool cols : {false, true}) {
                TensorAny x = make(v, Dims{4, 5}, dt);
                TensorAny y;
                if (cols) {  // the same rows laid out as columns: softmax along dim 0 of a [5, 4] tensor
                    auto xt = ops::contiguous(ops::swap_dims(x, 0, 1));
                    y = ops::swap_dims(log ? ops::log_softmax(xt, 0) : ops::softmax(xt, 0), 0, 1);
                } else {
                    y = log ? ops::log_softmax(x, 1) : ops::softmax(x, 1);
                }
                auto want = ref_map(v, Dims{4, 5}, 1,
                                    [&](const std::vector<double>& l) { return ref_softmax(l, log); });
                std::vector<double> scale(want.size(), 1e-6 + 1);
                expect_close(host(y), want, scale, 1e-5,
                             detail::msg(dt, log ? " log" : "", cols ? " cols" : " rows"));
                EXPECT_EQ(host(y)[1], log ? -kInf : 0.0);
            }
        }
    }
}

TEST(Reduce, LargeRowsThreadsAndAccuracy) {
    std::mt19937 rng(60);
    // rows long enough to be split across threads; the f32 sum must match a double reference closely
    const int64_t n = 300001;
    auto vals = random_values(2 * n, uniform(-1, 1), rng);
    vals[static_cast<std::size_t>(n + 290000)] = 3.5;  // max of row 1, in the last chunk
    vals[static_cast<std::size_t>(n + 290001)] = 3.5;  // a tie: the first index wins
    vals[17] = -4;
    auto x = make(vals, Dims{2, n}, DType::f32);
    const auto h = host(x);
    const Dims s{2, n, 1};
    auto xs = ops::reshape(x, s);
    auto want_sum = ref_reduce(h, s, 1, sum_of);
    auto scale = ref_reduce(h, s, 1, abs_sum);
    expect_close(host(ops::sum_dim(x, 1)), want_sum, scale, 1e-6, "split sum");
    EXPECT_EQ(host(ops::argmax(x, 1)),
              (std::vector<double>{double(first_extreme({h.begin(), h.begin() + n}, true)), 290000.0}));
    EXPECT_EQ(host(ops::argmin(x, 1))[0], 17);
    EXPECT_EQ(host(ops::max(x))[0], 3.5);
    // the same along dim 0 (column layout with few columns and many rows)
    auto xt = ops::swap_dims(x, 0, 1);
    expect_close(host(ops::sum_dim(xt, 0)), want_sum, scale, 1e-6, "column sum");
    EXPECT_EQ(host(ops::argmax(xt, 0))[1], 290000);
    // results do not depend on the thread count
    set_num_threads(1);
    auto s1 = ops::into_data(ops::sum_dim(x, 1));
    auto m1 = ops::into_data(ops::softmax(xs, 1));
    auto c1 = ops::into_data(ops::cumsum(x, 1));
    set_num_threads(2);
    EXPECT_EQ(ops::into_data(ops::sum_dim(x, 1)), s1);
    EXPECT_EQ(ops::into_data(ops::softmax(xs, 1)), m1);
    EXPECT_EQ(ops::into_data(ops::cumsum(x, 1)), c1);
    set_num_threads(0);
    // a big softmax over rows sums to one per row
    auto big = ops::random(Dims{64, 4096}, Distribution::Uniform(-30, 30), DType::f32, Device());
    auto rows = host(ops::sum_dim(ops::softmax(big, 1), 1));
    for (double r : rows) EXPECT_NEAR(r, 1.0, 1e-5);
}

}  // namespace reduce_test
