// Rnn (Elman, tanh and relu), BiRnn and BiGru against torch.nn.RNN / GRU (same weights; bidirectional
// with an initial state), outputs, h_n and gradients against torch autograd (fixtures made by
// gen_recurrent_more in scripts/gen_layer_fixtures.py).
#include "nn/layer_test_util.hpp"

namespace burn::nn_rnn_elman_test {

using nn_test::close;

void check_rnn(const std::string& name, nn::RnnNonlinearity act) {
    auto f = nn_test::load_fixture(name);
    auto dev = Device().autodiff();
    auto rnn = nn::RnnConfig{f.cfg_size("d_input"), f.cfg_size("d_hidden")}.with_nonlinearity(act).init(dev);
    EXPECT_EQ(nn_test::load_params(rnn, f, dev), 4u);
    auto x = f.floats<3>("x", dev).require_grad();
    auto h0 = f.floats<2>("h0", dev).require_grad();
    auto [y, hn] = rnn.forward(x, h0);
    EXPECT_TRUE(close(y, f.at("y")));
    EXPECT_TRUE(close(hn, f.at("hn")));
    auto r = f.floats<3>("r", dev);
    auto loss = (y * r).sum() + (hn * r.narrow(1, 0, 1).squeeze_dim(1)).sum();
    auto grads = loss.backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*h0.grad(grads), f.at("grad.h0"), 1e-5, 1e-4));
    nn_test::expect_param_grads(rnn, f, grads);
}

TEST(NnRnn, TanhMatchesPyTorch) {
    check_rnn("rnn_tanh", nn::RnnNonlinearity::tanh);
}

TEST(NnRnn, ReluMatchesPyTorch) {
    check_rnn("rnn_relu", nn::RnnNonlinearity::relu);
}

TEST(NnRnn, SequenceFirstLayoutParamCountAndErrors) {
    auto f = nn_test::load_fixture("rnn_tanh");
    auto rnn = nn::RnnConfig{5, 4}.init();
    nn_test::load_params(rnn, f);
    auto x = f.floats<3>("x");
    auto [y_bf, h_bf] = rnn.forward(x);
    rnn.batch_first = false;
    auto [y_sf, h_sf] = rnn.forward(x.swap_dims(0, 1));
    EXPECT_EQ(y_sf.dims(), (Shape<3>{6, 2, 4}));
    EXPECT_TRUE(close(y_sf.swap_dims(0, 1), y_bf.into_data()));
    EXPECT_TRUE(close(h_sf, h_bf.into_data()));
    EXPECT_EQ(rnn.num_params(), 4u * (5 + 4) + 2 * 4);  // PyTorch's count
    EXPECT_EQ((nn::RnnConfig{5, 4}.with_bias(false).init().num_params()), 4u * 9);
    nn_test::expect_error_mentions(
        [&] {
            (void)rnn.forward(Tensor<3>::zeros({3, 2, 6}));
        },
        {"[Rnn]", "[3, 2, 6]"});
    EXPECT_THROW(rnn.forward(Tensor<3>::zeros({6, 2, 5}), Tensor<2>::zeros({3, 4})), ShapeError);
    EXPECT_THROW((nn::RnnConfig{0, 4}.init()), Error);
    // No time step: empty output, the state passes through.
    auto [y0, h0] = nn::RnnConfig{5, 4}.init().forward(Tensor<3>::zeros({2, 0, 5}), Tensor<2>::ones({2, 4}));
    EXPECT_EQ(y0.dims(), (Shape<3>{2, 0, 4}));
    EXPECT_TRUE(close(h0, Tensor<2>::ones({2, 4}).into_data()));
}

template <class M>
void check_bidirectional(const std::string& name, const M& layer_in, std::size_t n_params) {
    auto f = nn_test::load_fixture(name);
    auto dev = Device().autodiff();
    M layer = layer_in;
    EXPECT_EQ(nn_test::load_params(layer, f, dev), n_params);
    auto x = f.floats<3>("x", dev).require_grad();
    auto h0 = f.floats<3>("h0", dev).require_grad();
    auto [y, hn] = layer.forward(x, h0);
    EXPECT_TRUE(close(y, f.at("y")));
    EXPECT_TRUE(close(hn, f.at("hn")));
    auto r = f.floats<3>("r", dev);
    const std::size_t h = hn.dims()[2];
    auto loss =
        (y * r).sum() + (hn * r.narrow(1, 0, 2).narrow(2, 0, static_cast<int64_t>(h)).swap_dims(0, 1)).sum();
    auto grads = loss.backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*h0.grad(grads), f.at("grad.h0"), 1e-5, 1e-4));
    nn_test::expect_param_grads(layer, f, grads);
    // Default state (zeros) and a bad one.
    auto [y_zero, hn_zero] = layer.forward(x);
    EXPECT_EQ(y_zero.dims(), (Shape<3>{2, 6, 2 * h}));
    EXPECT_EQ(hn_zero.dims(), (Shape<3>{2, 2, h}));
    EXPECT_THROW(layer.forward(x, Tensor<3>::zeros({1, 2, h}, dev)), ShapeError);
}

TEST(NnBiRnn, MatchesPyTorchBidirectional) {
    check_bidirectional("birnn", nn::BiRnnConfig{5, 4}.init(), 8u);
}

TEST(NnBiGru, MatchesPyTorchBidirectional) {
    check_bidirectional("bigru", nn::BiGruConfig{5, 4}.init(), 8u);
}

TEST(NnBiGru, SequenceFirstLayoutGivesTheSameStates) {
    auto f = nn_test::load_fixture("bigru");
    auto bi = nn::BiGruConfig{5, 4}.init();
    nn_test::load_params(bi, f);
    auto x = f.floats<3>("x");
    auto h0 = f.floats<3>("h0");
    auto [y_bf, hn_bf] = bi.forward(x, h0);
    bi.forward_gru.batch_first = bi.reverse_gru.batch_first = false;
    auto [y_sf, hn_sf] = bi.forward(x.swap_dims(0, 1), h0);
    EXPECT_TRUE(close(y_sf.swap_dims(0, 1), y_bf.into_data()));
    EXPECT_TRUE(close(hn_sf, f.at("hn")));
}

}  // namespace burn::nn_rnn_elman_test
