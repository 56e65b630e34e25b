// MultiHeadAttentionConfig's per-projection bias flags (enable_{query,key,value,output}_bias): a flag
// turned off leaves that projection without a bias parameter (num_params drops by d_model), and the
// forward pass still equals multi-head attention computed in float64 from the module's own weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace attention_bias_test {

constexpr int64_t kBatch = 2, kSeqQ = 3, kSeqK = 4, kModel = 4, kHeads = 2, kDk = kModel / kHeads;

/// x W^T + b in float64, x [rows, d] row-major; b empty when the projection has no bias.
std::vector<double> project(const std::vector<double>& x, const nn::Linear& l) {
    auto w = l.weight.val().cast(DType::f64).to_vec<double>();  // [out, in]
    std::vector<double> b(kModel, 0.0);
    if (l.bias) b = l.bias->val().cast(DType::f64).to_vec<double>();
    const std::size_t rows = x.size() / kModel;
    std::vector<double> y(rows * kModel);
    for (std::size_t r = 0; r < rows; ++r)
        for (int64_t o = 0; o < kModel; ++o) {
            double acc = b[o];
            for (int64_t i = 0; i < kModel; ++i) acc += x[r * kModel + i] * w[o * kModel + i];
            y[r * kModel + o] = acc;
        }
    return y;
}

struct Reference {
    std::vector<double> context;  // [batch, seq_q, d_model]
    std::vector<double> weights;  // [batch, heads, seq_q, seq_k]
};

/// softmax(Q_h K_h^T / sqrt(d_k)) V_h per head, heads concatenated, then the output projection.
Reference reference(const nn::MultiHeadAttention& m, const std::vector<double>& xq,
                    const std::vector<double>& xk, const std::vector<double>& xv) {
    auto q = project(xq, m.query), k = project(xk, m.key), v = project(xv, m.value);
    Reference r;
    r.weights.resize(kBatch * kHeads * kSeqQ * kSeqK);
    std::vector<double> ctx(kBatch * kSeqQ * kModel);
    for (int64_t b = 0; b < kBatch; ++b)
        for (int64_t h = 0; h < kHeads; ++h)
            for (int64_t i = 0; i < kSeqQ; ++i) {
                std::array<double, kSeqK> s{};
                double hi = -INFINITY, z = 0;
                for (int64_t j = 0; j < kSeqK; ++j) {
                    for (int64_t e = 0; e < kDk; ++e)
                        s[j] += q[(b * kSeqQ + i) * kModel + h * kDk + e] *
                                k[(b * kSeqK + j) * kModel + h * kDk + e];
                    s[j] /= std::sqrt(static_cast<double>(kDk));
                    hi = std::max(hi, s[j]);
                }
                for (int64_t j = 0; j < kSeqK; ++j) z += std::exp(s[j] - hi);
                for (int64_t j = 0; j < kSeqK; ++j) {
                    const double p = std::exp(s[j] - hi) / z;
                    r.weights[((b * kHeads + h) * kSeqQ + i) * kSeqK + j] = p;
                    for (int64_t e = 0; e < kDk; ++e)
                        ctx[(b * kSeqQ + i) * kModel + h * kDk + e] +=
                            p * v[(b * kSeqK + j) * kModel + h * kDk + e];
                }
            }
    r.context = project(ctx, m.output);
    return r;
}

std::vector<double> ramp(int64_t n, double scale, double phase) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(scale * static_cast<double>(i) + phase));
    return v;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 2e-6) << what << " element " << i;
}

TEST(NnMhaBiasFlags, EachFlagRemovesOneBiasAndForwardMatchesAFloat64Reference) {
    const Device dev = Device::cpu();
    dev.seed(11);
    const auto xq = ramp(kBatch * kSeqQ * kModel, 0.7, 0.1), xk = ramp(kBatch * kSeqK * kModel, 0.45, 1.3),
               xv = ramp(kBatch * kSeqK * kModel, 1.1, -0.4);
    auto tensor = [&](const std::vector<double>& v, int64_t seq) {
        return Tensor<3>::from_data(TensorData(v, Dims{kBatch, seq, kModel}), dev).cast(DType::f32);
    };
    const std::size_t full = 4 * kModel * kModel + 4 * kModel;  // 80: four [d, d] weights and four [d] biases
    const auto all_biases = nn::MultiHeadAttentionConfig{kModel, kHeads}.init(dev);
    EXPECT_EQ(all_biases.num_params(), full);
    // Which projection each case turns off: none, each one, all four.
    const std::vector<std::array<bool, 4>> cases = {{true, true, true, true},  {false, true, true, true},
                                                    {true, false, true, true}, {true, true, false, true},
                                                    {true, true, true, false}, {false, false, false, false}};
    for (const auto& on : cases) {
        SCOPED_TRACE(std::string("query/key/value/output bias: ") + (on[0] ? "1" : "0") +
                     (on[1] ? "1" : "0") + (on[2] ? "1" : "0") + (on[3] ? "1" : "0"));
        auto cfg = nn::MultiHeadAttentionConfig{kModel, kHeads}
                       .with_dropout(0.0)
                       .with_enable_query_bias(on[0])
                       .with_enable_key_bias(on[1])
                       .with_enable_value_bias(on[2])
                       .with_enable_output_bias(on[3]);
        auto mha = cfg.init(dev);
        EXPECT_EQ(mha.query.bias.has_value(), on[0]);
        EXPECT_EQ(mha.key.bias.has_value(), on[1]);
        EXPECT_EQ(mha.value.bias.has_value(), on[2]);
        EXPECT_EQ(mha.output.bias.has_value(), on[3]);
        const std::size_t off = 4 - static_cast<std::size_t>(on[0] + on[1] + on[2] + on[3]);
        EXPECT_EQ(mha.num_params(), full - off * kModel);
        std::vector<std::string> paths;
        mha.visit_params([&](const std::string& p, const auto&) { paths.push_back(p); });
        EXPECT_EQ(paths.size(), 8 - off);
        for (const auto& [name, has] : {std::pair{"query.bias", on[0]}, std::pair{"key.bias", on[1]},
                                        std::pair{"value.bias", on[2]}, std::pair{"output.bias", on[3]}})
            EXPECT_EQ(std::count(paths.begin(), paths.end(), name) == 1, has) << name;

        auto out = mha.forward(nn::MhaInput{tensor(xq, kSeqQ), tensor(xk, kSeqK), tensor(xv, kSeqK)});
        EXPECT_EQ(out.context.dims(), (Shape<3>{kBatch, kSeqQ, kModel}));
        const Reference want = reference(mha, xq, xk, xv);
        expect_near(out.context.cast(DType::f64).to_vec<double>(), want.context, "context");
        expect_near(out.weights.cast(DType::f64).to_vec<double>(), want.weights, "weights");
        // The fused path (no weights) gives the same context.
        auto fused = mha.forward(
            nn::MhaInput{tensor(xq, kSeqQ), tensor(xk, kSeqK), tensor(xv, kSeqK)}.without_weights());
        expect_near(fused.context.cast(DType::f64).to_vec<double>(), want.context, "fused context");
    }
}

TEST(NnMhaBiasFlags, BiasFreeProjectionsTrainAndTheFlagsRoundTrip) {
    // Gradients reach every parameter that exists; the missing biases are simply absent.
    const Device dev = Device::cpu().autodiff();
    auto mha = nn::MultiHeadAttentionConfig{kModel, kHeads}
                   .with_dropout(0.0)
                   .with_enable_value_bias(false)
                   .with_enable_output_bias(false)
                   .init(dev);
    auto x = Tensor<3>::from_data(
                 TensorData(ramp(kBatch * kSeqQ * kModel, 0.3, 0.2), Dims{kBatch, kSeqQ, kModel}), dev)
                 .cast(DType::f32);
    auto grads = mha.forward(nn::MhaInput::self_attn(x)).context.square().sum().backward();
    int with_grad = 0;
    mha.visit_params([&](const std::string& p, const auto& param) {
        auto g = param.val().grad(grads);
        EXPECT_TRUE(g.has_value()) << p;
        with_grad += g.has_value();
    });
    EXPECT_EQ(with_grad, 6);
    auto cfg = nn::MultiHeadAttentionConfig{kModel, kHeads}.with_enable_key_bias(false);
    auto back = nn::MultiHeadAttentionConfig::from_json_string(cfg.to_json_string());
    EXPECT_FALSE(back.enable_key_bias);
    EXPECT_TRUE(back.enable_query_bias);
    EXPECT_FALSE(back.init(Device::cpu()).key.bias.has_value());
}

}  // namespace attention_bias_test
