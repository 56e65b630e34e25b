// The performance paths added for the training benchmarks, against double references written here:
// the vectorised f32 exp / gelu / gelu_backward (every vector tail length, special values, in-place
// reuse, strided inputs through the generic path), relu_backward, and single-row matmuls (the GEMV
// path: W^T views, row-major B, sliced and flipped operands).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "burn/burn.hpp"
#include "ops/optim_ops.hpp"

using namespace burn;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> as_f64(const TensorAny& t) {
    return ops::into_data(ops::cast(t, DType::f64)).to_vec<double>();
}

TensorAny f32(const std::vector<double>& v, Dims shape) {
    return ops::cast(ops::from_data(TensorData(v, shape), Device::cpu()), DType::f32);
}

double gelu_ref(double x) {
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}
double gelu_grad_ref(double x) {
    return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
}

/// Inputs rounded to f32 (the reference sees what the kernel sees).
std::vector<double> f32_values(std::vector<double> v) {
    for (auto& x : v) x = static_cast<double>(static_cast<float>(x));
    return v;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double atol, double rtol,
                  const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
        } else if (std::isinf(want[i])) {
            EXPECT_EQ(got[i], want[i]) << what << " at " << i;
        } else {
            EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << what << " at " << i;
        }
    }
}

std::vector<double> ramp(int64_t n, double lo, double hi) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i)
        v.push_back(lo + (hi - lo) * static_cast<double>(i) / std::max<int64_t>(1, n - 1));
    return f32_values(v);
}

TEST(FusedActivation, ExpGeluAndGeluBackwardMatchDoubleOnEveryTailLength) {
    for (int64_t n = 1; n <= 67; ++n) {
        auto xv = ramp(n, -12, 12);
        auto gv = ramp(n, 3, -2);
        std::vector<double> e, ge, gb;
        for (std::size_t i = 0; i < xv.size(); ++i) {
            e.push_back(std::exp(xv[i]));
            ge.push_back(gelu_ref(xv[i]));
            gb.push_back(gv[i] * gelu_grad_ref(xv[i]));
        }
        const std::string what = "n = " + std::to_string(n);
        expect_close(as_f64(ops::exp(f32(xv, Dims{n}))), e, 0, 2e-6, "exp " + what);
        expect_close(as_f64(ops::gelu(f32(xv, Dims{n}))), ge, 2e-6, 2e-6, "gelu " + what);
        expect_close(as_f64(ops::gelu_backward(f32(xv, Dims{n}), f32(gv, Dims{n}))), gb, 4e-6, 4e-6,
                     "gelu_backward " + what);
    }
}

TEST(FusedActivation, SpecialValues) {
    const std::vector<double> x = {kNan,  kInf, -kInf, 0.0, -0.0, 100.0, -100.0, 88.0, -87.0,
                                   1e-30, 4.0,  -4.0,  5.9, -5.9, 20.0,  -20.0,  3.0};
    const auto n = static_cast<int64_t>(x.size());
    std::vector<double> e, ge, gb;
    for (double v : x) {
        e.push_back(static_cast<double>(std::exp(static_cast<float>(v))));  // inf above the f32 range
        ge.push_back(gelu_ref(v));
        gb.push_back(gelu_grad_ref(v));
    }
    expect_close(as_f64(ops::exp(f32(x, Dims{n}))), e, 1e-30, 2e-6, "exp");
    expect_close(as_f64(ops::gelu(f32(x, Dims{n}))), ge, 2e-6, 2e-6, "gelu");
    expect_close(
        as_f64(ops::gelu_backward(f32(x, Dims{n}), ops::full(Dims{n}, 1.0, DType::f32, Device::cpu()))), gb,
        4e-6, 4e-6, "gelu_backward");
}

TEST(FusedActivation, LargeInPlaceAndStridedInputs) {
    // Large enough for several parallel chunks; moved in, so the contiguous path writes in place.
    const int64_t rows = 257, cols = 300;
    std::mt19937 rng(3);
    std::normal_distribution<double> nd(0, 3);
    std::vector<double> xv(static_cast<std::size_t>(rows * cols));
    for (auto& v : xv) v = nd(rng);
    xv = f32_values(xv);
    TensorAny x = f32(xv, Dims{rows, cols});
    std::vector<double> ge;
    for (double v : xv) ge.push_back(gelu_ref(v));
    expect_close(as_f64(ops::gelu(ops::contiguous(x))), ge, 2e-6, 2e-6, "gelu in place");
    // A transposed view takes the generic (strided) path: same values, transposed.
    TensorAny xt = ops::swap_dims(x, 0, 1);
    std::vector<double> want(ge.size());
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            want[static_cast<std::size_t>(j * rows + i)] =
                std::exp(xv[static_cast<std::size_t>(i * cols + j)]);
    expect_close(as_f64(ops::exp(xt)), want, 0, 2e-6, "exp of a transposed view");
}

TEST(FusedActivation, ReluBackwardIsTheMaskedGradient) {
    const std::vector<double> x = {-1, 0, -0.0, 1e-30, 2, kNan, kInf, -kInf};
    const std::vector<double> g = {5, 5, 5, 5, 5, 5, 5, 5};
    const std::vector<double> want = {0, 0, 0, 5, 5, 0, 5, 0};
    const auto n = static_cast<int64_t>(x.size());
    for (DType dt : {DType::f32, DType::f64, DType::i32}) {
        auto xs = x;
        if (dt == DType::i32) xs = {-1, 0, 0, 0, 2, 0, 3, -3};
        auto w = want;
        if (dt == DType::i32) w = {0, 0, 0, 0, 5, 0, 5, 0};
        TensorAny xt = ops::cast(ops::from_data(TensorData(xs, Dims{n}), Device::cpu()), dt);
        TensorAny gt = ops::cast(ops::from_data(TensorData(g, Dims{n}), Device::cpu()), dt);
        EXPECT_EQ(as_f64(ops::relu_backward(xt, gt)), w) << dt;
    }
    // Through autodiff: relu's gradient is the masked output gradient.
    const Device ad = Device::cpu().autodiff();
    TensorAny xt =
        ops::require_grad(ops::from_data(TensorData(std::vector<double>{-2, 3, 0, 4}, Dims{4}), ad));
    TensorAny w = ops::from_data(TensorData(std::vector<double>{1, 2, 3, 4}, Dims{4}), ad);
    Gradients grads = ops::backward(ops::sum(ops::mul(ops::relu(xt), w)));
    EXPECT_EQ(as_f64(*ops::grad(xt, grads)), (std::vector<double>{0, 2, 0, 4}));
}

/// a [1, k] times b [k, n] in double.
std::vector<double> row_times(const std::vector<double>& a, const std::vector<double>& b, int64_t k,
                              int64_t n) {
    std::vector<double> y(static_cast<std::size_t>(n), 0.0);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
            y[static_cast<std::size_t>(j)] +=
                a[static_cast<std::size_t>(p)] * b[static_cast<std::size_t>(p * n + j)];
    return y;
}

TEST(FusedActivation, SingleRowMatmulMatchesDouble) {
    std::mt19937 rng(11);
    std::normal_distribution<double> nd(0, 1);
    for (auto [k, n] : {std::pair<int64_t, int64_t>{1, 1}, {3, 5}, {17, 33}, {3136, 130}, {512, 1000}}) {
        std::vector<double> av(static_cast<std::size_t>(k)), bv(static_cast<std::size_t>(k * n));
        for (auto& v : av) v = nd(rng);
        for (auto& v : bv) v = nd(rng);
        av = f32_values(av);
        bv = f32_values(bv);
        const auto want = row_times(av, bv, k, n);
        const double tol = 1e-5 * std::sqrt(static_cast<double>(k)) + 1e-6;
        const std::string what = "k " + std::to_string(k) + " n " + std::to_string(n);
        TensorAny a = f32(av, Dims{1, k});
        // B row-major [k, n]
        expect_close(as_f64(ops::matmul(a, f32(bv, Dims{k, n}))), want, tol, 1e-5, "row-major B " + what);
        // B = W^T with W [n, k] row-major (a Linear layer)
        std::vector<double> wv(bv.size());
        for (int64_t p = 0; p < k; ++p)
            for (int64_t j = 0; j < n; ++j)
                wv[static_cast<std::size_t>(j * k + p)] = bv[static_cast<std::size_t>(p * n + j)];
        TensorAny wt = ops::swap_dims(f32(wv, Dims{n, k}), 0, 1);
        expect_close(as_f64(ops::matmul(a, wt)), want, tol, 1e-5, "W^T " + what);
        // A batch of single rows [2, 1, k] x [k, n] broadcast
        TensorAny a2 = ops::cat({ops::reshape(a, Dims{1, 1, k}), ops::reshape(a, Dims{1, 1, k})}, 0);
        auto two = want;
        two.insert(two.end(), want.begin(), want.end());
        expect_close(as_f64(ops::matmul(a2, ops::unsqueeze_dim(wt, 0))), two, tol, 1e-5, "batched " + what);
    }
    // A flipped row and a sliced (strided-row) W^T: the row is reversed, columns every other one.
    const int64_t k = 40, n = 24;
    std::vector<double> av(static_cast<std::size_t>(k)), wv(static_cast<std::size_t>(2 * n * k));
    for (auto& v : av) v = f32_values({nd(rng)})[0];
    for (auto& v : wv) v = f32_values({nd(rng)})[0];
    TensorAny a = ops::flip(f32(av, Dims{1, k}), Dims{1});
    TensorAny w = ops::slice(f32(wv, Dims{2 * n, k}), {{0, 2 * n, 2}});  // rows 0, 2, 4, ...: [n, k]
    std::vector<double> want(static_cast<std::size_t>(n), 0.0);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
            want[static_cast<std::size_t>(j)] +=
                av[static_cast<std::size_t>(k - 1 - p)] * wv[static_cast<std::size_t>(2 * j * k + p)];
    expect_close(as_f64(ops::matmul(a, ops::swap_dims(w, 0, 1))), want, 1e-4, 1e-5,
                 "flipped row, sliced W^T");
}

TEST(FusedActivation, ContiguousCopyOfTransposedViewsIsTiledAndExact) {
    // [3, 37, 45] -> transposed last dims [3, 45, 37], also a sliced batch dim; several dtypes.
    const int64_t b = 3, r = 37, c = 45;
    std::vector<double> v(static_cast<std::size_t>(b * r * c));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(static_cast<int>(i % 251) - 125);
    for (DType dt : {DType::f32, DType::f64, DType::i32, DType::f16}) {
        TensorAny x = ops::cast(ops::from_data(TensorData(v, Dims{b, r, c}), Device::cpu()), dt);
        TensorAny t = ops::contiguous(ops::swap_dims(x, 1, 2));
        ASSERT_EQ(t.shape(), (Dims{b, c, r}));
        const auto got = as_f64(t);
        for (int64_t k = 0; k < b; ++k)
            for (int64_t i = 0; i < c; ++i)
                for (int64_t j = 0; j < r; ++j)
                    ASSERT_EQ(got[static_cast<std::size_t>((k * c + i) * r + j)],
                              v[static_cast<std::size_t>((k * r + j) * c + i)])
                        << dt << " at " << k << ", " << i << ", " << j;
        // Every other batch of a flipped view: leading dims with non-trivial strides.
        TensorAny s = ops::contiguous(ops::swap_dims(ops::flip(x, Dims{0}), 1, 2));
        const auto gs = as_f64(s);
        for (int64_t k = 0; k < b; ++k)
            for (int64_t i = 0; i < c; ++i)
                for (int64_t j = 0; j < r; ++j)
                    ASSERT_EQ(gs[static_cast<std::size_t>((k * c + i) * r + j)],
                              v[static_cast<std::size_t>(((b - 1 - k) * r + j) * c + i)]);
    }
}

TEST(FusedActivation, AdamStepWithTransposedGradientMatchesContiguous) {
    // A Linear weight's gradient is a W^T-style view; the kernel transposes it block by block.
    std::mt19937 rng(5);
    std::normal_distribution<double> nd(0, 1);
    for (auto [r, c] : {std::pair<int64_t, int64_t>{40, 70}, {16, 16}, {100, 3}, {5, 9}}) {
        auto make = [&](Dims s) {
            std::vector<double> v(static_cast<std::size_t>(s.numel()));
            for (auto& x : v) x = nd(rng);
            return f32(v, s);
        };
        TensorAny p = make(Dims{r, c}), m = make(Dims{r, c}), v = ops::abs(make(Dims{r, c}));
        TensorAny gt = ops::swap_dims(make(Dims{c, r}), 0, 1);  // [r, c], strides (1, r)
        ops::AdamStepHyper h;
        h.step_size = 0.01;
        h.decay = 0.999;
        h.l2 = 0.001;
        auto want = ops::adam_step(ops::contiguous(p), ops::contiguous(gt), ops::contiguous(m),
                                   ops::contiguous(v), h);
        auto got = ops::adam_step(ops::contiguous(p), gt, ops::contiguous(m), ops::contiguous(v), h);
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(as_f64(got[static_cast<std::size_t>(k)]), as_f64(want[static_cast<std::size_t>(k)]))
                << "output " << k << " of [" << r << ", " << c << "]";
        // The reference itself against double arithmetic for one element.
        const auto pv = as_f64(p), gv = as_f64(ops::contiguous(gt)), mv = as_f64(m), vv = as_f64(v),
                   out = as_f64(got[0]);
        const double gi = gv[7] + h.l2 * pv[7], mi = 0.9 * mv[7] + 0.1 * gi,
                     vi = 0.999 * vv[7] + 0.001 * gi * gi;
        EXPECT_NEAR(out[7], h.decay * pv[7] - h.step_size * mi / (std::sqrt(vi) + h.eps), 1e-6);
    }
}

}  // namespace
