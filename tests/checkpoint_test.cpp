// Gradient checkpointing: identical gradients, fewer live graph nodes after the forward pass.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

using namespace burn;

namespace {
std::vector<TensorAny> block(const std::vector<TensorAny>& in) {
    TensorAny h = in[0];
    for (int i = 0; i < 20; ++i) h = ops::tanh(ops::add(ops::mul(h, in[1]), in[1]));
    return {h};
}
}  // namespace

TEST(Checkpoint, SameGradientsLessGraph) {
    auto ad = Device().autodiff();
    auto x = Tensor<2>::random({8, 8}, Distribution::Normal(0, 1), ad).require_grad();
    auto w = Tensor<2>::random({8, 8}, Distribution::Normal(0, 0.5), ad).require_grad();

    int64_t before = autodiff::live_nodes();
    auto plain = Tensor<2>(block({x.handle(), w.handle()})[0]);
    int64_t plain_nodes = autodiff::live_nodes() - before;
    auto g1 = (plain * plain).sum().backward();

    before = autodiff::live_nodes();
    auto ck = Tensor<2>(autodiff::checkpoint("block", block, {x.handle(), w.handle()})[0]);
    int64_t ck_nodes = autodiff::live_nodes() - before;
    auto g2 = (ck * ck).sum().backward();

    EXPECT_EQ(ck.to_vec<float>(), plain.to_vec<float>());
    EXPECT_LT(ck_nodes, plain_nodes);  // one node instead of 60
    EXPECT_EQ(ck_nodes, 1);
    auto a = x.grad(g1).value().to_vec<float>(), b = x.grad(g2).value().to_vec<float>();
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6);
    auto aw = w.grad(g1).value().to_vec<float>(), bw = w.grad(g2).value().to_vec<float>();
    for (std::size_t i = 0; i < aw.size(); ++i) EXPECT_NEAR(aw[i], bw[i], 1e-5);
}
