// CrossAttention against a float64 loop over its own weights (grouped-query heads, a padding mask,
// context of another width), the cache (the context projected once), quiet softmax, and bad configs.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <vector>

#include "reference.hpp"

using namespace burn;

namespace nn_cross_attention_test {

std::vector<double> f64(const Tensor<2>& t) {
    std::vector<double> out;
    for (float x : t.to_data().to_vec<float>()) out.push_back(x);
    return out;
}
std::vector<double> f64(const Tensor<1>& t) {
    std::vector<double> out;
    for (float x : t.to_data().to_vec<float>()) out.push_back(x);
    return out;
}

/// x [rows, in] W^T + b, W [out, in].
std::vector<double> linear(const std::vector<double>& x, int rows, const nn::Linear& l) {
    const auto w = f64(l.weight.val()), b = f64(l.bias->val());
    const int out = static_cast<int>(b.size()), in = static_cast<int>(w.size()) / out;
    std::vector<double> y(static_cast<std::size_t>(rows * out));
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < out; ++o) {
            double s = b[o];
            for (int i = 0; i < in; ++i) s += x[r * in + i] * w[o * in + i];
            y[r * out + o] = s;
        }
    return y;
}

/// The module's forward in float64: key/value head of query head h is h / (n_heads / n_heads_kv).
std::vector<double> reference(const nn::CrossAttention& m, const std::vector<float>& xq,
                              const std::vector<float>& xc, int B, int LQ, int LK,
                              const std::vector<int>& valid_keys, bool quiet) {
    const int H = static_cast<int>(m.n_heads), HKV = static_cast<int>(m.n_heads_kv),
              DH = static_cast<int>(m.d_head);
    const auto q = linear(std::vector<double>(xq.begin(), xq.end()), B * LQ, m.query);
    const auto k = linear(std::vector<double>(xc.begin(), xc.end()), B * LK, m.key);
    const auto v = linear(std::vector<double>(xc.begin(), xc.end()), B * LK, m.value);
    std::vector<double> ctx(static_cast<std::size_t>(B * LQ * H * DH), 0.0);
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
            const int g = h / (H / HKV);
            for (int i = 0; i < LQ; ++i) {
                std::vector<double> s(static_cast<std::size_t>(LK));
                double mx = quiet ? 0.0 : -1e300, sum = quiet ? 1.0 : 0.0;
                for (int j = 0; j < LK; ++j) {
                    double d = 0;
                    for (int t = 0; t < DH; ++t)
                        d += q[(b * LQ + i) * H * DH + h * DH + t] * k[(b * LK + j) * HKV * DH + g * DH + t];
                    s[j] = j < valid_keys[b] ? d / std::sqrt(double(DH)) : -1.0e4;
                    mx = std::max(mx, s[j]);
                }
                if (quiet) sum = std::exp(-mx);
                for (int j = 0; j < LK; ++j) sum += s[j] = std::exp(s[j] - mx);
                for (int j = 0; j < LK; ++j)
                    for (int t = 0; t < DH; ++t)
                        ctx[(b * LQ + i) * H * DH + h * DH + t] +=
                            s[j] / sum * v[(b * LK + j) * HKV * DH + g * DH + t];
            }
        }
    return linear(ctx, B * LQ, m.output);
}

void expect_near(const Tensor<3>& got, const std::vector<double>& want) {
    const auto g = got.to_data().to_vec<float>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 2e-5) << i;
}

TEST(NnCrossAttention, GroupedQueryHeadsMaskAndCacheMatchALoop) {
    const int B = 2, LQ = 3, LK = 5, DM = 6, DC = 4;
    for (bool quiet : {false, true}) {
        nn::CrossAttentionConfig cfg{DM, DC, 4, 2, 3, 0.0, -1.0e4, quiet, std::nullopt};
        const auto m = cfg.init();
        EXPECT_EQ(m.key.weight.val().dims(), (Shape<2>{6, DC}));  // n_heads_kv * d_head
        const auto xq = ref::lcg_values(B * LQ * DM, 1), xc = ref::lcg_values(B * LK * DC, 2);
        const auto q = Tensor<3>::from_data(TensorData(xq, {B, LQ, DM}));
        const auto c = Tensor<3>::from_data(TensorData(xc, {B, LK, DC}));
        const auto mask = Tensor<2, Bool>::from_bool(
            {{false, false, false, false, false}, {false, false, false, true, true}});
        const auto want = reference(m, xq, xc, B, LQ, LK, {5, 3}, quiet);
        expect_near(m.forward(q, c, mask), want);
        // The cache: the context is projected on the first call and reused (here not even passed).
        nn::CrossAttentionCache cache;
        expect_near(m.forward_cache(q, c, mask, cache), want);
        EXPECT_EQ(cache.key->dims(), (Shape<4>{B, 2, LK, 3}));
        expect_near(m.forward_cache(q, Tensor<3>(), mask, cache), want);
        cache.reset();
        EXPECT_TRUE(cache.empty());
    }
}

TEST(NnCrossAttention, ConfigAndShapeErrors) {
    EXPECT_THROW((nn::CrossAttentionConfig{8, 4, 3, 2, 2}.init()), Error);  // 3 heads over 2 kv heads
    const auto m = nn::CrossAttentionConfig{8, 4, 2, 1, 4, 0.0}.init();
    EXPECT_EQ(m.num_params(), (8 * 8 + 8) + 2 * (4 * 4 + 4) + (8 * 8 + 8));
    try {
        m.forward(Tensor<3>::zeros({1, 2, 8}), Tensor<3>::zeros({1, 3, 5}));
        FAIL() << "a context of the wrong width was accepted";
    } catch (const ShapeError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("[CrossAttention] context [1, 3, 5]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("d_context = 4"), std::string::npos) << msg;
    }
    const auto y = m.forward(Tensor<3>::zeros({1, 2, 8}), Tensor<3>::zeros({1, 3, 4}));
    EXPECT_EQ(y.dims(), (Shape<3>{1, 2, 8}));
}

}  // namespace nn_cross_attention_test
