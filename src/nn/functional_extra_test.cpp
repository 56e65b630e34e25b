// Functional forms against float64 loops written from the definitions: attention with softcap (the
// fused row cannot cap, so it takes attention_fallback) and attention_fallback itself with a causal and
// a padding mask; ctc_loss (the alpha recursion in log space); adaptive_avg_pool3d.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "reference.hpp"

using namespace burn;

namespace functional_extra_test {

/// [bh, lq, d] attention in float64: scale, optional softcap, causal (bottom-right) and key padding.
std::vector<double> attention_ref(const std::vector<float>& q, const std::vector<float>& k,
                                  const std::vector<float>& v, int bh, int lq, int lk, int d, double softcap,
                                  bool causal, int pad_from) {
    std::vector<double> out(static_cast<std::size_t>(bh * lq * d), 0.0);
    for (int b = 0; b < bh; ++b)
        for (int i = 0; i < lq; ++i) {
            std::vector<double> p(static_cast<std::size_t>(lk), 0.0);
            double mx = -1e300, sum = 0;
            auto hidden = [&](int j) { return (causal && j > i + lk - lq) || j >= pad_from; };
            for (int j = 0; j < lk; ++j) {
                double s = 0;
                for (int t = 0; t < d; ++t) s += double(q[(b * lq + i) * d + t]) * k[(b * lk + j) * d + t];
                s /= std::sqrt(double(d));
                if (softcap > 0) s = softcap * std::tanh(s / softcap);
                p[j] = s;
                if (!hidden(j)) mx = std::max(mx, s);
            }
            for (int j = 0; j < lk; ++j) sum += p[j] = hidden(j) ? 0.0 : std::exp(p[j] - mx);
            for (int j = 0; j < lk; ++j)
                for (int t = 0; t < d; ++t) out[(b * lq + i) * d + t] += p[j] / sum * v[(b * lk + j) * d + t];
        }
    return out;
}

void expect_near(const std::vector<float>& got, const std::vector<double>& want, double tol = 1e-5) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << i;
}

TEST(FunctionalExtra, AttentionSoftcapAndFallbackMatchLoops) {
    const int B = 2, H = 2, LQ = 3, LK = 5, D = 4;
    const auto qv = ref::lcg_values(B * H * LQ * D, 1, -2.f, 2.f),
               kv = ref::lcg_values(B * H * LK * D, 2, -2.f, 2.f);
    const auto vv = ref::lcg_values(B * H * LK * D, 3);
    const auto q = Tensor<4>::from_data(TensorData(qv, {B, H, LQ, D}));
    const auto k = Tensor<4>::from_data(TensorData(kv, {B, H, LK, D}));
    const auto v = Tensor<4>::from_data(TensorData(vv, {B, H, LK, D}));
    nn::SdpaOptions capped;
    capped.softcap = 0.5;  // small enough that the cap changes the weights
    expect_near(nn::scaled_dot_product_attention(q, k, v, capped).to_data().to_vec<float>(),
                attention_ref(qv, kv, vv, B * H, LQ, LK, D, 0.5, false, LK));
    // The fallback with a causal and a padding mask (keys 4.. padded), no cap; the fused row agrees.
    nn::SdpaOptions masked;
    masked.causal = true;
    masked.mask = Tensor<4, Bool>::from_bool({{{{false, false, false, false, true}}}});
    const auto want = attention_ref(qv, kv, vv, B * H, LQ, LK, D, 0.0, true, 4);
    expect_near(nn::attention_fallback(q, k, v, masked).to_data().to_vec<float>(), want);
    expect_near(nn::scaled_dot_product_attention(q, k, v, masked).to_data().to_vec<float>(), want);
    capped.softcap = -1.0;
    EXPECT_THROW(nn::attention_fallback(q, k, v, capped), Error);
}

/// -log p(target | input) of one sample by the CTC alpha recursion, in float64.
double ctc_ref(const std::vector<float>& lp, int T, int N, int C, int n, const std::vector<int>& target,
               int len, int blank) {
    std::vector<int> ext{blank};
    for (int t : target) ext.insert(ext.end(), {t, blank});
    const int L = static_cast<int>(ext.size());
    const double ninf = -std::numeric_limits<double>::infinity();
    auto lse = [&](double a, double b) {
        if (a == ninf) return b;
        if (b == ninf) return a;
        const double m = std::max(a, b);
        return m + std::log(std::exp(a - m) + std::exp(b - m));
    };
    auto at = [&](int t, int c) { return double(lp[(t * N + n) * C + c]); };
    std::vector<double> alpha(L, ninf), next(L);
    alpha[0] = at(0, blank);
    if (L > 1) alpha[1] = at(0, ext[1]);
    for (int t = 1; t < len; ++t) {
        for (int s = 0; s < L; ++s) {
            double a = alpha[s];
            if (s > 0) a = lse(a, alpha[s - 1]);
            if (s > 1 && ext[s] != blank && ext[s] != ext[s - 2]) a = lse(a, alpha[s - 2]);
            next[s] = a == ninf ? ninf : a + at(t, ext[s]);
        }
        alpha = next;
    }
    (void)T;
    return -(L > 1 ? lse(alpha[L - 1], alpha[L - 2]) : alpha[0]);
}

TEST(FunctionalExtra, CtcLossPerSampleMatchesTheAlphaRecursion) {
    const int T = 6, N = 2, C = 4;
    auto logits = Tensor<3>::from_data(TensorData(ref::lcg_values(T * N * C, 7, -2.f, 2.f), {T, N, C}));
    const auto log_probs = activation::log_softmax(logits, 2);
    const auto lp = log_probs.to_data().to_vec<float>();
    const std::vector<std::vector<int>> targets{{1, 2, 2}, {3, 1}};
    auto tgt = Tensor<2, Int>::from_ints({{1, 2, 2}, {3, 1, 0}});
    auto in_len = Tensor<1, Int>::from_ints({6, 5}), tgt_len = Tensor<1, Int>::from_ints({3, 2});
    const auto got = tensor::module::ctc_loss(log_probs, tgt, in_len, tgt_len).to_data().to_vec<float>();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_NEAR(got[0], ctc_ref(lp, T, N, C, 0, targets[0], 6, 0), 1e-4);
    EXPECT_NEAR(got[1], ctc_ref(lp, T, N, C, 1, targets[1], 5, 0), 1e-4);
}

TEST(FunctionalExtra, AdaptiveAvgPool3dMatchesLoops) {
    const int N = 1, C = 2, D = 5, H = 4, W = 7, OD = 3, OH = 2, OW = 3;
    const auto xv = ref::lcg_values(N * C * D * H * W, 11);
    const auto x = Tensor<5>::from_data(TensorData(xv, {N, C, D, H, W}));
    std::vector<double> want;
    auto lo = [](int i, int in, int out) { return i * in / out; };
    auto hi = [](int i, int in, int out) { return ((i + 1) * in + out - 1) / out; };
    for (int c = 0; c < N * C; ++c)
        for (int a = 0; a < OD; ++a)
            for (int b = 0; b < OH; ++b)
                for (int e = 0; e < OW; ++e) {
                    double s = 0;
                    int n = 0;
                    for (int z = lo(a, D, OD); z < hi(a, D, OD); ++z)
                        for (int y = lo(b, H, OH); y < hi(b, H, OH); ++y)
                            for (int w = lo(e, W, OW); w < hi(e, W, OW); ++w, ++n)
                                s += xv[((c * D + z) * H + y) * W + w];
                    want.push_back(s / n);
                }
    const auto y = tensor::module::adaptive_avg_pool3d(x, {OD, OH, OW});
    EXPECT_EQ(y.dims(), (Shape<5>{N, C, OD, OH, OW}));
    expect_near(y.to_data().to_vec<float>(), want);
}

}  // namespace functional_extra_test
