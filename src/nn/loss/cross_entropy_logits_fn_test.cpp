// nn::loss::cross_entropy_with_logits (burn's tensor function): -mean_b sum_c t[b, c] * log_softmax(x)[b, c],
// value and gradient against a float64 loop (a stable log-sum-exp), for soft, one-hot and unnormalised
// targets and for large logits.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace cross_entropy_logits_fn_test {

struct Reference {
    double loss = 0;
    std::vector<double> grad;  // d loss / d logits, [batch, classes] row-major
};

/// The loss and its gradient in float64: d/dx[b, c] = (softmax(x)[b, c] * sum_c t[b, c] - t[b, c]) / batch.
Reference reference(const std::vector<double>& x, const std::vector<double>& t, std::size_t batch,
                    std::size_t classes) {
    Reference r;
    r.grad.resize(batch * classes);
    for (std::size_t b = 0; b < batch; ++b) {
        const double* row = &x[b * classes];
        double hi = row[0];
        for (std::size_t c = 1; c < classes; ++c) hi = std::max(hi, row[c]);
        double z = 0;
        for (std::size_t c = 0; c < classes; ++c) z += std::exp(row[c] - hi);
        const double lse = hi + std::log(z);
        double tsum = 0;
        for (std::size_t c = 0; c < classes; ++c) {
            r.loss -= t[b * classes + c] * (row[c] - lse);
            tsum += t[b * classes + c];
        }
        for (std::size_t c = 0; c < classes; ++c)
            r.grad[b * classes + c] =
                (std::exp(row[c] - lse) * tsum - t[b * classes + c]) / static_cast<double>(batch);
    }
    r.loss /= static_cast<double>(batch);
    return r;
}

std::vector<double> as_doubles(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

void check(const std::vector<std::vector<float>>& logits, const std::vector<std::vector<float>>& targets) {
    const std::size_t batch = logits.size(), classes = logits[0].size();
    std::vector<float> xf, tf;
    for (const auto& row : logits) xf.insert(xf.end(), row.begin(), row.end());
    for (const auto& row : targets) tf.insert(tf.end(), row.begin(), row.end());
    const Dims shape{static_cast<int64_t>(batch), static_cast<int64_t>(classes)};
    const Device dev = Device().autodiff();
    auto x = Tensor<2>::from_data(TensorData(xf, shape), dev).require_grad();
    auto t = Tensor<2>::from_data(TensorData(tf, shape), dev);
    auto loss = nn::loss::cross_entropy_with_logits(x, t);
    EXPECT_EQ(loss.dims(), (Shape<1>{1}));
    const Reference want = reference(as_doubles(xf), as_doubles(tf), batch, classes);
    EXPECT_NEAR(loss.into_scalar<double>(), want.loss, 1e-5 * std::max(1.0, std::abs(want.loss)));
    auto grads = loss.backward();
    auto g = x.grad(grads);
    ASSERT_TRUE(g.has_value());
    auto got = g->cast(DType::f64).to_vec<double>();
    ASSERT_EQ(got.size(), want.grad.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want.grad[i], 1e-6) << "element " << i;
}

TEST(CrossEntropyWithLogitsFn, SoftTargetsMatchAFloat64Reference) {
    check({{1.0f, -0.5f, 2.0f, 0.3f}, {0.3f, 0.1f, -1.0f, 0.0f}, {-2.0f, 4.0f, 0.5f, 1.5f}},
          {{0.1f, 0.2f, 0.6f, 0.1f}, {0.25f, 0.25f, 0.25f, 0.25f}, {0.0f, 0.9f, 0.05f, 0.05f}});
}

TEST(CrossEntropyWithLogitsFn, OneHotTargetsAreTheClassIndexLoss) {
    std::vector<std::vector<float>> logits{{1.0f, -0.5f, 2.0f}, {0.3f, 0.1f, -1.0f}};
    std::vector<std::vector<float>> one_hot{{0, 0, 1}, {1, 0, 0}};
    check(logits, one_hot);
    // By hand: the mean of -log softmax at the target, (0.371539 + 0.737768) / 2 for these rows.
    auto x = Tensor<2>::from_floats({{1.0, -0.5, 2.0}, {0.3, 0.1, -1.0}});
    auto t = Tensor<2>::from_floats({{0, 0, 1}, {1, 0, 0}});
    const double row0 = std::log(std::exp(1.0) + std::exp(-0.5) + std::exp(2.0)) - 2.0;
    const double row1 = std::log(std::exp(0.3) + std::exp(0.1) + std::exp(-1.0)) - 0.3;
    EXPECT_NEAR(nn::loss::cross_entropy_with_logits(x, t).into_scalar<double>(), (row0 + row1) / 2, 1e-6);
    EXPECT_NEAR((row0 + row1) / 2, 0.554654, 1e-6);
    // The module's class-index form agrees.
    auto by_index = nn::loss::CrossEntropyLossConfig{}.init().forward(x, Tensor<1, Int>::from_ints({2, 0}));
    EXPECT_NEAR(by_index.into_scalar<double>(), (row0 + row1) / 2, 1e-6);
}

TEST(CrossEntropyWithLogitsFn, UnnormalisedTargetsAndLargeLogits) {
    // Targets that do not sum to one scale the gradient's softmax term (the formula, not a renormalisation),
    // and logits near 1000 stay finite (log_softmax, not log(softmax)).
    check({{1000.0f, 999.0f, 990.0f}, {-1000.0f, -1001.0f, -998.0f}},
          {{2.0f, 0.0f, 1.0f}, {0.0f, 0.5f, 0.0f}});
    check({{50.0f, -50.0f}, {0.0f, 0.0f}, {-3.0f, 3.0f}}, {{0.0f, 1.0f}, {0.5f, 0.5f}, {0.0f, 0.0f}});
}

}  // namespace cross_entropy_logits_fn_test
