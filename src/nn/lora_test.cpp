// LoRA adapters (nn/lora.hpp): the layer's output against x W^T + b + (alpha / r) x A^T B^T in float64,
// which Linears get one (by path), the frozen base and trainable adapters, save/load paths, and
// merge/unmerge (the same outputs with the update in the weight, and the weight back).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <burn/nn/lora.hpp>
#include <cmath>
#include <vector>

#include "reference.hpp"

using namespace burn;

namespace lora_test {

struct Net {
    nn::Linear fc;
    nn::Linear head;
    BURN_MODULE(Net, fc, head)
};

std::vector<double> f64(const Tensor<2>& t) {
    std::vector<double> out;
    for (float x : t.to_data().to_vec<float>()) out.push_back(x);
    return out;
}

void expect_near(const Tensor<2>& got, const std::vector<double>& want, double tol = 1e-5) {
    const auto g = got.to_data().to_vec<float>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << i;
}

TEST(Lora, ForwardMatchesTheLowRankFormulaInFloat64) {
    const int N = 3, IN = 5, OUT = 4, R = 2;
    const double alpha = 6.0;
    auto ad = Device().autodiff();
    Net net{nn::LinearConfig{IN, OUT}.init(ad), nn::LinearConfig{OUT, 2}.init(ad)};
    const auto x = Tensor<2>::from_data(TensorData(ref::lcg_values(N * IN, 1), {N, IN}), ad);
    const auto base = net.fc.forward(x).to_data();
    net = nn::apply_lora(net, nn::LoraConfig{R, alpha}, [](const std::string& p) { return p == "fc"; });
    ASSERT_TRUE(net.fc.lora.has_value());
    EXPECT_FALSE(net.head.lora.has_value());
    EXPECT_EQ(net.fc.forward(x).to_data(), base);  // B starts at zero: nothing changes
    net.fc.lora->lora_b.set(Tensor<2>::from_data(TensorData(ref::lcg_values(OUT * R, 2), {OUT, R}), ad));

    const auto xv = ref::lcg_values(N * IN, 1);
    const auto w = f64(net.fc.weight.val()), a = f64(net.fc.lora->lora_a.val());
    const auto b = f64(net.fc.lora->lora_b.val());
    std::vector<double> bias;
    for (float v : net.fc.bias->val().to_data().to_vec<float>()) bias.push_back(v);
    std::vector<double> want;
    for (int n = 0; n < N; ++n)
        for (int o = 0; o < OUT; ++o) {
            double y = bias[o];
            for (int i = 0; i < IN; ++i) y += xv[n * IN + i] * w[o * IN + i];
            for (int r = 0; r < R; ++r) {
                double xa = 0;
                for (int i = 0; i < IN; ++i) xa += xv[n * IN + i] * a[r * IN + i];
                y += alpha / R * xa * b[o * R + r];
            }
            want.push_back(y);
        }
    const auto y = net.fc.forward(x);
    expect_near(y, want);

    // Only the adapters train: the base is frozen.
    auto grads = y.sum().backward();
    EXPECT_FALSE(net.fc.weight.val().grad(grads).has_value());
    EXPECT_TRUE(net.fc.lora->lora_a.val().grad(grads).has_value());
    EXPECT_TRUE(net.fc.lora->lora_b.val().grad(grads).has_value());
    EXPECT_EQ(net.num_params(),
              static_cast<std::size_t>((IN * OUT + OUT) + (R * IN + OUT * R) + (OUT * 2 + 2)));

    // Merge: the same outputs from the weight alone; unmerge: the original weight back.
    Net merged = nn::merge_lora(net);
    EXPECT_TRUE(merged.fc.lora->merged);
    expect_near(merged.fc.forward(x), want);
    Net back = nn::unmerge_lora(merged);
    expect_near(back.fc.weight.val(), w, 1e-6);
    expect_near(back.fc.forward(x), want);
}

TEST(Lora, AdaptersSaveAndLoadUnderTheirPaths) {
    Net net = nn::apply_lora(Net{nn::LinearConfig{3, 3}.init(), nn::LinearConfig{3, 2}.init()},
                             nn::LoraConfig{1, 1.0});
    std::vector<std::string> paths;
    net.visit_params([&](const std::string& p, const auto&) { paths.push_back(p); });
    EXPECT_EQ(paths,
              (std::vector<std::string>{"fc.weight", "fc.bias", "fc.lora.lora_a", "fc.lora.lora_b",
                                        "head.weight", "head.bias", "head.lora.lora_a", "head.lora.lora_b"}));
    auto mem = store::BurnpackStore::in_memory();
    net.save_into(mem);
    Net dst = nn::apply_lora(Net{nn::LinearConfig{3, 3}.init(), nn::LinearConfig{3, 2}.init()},
                             nn::LoraConfig{1, 1.0});
    auto in = store::BurnpackStore::from_bytes(mem.bytes());
    ASSERT_TRUE(dst.load_from(in).is_success());
    EXPECT_EQ(dst.head.lora->lora_a.val().to_data(), net.head.lora->lora_a.val().to_data());
    EXPECT_THROW(nn::apply_lora(net, nn::LoraConfig{0, 1.0}), Error);
}

}  // namespace lora_test
