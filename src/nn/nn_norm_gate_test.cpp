// Normalization (the norm picked by configuration) against float64 loops for its Layer, Rms and Group
// alternatives, its JSON and paths; GateController's gate_product against x W_i^T + b_i + h W_h^T + b_h.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <vector>

#include "reference.hpp"

using namespace burn;

namespace nn_norm_gate_test {

/// Rows of `width` values, each normalised over itself (LayerNorm
/// with centre = true, RmsNorm with centre = false), unit gamma, zero beta.
std::vector<double> normalise_rows(const std::vector<float>& x, std::size_t width, bool centre, double eps) {
    std::vector<double> out(x.size());
    for (std::size_t r = 0; r < x.size() / width; ++r) {
        double mean = 0, sq = 0;
        for (std::size_t i = 0; i < width; ++i) mean += x[r * width + i];
        mean = centre ? mean / double(width) : 0.0;
        for (std::size_t i = 0; i < width; ++i) sq += (x[r * width + i] - mean) * (x[r * width + i] - mean);
        const double inv = 1.0 / std::sqrt(sq / double(width) + eps);
        for (std::size_t i = 0; i < width; ++i) out[r * width + i] = (x[r * width + i] - mean) * inv;
    }
    return out;
}

void expect_near(const std::vector<float>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4) << i;
}

struct Block {
    nn::Normalization norm;
    BURN_MODULE(Block, norm)
};

TEST(NnNormalization, LayerRmsAndGroupMatchLoops) {
    const auto xv = ref::lcg_values(2 * 4 * 6, 3, -2.f, 2.f);
    const auto x = Tensor<3>::from_data(TensorData(xv, {2, 4, 6}));
    auto layer = nn::NormalizationConfig{nn::LayerNormConfig{}}.with_num_features(6);
    EXPECT_EQ(layer.num_features(), 6u);
    const auto ln = layer.init();
    EXPECT_EQ(ln.name(), "Layer");
    expect_near(ln.forward(x).to_data().to_vec<float>(), normalise_rows(xv, 6, true, 1e-5));
    const auto rms = nn::NormalizationConfig{nn::RmsNormConfig{}}.with_num_features(6).init();
    expect_near(rms.forward(x).to_data().to_vec<float>(), normalise_rows(xv, 6, false, 1e-5));
    // GroupNorm, 2 groups of 2 channels over [2, 4, 6]: each group's 12 values are one row.
    nn::GroupNormConfig g;
    g.num_groups = 2;
    const auto gn = nn::NormalizationConfig{g}.with_num_features(4).init();
    EXPECT_EQ(gn.num_features(), 4u);
    expect_near(gn.forward(x).to_data().to_vec<float>(), normalise_rows(xv, 12, true, 1e-5));
    // Batch: num_features from its running statistics; the forward is BatchNorm's own.
    const auto bn = nn::NormalizationConfig{nn::BatchNormConfig{}}.with_num_features(4).init();
    EXPECT_EQ(bn.num_features(), 4u);
    EXPECT_EQ(bn.forward(x).dims(), (Shape<3>{2, 4, 6}));
}

TEST(NnNormalization, ConfigJsonAndParamPaths) {
    const auto cfg = nn::NormalizationConfig{nn::RmsNormConfig{}}.with_num_features(5);
    const std::string json = cfg.to_json_string();
    EXPECT_NE(json.find("\"Rms\""), std::string::npos) << json;
    const auto back = nn::NormalizationConfig::from_json_string(json);
    EXPECT_EQ(back.num_features(), 5u);
    Block b{nn::NormalizationConfig{nn::LayerNormConfig{}}.with_num_features(3).init()};
    std::vector<std::string> paths;
    b.visit_params([&](const std::string& p, const auto&) { paths.push_back(p); });
    EXPECT_EQ(paths, (std::vector<std::string>{"norm.norm.gamma", "norm.norm.beta"}));
}

TEST(NnGateController, GateProductIsBothLinearsSummed) {
    const auto gate = nn::GateControllerConfig{3, 2}.init();
    EXPECT_EQ(gate.num_params(), (3 * 2 + 2) + (2 * 2 + 2));
    const auto xv = ref::lcg_values(4 * 3, 5, -2.f, 2.f), hv = ref::lcg_values(4 * 2, 6, -2.f, 2.f);
    const auto x = Tensor<2>::from_data(TensorData(xv, {4, 3}));
    const auto h = Tensor<2>::from_data(TensorData(hv, {4, 2}));
    const auto wi = gate.input_transform.weight.val().to_data().to_vec<float>();
    const auto bi = gate.input_transform.bias->val().to_data().to_vec<float>();
    const auto wh = gate.hidden_transform.weight.val().to_data().to_vec<float>();
    const auto bh = gate.hidden_transform.bias->val().to_data().to_vec<float>();
    std::vector<double> want;
    for (int r = 0; r < 4; ++r)
        for (int o = 0; o < 2; ++o) {
            double s = double(bi[o]) + bh[o];
            for (int i = 0; i < 3; ++i) s += double(xv[r * 3 + i]) * wi[o * 3 + i];
            for (int i = 0; i < 2; ++i) s += double(hv[r * 2 + i]) * wh[o * 2 + i];
            want.push_back(s);
        }
    expect_near(gate.gate_product(x, h).to_data().to_vec<float>(), want);
    EXPECT_FALSE((nn::GateControllerConfig{3, 2, false}.init().input_transform.bias.has_value()));
}

}  // namespace nn_norm_gate_test
