// RnntLoss against torchaudio.functional.rnnt_loss (tests/fixtures/nn_layers/rnnt.json, written by
// scripts/gen_rnnt_fixtures.py): per-sample losses and logits gradients with blank -1 and 0, an empty
// target and clamped gradients; and independently of torchaudio, against an enumeration of every
// alignment in float64 and finite differences (with and without fused_log_softmax); reductions; errors.
#include "burn/nn/loss/rnnt.hpp"

#include <cmath>
#include <functional>

#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace rnnt_test {

namespace {

TEST(NnRnntLoss, MatchesTorchaudio) {
    auto f = nn_test::load_fixture("rnnt");
    struct Case {
        std::string name;
        int64_t blank;
        double clamp;
    };
    for (const Case& c : {Case{"basic", -1, -1}, Case{"blank0", 0, 0.05}}) {
        SCOPED_TRACE(c.name);
        auto dev = Device().autodiff();
        const std::string k = "rnnt." + c.name;
        auto x = f.floats<4>(k + ".logits", dev).require_grad();
        auto loss =
            nn::loss::RnntLossConfig{}.with_blank(c.blank).with_clamp(c.clamp).init().forward_no_reduction(
                x, f.ints<2>(k + ".targets", dev), f.ints<1>(k + ".logit_lengths", dev),
                f.ints<1>(k + ".target_lengths", dev));
        EXPECT_TRUE(close(loss, f.at(k), 1e-4, 1e-5));
        auto grads = (loss * f.floats<1>("r." + k, dev)).sum().backward();
        auto g = x.grad(grads);
        ASSERT_TRUE(g.has_value());
        EXPECT_TRUE(close(*g, f.at("g." + k + ".logits"), 1e-5, 1e-4));
    }
}

/// -log of the sum over every alignment of one sample (T time steps, labels y) of the product of its
/// transitions' probabilities: each alignment is an order of T - 1 blanks and |y| labels, then the
/// final blank at (T - 1, |y|). lp(t, u, v) is a log-probability.
double enumerate(int64_t T, const std::vector<int64_t>& y, int64_t blank,
                 const std::function<double(int64_t, int64_t, int64_t)>& lp) {
    const auto U = static_cast<int64_t>(y.size());
    double total = 0;
    const int64_t steps = T - 1 + U;
    for (int64_t mask = 0; mask < (int64_t(1) << steps); ++mask) {  // bit set: emit a label
        if (__builtin_popcountll(static_cast<unsigned long long>(mask)) != U) continue;
        int64_t t = 0, u = 0;
        double logp = 0;
        for (int64_t s = 0; s < steps; ++s) {
            if (mask >> s & 1) {
                logp += lp(t, u, y[static_cast<std::size_t>(u)]);
                ++u;
            } else {
                logp += lp(t, u, blank);
                ++t;
            }
        }
        logp += lp(T - 1, U, blank);
        total += std::exp(logp);
    }
    return -std::log(total);
}

TEST(NnRnntLoss, MatchesEveryAlignmentAndFiniteDifferences) {
    const Device cpu = Device();
    const int64_t N = 2, T = 4, U = 3, V = 5, blank = 2;
    auto x = Tensor<4>::random({N, T, U + 1, V}, Distribution::Normal(0, 1.5), cpu, DType::f64);
    auto targets =
        Tensor<2, Int>::from_data(TensorData(std::vector<int64_t>{0, 4, 1, 3, 3, 0}, Dims{N, U}), cpu);
    auto ll = Tensor<1, Int>::from_data(TensorData(std::vector<int64_t>{4, 3}, Dims{N}), cpu);
    auto tl = Tensor<1, Int>::from_data(TensorData(std::vector<int64_t>{3, 2}, Dims{N}), cpu);
    const std::vector<std::vector<int64_t>> labels = {{0, 4, 1}, {3, 3}};
    for (bool fused : {true, false}) {
        SCOPED_TRACE(fused ? "fused log_softmax" : "log-probabilities");
        auto input = fused ? x : activation::log_softmax(x, 3);
        const std::vector<double> v = input.into_data().to_vec<double>();
        auto rnnt = nn::loss::RnntLossConfig{}.with_blank(blank).with_fused_log_softmax(fused).init();
        const std::vector<double> got =
            rnnt.forward_no_reduction(input, targets, ll, tl).into_data().to_vec<double>();
        for (int64_t n = 0; n < N; ++n) {
            auto lp = [&](int64_t t, int64_t u, int64_t c) {
                const std::size_t row = static_cast<std::size_t>(((n * T + t) * (U + 1) + u) * V);
                double norm = 0;
                if (fused) {
                    double s = 0;
                    for (int64_t j = 0; j < V; ++j) s += std::exp(v[row + static_cast<std::size_t>(j)]);
                    norm = std::log(s);
                }
                return v[row + static_cast<std::size_t>(c)] - norm;
            };
            const double want = enumerate(n == 0 ? 4 : 3, labels[static_cast<std::size_t>(n)], blank, lp);
            EXPECT_NEAR(got[static_cast<std::size_t>(n)], want, 1e-10 * (1 + std::abs(want)))
                << "sample " << n;
        }
        // gradients of the summed loss against central differences, every element
        auto leaf = Tensor<4>::from_data(input.into_data(), Device().autodiff()).require_grad();
        auto grads = rnnt.forward_no_reduction(leaf, targets, ll, tl).sum().backward();
        const std::vector<double> g = leaf.grad(grads)->into_data().to_vec<double>();
        const double eps = 1e-6;
        for (std::size_t i = 0; i < v.size(); ++i) {
            auto at = [&](double d) {
                std::vector<double> w = v;
                w[i] += d;
                auto t = Tensor<4>::from_data(TensorData(w, Dims{N, T, U + 1, V}), cpu);
                return rnnt.forward_no_reduction(t, targets, ll, tl).sum().into_scalar<double>();
            };
            const double fd = (at(eps) - at(-eps)) / (2 * eps);
            ASSERT_NEAR(g[i], fd, 1e-6) << "element " << i;
        }
    }
}

TEST(NnRnntLoss, ReductionsAndErrors) {
    auto x = Tensor<4>::random({2, 3, 2, 4}, Distribution::Normal(0, 1));
    auto targets = Tensor<2, Int>::from_data(TensorData(std::vector<int64_t>{1, 2}, Dims{2, 1}), Device());
    auto ll = Tensor<1, Int>::from_data(TensorData(std::vector<int64_t>{3, 2}, Dims{2}), Device());
    auto tl = Tensor<1, Int>::from_data(TensorData(std::vector<int64_t>{1, 1}, Dims{2}), Device());
    auto rnnt = nn::loss::RnntLossConfig{}.with_blank(0).init();
    const std::vector<float> each = rnnt.forward_no_reduction(x, targets, ll, tl).into_data().to_vec<float>();
    EXPECT_NEAR(rnnt.forward(x, targets, ll, tl).into_scalar<float>(), (each[0] + each[1]) / 2, 1e-5);
    EXPECT_NEAR(rnnt.forward(x, targets, ll, tl, Reduction::Sum).into_scalar<float>(), each[0] + each[1],
                1e-5);
    nn_test::expect_error_mentions(
        [&] { nn::loss::RnntLossConfig{}.with_blank(1).init().forward(x, targets, ll, tl); },
        {"[RnntLoss]", "target label 1", "differ from blank 1"});
    nn_test::expect_error_mentions(
        [&] {
            auto bad = Tensor<1, Int>::from_data(TensorData(std::vector<int64_t>{4, 2}, Dims{2}), Device());
            rnnt.forward(x, targets, bad, tl);
        },
        {"[RnntLoss]", "logit_lengths[0] = 4", "T = 3"});
    nn_test::expect_error_mentions(
        [&] {
            rnnt.forward(x, Tensor<2, Int>::zeros({2, 3}), ll, tl);
        },
        {"[RnntLoss]", "targets must be [N, U] = [2, 1]", "[2, 3]"});
}

}  // namespace

}  // namespace rnnt_test
