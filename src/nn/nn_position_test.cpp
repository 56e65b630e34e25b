// PositionalEncoding and RotaryEncoding against PyTorch-computed fixtures.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

TEST(NnPositionalEncoding, MatchesSinusoids) {
    auto f = nn_test::load_fixture("positional_encoding");
    auto pe = nn::PositionalEncodingConfig{f.cfg_size("d_model")}.with_max_sequence_size(16).init();
    EXPECT_EQ(pe.num_params(), 0u);
    EXPECT_TRUE(close(pe.forward(f.floats<3>("x")), f.at("y")));
}

TEST(NnPositionalEncoding, TableValuesAndErrors) {
    auto table = nn::generate_sinusoids(3, 4, 10000.0).to_vec<float>();
    // position 2, feature pair 1: angle 2 / 10000^(2/4) = 0.02
    EXPECT_NEAR(table[2 * 4 + 2], std::sin(0.02), 1e-7);
    EXPECT_NEAR(table[2 * 4 + 3], std::cos(0.02), 1e-7);
    EXPECT_THROW(nn::PositionalEncodingConfig{5}.init(), Error);  // odd d_model
    auto pe = nn::PositionalEncodingConfig{4}.with_max_sequence_size(3).init();
    EXPECT_THROW(pe.forward(Tensor<3>::zeros({1, 4, 4})), ShapeError);  // too long
    EXPECT_THROW(pe.forward(Tensor<3>::zeros({1, 2, 6})), ShapeError);  // wrong d_model
}

TEST(NnPositionalEncoding, WorksOnAutodiffDevice) {
    auto dev = Device().autodiff();
    auto pe = nn::PositionalEncodingConfig{4}.init(Device());  // table on the plain device
    auto x = Tensor<3>::zeros({1, 2, 4}, dev).require_grad();
    auto grads = pe.forward(x).sum().backward();
    EXPECT_TRUE(close(*x.grad(grads), TensorData(std::vector<float>(8, 1.0f), Dims{1, 2, 4})));
}

TEST(NnRotaryEncoding, MatchesInterleavedRope) {
    auto f = nn_test::load_fixture("rotary_encoding");
    auto rope = nn::RotaryEncodingConfig{f.cfg_size("max_sequence_length"), f.cfg_size("d_model")}.init();
    auto x = f.floats<4>("x");
    EXPECT_TRUE(close(rope.forward(x), f.at("y")));
    EXPECT_TRUE(close(rope.apply(x, 3), f.at("y_start3")));
    // A transposed view of the same values, and rank 3.
    Tensor<4> xt(ops::contiguous(x.swap_dims(0, 1).handle()));
    EXPECT_TRUE(close(rope.forward(xt.swap_dims(0, 1)), f.at("y")));
    auto x3 = x.reshape<3>({6, 5, 8});
    EXPECT_TRUE(close(rope.forward(x3).reshape<4>({2, 3, 5, 8}), f.at("y")));
}

TEST(NnRotaryEncoding, PreservesNormsAndChecksRange) {
    auto rope = nn::RotaryEncodingConfig{10, 6}.init();
    auto x = Tensor<2>::random({10, 6}, Distribution::Normal(0, 1));
    auto y = rope.forward(x);
    auto nx = x.square().sum_dim(1).to_vec<float>(), ny = y.square().sum_dim(1).to_vec<float>();
    for (std::size_t i = 0; i < nx.size(); ++i) EXPECT_NEAR(nx[i], ny[i], 1e-4f);
    EXPECT_THROW(rope.apply(x, 1), ShapeError);  // positions 1..10 exceed 10
    EXPECT_THROW(rope.forward(Tensor<2>::zeros({3, 4})), ShapeError);
    EXPECT_THROW((nn::RotaryEncodingConfig{10, 7}.init()), Error);
}

}  // namespace
