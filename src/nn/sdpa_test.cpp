// nn::scaled_dot_product_attention: the row it calls against the same attention written with matmul and
// softmax in float64 on the host; the composed path it takes for dropout while training (a dropout
// probability of 1e-12 drops nothing) against the row, with causal and padding masks; dropout as the
// identity on an inference device; a query with every key masked is NaN; bad options.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>

using namespace burn;

namespace {

Tensor<4> sdpa_random(Dims s, unsigned seed, const Device& dev) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.f, 1.f);
    std::vector<float> v(static_cast<std::size_t>(s.numel()));
    for (auto& x : v) x = d(rng);
    return Tensor<4>(ops::from_data(TensorData(v, s), dev));
}

std::vector<float> sdpa_values(const Tensor<4>& t) {
    return ops::into_data(t.handle()).to_vec<float>();
}

/// The reference of one causal, padded case, in float64: scores, masks, softmax, weighted sum.
std::vector<double> sdpa_reference(const std::vector<float>& q, const std::vector<float>& k,
                                   const std::vector<float>& v, int64_t bh, int64_t lq, int64_t lk, int64_t d,
                                   int64_t pad_from) {
    std::vector<double> out(static_cast<std::size_t>(bh * lq * d));
    for (int64_t b = 0; b < bh; ++b)
        for (int64_t i = 0; i < lq; ++i) {
            std::vector<double> p(static_cast<std::size_t>(lk), 0.0);
            double mx = -1e300, sum = 0;
            for (int64_t j = 0; j < lk; ++j) {
                if (j > i + lk - lq || j >= pad_from) continue;
                double s = 0;
                for (int64_t t = 0; t < d; ++t)
                    s += double(q[static_cast<std::size_t>((b * lq + i) * d + t)]) *
                         k[static_cast<std::size_t>((b * lk + j) * d + t)];
                p[static_cast<std::size_t>(j)] = s / std::sqrt(double(d));
                mx = std::max(mx, p[static_cast<std::size_t>(j)]);
            }
            for (int64_t j = 0; j < lk; ++j) {
                const bool hidden = j > i + lk - lq || j >= pad_from;
                p[static_cast<std::size_t>(j)] = hidden ? 0 : std::exp(p[static_cast<std::size_t>(j)] - mx);
                sum += p[static_cast<std::size_t>(j)];
            }
            for (int64_t t = 0; t < d; ++t) {
                double acc = 0;
                for (int64_t j = 0; j < lk; ++j)
                    acc += p[static_cast<std::size_t>(j)] / sum *
                           v[static_cast<std::size_t>((b * lk + j) * d + t)];
                out[static_cast<std::size_t>((b * lq + i) * d + t)] = acc;
            }
        }
    return out;
}

TEST(NnSdpa, RowAndComposedPathMatchFloat64Reference) {
    const int64_t b = 2, h = 3, lq = 5, lk = 7, d = 8, pad_from = 6;  // keys 6.. are padding
    for (const Device& dev : {Device(), Device().autodiff()}) {
        SCOPED_TRACE(dev.is_autodiff() ? "autodiff, dropout 1e-12 (composed)" : "inference (the row)");
        const Tensor<4> q = sdpa_random({b, h, lq, d}, 1, dev), k = sdpa_random({b, h, lk, d}, 2, dev),
                        v = sdpa_random({b, h, lk, d}, 3, dev);
        std::vector<bool> pad(static_cast<std::size_t>(lk));
        for (int64_t j = 0; j < lk; ++j) pad[static_cast<std::size_t>(j)] = j >= pad_from;
        const Tensor<4, Bool> mask(ops::from_data(TensorData(pad, Dims{1, 1, 1, lk}), dev));
        nn::SdpaOptions o;
        o.causal = true;
        o.mask = mask;
        o.dropout = dev.is_autodiff() ? 1e-12 : 0.5;  // 0.5 on the inference device: the identity
        const auto y = sdpa_values(nn::scaled_dot_product_attention(q, k, v, o));
        const auto want =
            sdpa_reference(sdpa_values(q), sdpa_values(k), sdpa_values(v), b * h, lq, lk, d, pad_from);
        ASSERT_EQ(y.size(), want.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            ASSERT_NEAR(y[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << i;
    }
}

TEST(NnSdpa, EveryKeyMaskedIsNaN) {
    const Device dev;
    const Tensor<4> q = sdpa_random({1, 1, 2, 4}, 4, dev), k = sdpa_random({1, 1, 3, 4}, 5, dev);
    nn::SdpaOptions o;
    o.mask = Tensor<4, Bool>(
        ops::from_data(TensorData(std::vector<bool>{true, true, true}, Dims{1, 1, 1, 3}), dev));
    for (float x : sdpa_values(nn::scaled_dot_product_attention(q, k, k, o))) EXPECT_TRUE(std::isnan(x));
}

TEST(NnSdpa, AutodiffRecordsOneNodeAndMatchesTheComposedGradients) {
    // Without dropout the row is one node on an autodiff device (its rule calls attention_backward);
    // its gradients match those of the composed path (dropout 1e-12 drops nothing).
    const Device dev = Device().autodiff();
    const int64_t b = 1, h = 2, lq = 6, lk = 9, d = 8;
    auto leaf = [&](Dims s, unsigned seed) {
        return Tensor<4>(ops::require_grad(sdpa_random(s, seed, dev).handle()));
    };
    const Tensor<4> q = leaf({b, h, lq, d}, 8), k = leaf({b, h, lk, d}, 9), v = leaf({b, h, lk, d}, 10);
    std::vector<std::vector<float>> grads[2];
    for (int composed = 0; composed < 2; ++composed) {
        nn::SdpaOptions o;
        o.causal = true;
        o.dropout = composed ? 1e-12 : 0.0;
        const int64_t before = autodiff::live_nodes();
        const Tensor<4> y = nn::scaled_dot_product_attention(q, k, v, o);
        if (!composed) {
            EXPECT_EQ(autodiff::live_nodes() - before, 1) << "attention is one node";
        }
        const Gradients g = ops::backward(ops::sum(ops::mul(y.handle(), y.handle())));
        for (const auto& x : {q, k, v})
            grads[composed].push_back(ops::into_data(*ops::grad(x.handle(), g)).to_vec<float>());
    }
    for (std::size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(grads[0][i].size(), grads[1][i].size());
        for (std::size_t j = 0; j < grads[0][i].size(); ++j)
            EXPECT_NEAR(grads[0][i][j], grads[1][i][j], 1e-4 * (1 + std::abs(grads[1][i][j])))
                << i << " " << j;
    }
}

TEST(NnSdpa, BadOptionsAreErrors) {
    const Device dev;
    const Tensor<4> q = sdpa_random({1, 2, 3, 4}, 6, dev);
    nn::SdpaOptions o;
    o.dropout = 1.0;
    EXPECT_THROW(nn::scaled_dot_product_attention(q, q, q, o), Error);
    const Tensor<4> k = sdpa_random({1, 2, 3, 5}, 7, dev);
    try {
        nn::scaled_dot_product_attention(q, k, k);
        FAIL() << "a key of another head dim was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[attention]"), std::string::npos) << e.what();
    }
}

}  // namespace
