// Lstm, BiLstm and Gru against torch.nn.LSTM / GRU (same weights), gradients against torch autograd.
#include <cmath>

#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

TEST(NnLstm, ForwardAndGradientsMatchPyTorch) {
    auto f = nn_test::load_fixture("lstm");
    auto dev = Device().autodiff();
    auto lstm = nn::LstmConfig{f.cfg_size("d_input"), f.cfg_size("d_hidden")}.init(dev);
    EXPECT_EQ(nn_test::load_params(lstm, f, dev), 4u);
    auto x = f.floats<3>("x", dev).require_grad();
    auto h0 = f.floats<2>("h0", dev).require_grad();
    auto c0 = f.floats<2>("c0", dev).require_grad();
    auto [y, state] = lstm.forward(x, nn::LstmState<2>{c0, h0});
    EXPECT_TRUE(close(y, f.at("y")));
    EXPECT_TRUE(close(state.hidden, f.at("hn")));
    EXPECT_TRUE(close(state.cell, f.at("cn")));
    auto r = f.floats<3>("r", dev);
    auto r0 = r.narrow(1, 0, 1).squeeze_dim(1), r1 = r.narrow(1, 1, 1).squeeze_dim(1);
    auto loss = (y * r).sum() + (state.hidden * r0).sum() + (state.cell * r1).sum();
    auto grads = loss.backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*h0.grad(grads), f.at("grad.h0"), 1e-5, 1e-4));
    EXPECT_TRUE(close(*c0.grad(grads), f.at("grad.c0"), 1e-5, 1e-4));
    nn_test::expect_param_grads(lstm, f, grads);
}

TEST(NnLstm, SequenceFirstLayoutAndDefaultState) {
    auto f = nn_test::load_fixture("lstm");
    auto lstm = nn::LstmConfig{5, 4}.init();
    nn_test::load_params(lstm, f);
    auto x = f.floats<3>("x");
    auto [y_bf, s_bf] = lstm.forward(x);
    lstm.batch_first = false;
    auto [y_sf, s_sf] = lstm.forward(x.swap_dims(0, 1));
    EXPECT_EQ(y_sf.dims(), (Shape<3>{6, 2, 4}));
    EXPECT_TRUE(close(y_sf.swap_dims(0, 1), y_bf.into_data()));
    EXPECT_TRUE(close(s_sf.hidden, s_bf.hidden.into_data()));
}

TEST(NnLstm, ParamCountAndErrors) {
    auto lstm = nn::LstmConfig{5, 4}.init();
    EXPECT_EQ(lstm.num_params(), 4u * 4 * (5 + 4) + 2 * 16);  // PyTorch's count
    EXPECT_EQ((nn::LstmConfig{5, 4}.with_bias(false).init().num_params()), 4u * 4 * 9);
    try {
        lstm.forward(Tensor<3>::zeros({2, 3, 6}));
        FAIL() << "expected a shape error";
    } catch (const ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("[Lstm]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("[2, 3, 6]"), std::string::npos) << e.what();
    }
    auto bad_state = nn::LstmState<2>{Tensor<2>::zeros({3, 4}), Tensor<2>::zeros({3, 4})};
    EXPECT_THROW(lstm.forward(Tensor<3>::zeros({2, 3, 5}), bad_state), ShapeError);
    EXPECT_THROW((nn::LstmConfig{0, 4}.init()), Error);
}

TEST(NnBiLstm, MatchesPyTorchBidirectional) {
    auto f = nn_test::load_fixture("bilstm");
    auto dev = Device().autodiff();
    auto bi = nn::BiLstmConfig{f.cfg_size("d_input"), f.cfg_size("d_hidden")}.init(dev);
    EXPECT_EQ(nn_test::load_params(bi, f, dev), 8u);
    auto x = f.floats<3>("x", dev).require_grad();
    auto [y, state] = bi.forward(x);
    EXPECT_TRUE(close(y, f.at("y")));
    EXPECT_TRUE(close(state.hidden, f.at("hn")));
    EXPECT_TRUE(close(state.cell, f.at("cn")));
    auto grads = (y * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x"), 1e-5, 1e-4));
    nn_test::expect_param_grads(bi, f, grads);
    // The final state fed back in: [2, batch, H].
    auto [y2, s2] = bi.forward(x, state);
    EXPECT_EQ(y2.dims(), (Shape<3>{2, 6, 8}));
    EXPECT_THROW(
        bi.forward(x, nn::LstmState<3>{Tensor<3>::zeros({1, 2, 4}, dev), Tensor<3>::zeros({1, 2, 4}, dev)}),
        ShapeError);
}

TEST(NnGru, ForwardAndGradientsMatchPyTorch) {
    auto f = nn_test::load_fixture("gru");
    auto dev = Device().autodiff();
    auto gru = nn::GruConfig{f.cfg_size("d_input"), f.cfg_size("d_hidden")}.init(dev);
    EXPECT_EQ(nn_test::load_params(gru, f, dev), 4u);
    auto x = f.floats<3>("x", dev).require_grad();
    auto y = gru.forward(x, f.floats<2>("h0", dev));
    EXPECT_TRUE(close(y, f.at("y")));
    auto grads = (y * f.floats<3>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x"), 1e-5, 1e-4));
    nn_test::expect_param_grads(gru, f, grads);
}

TEST(NnGru, ResetBeforeProjectionVariant) {
    // reset_after = false: n = tanh(W_in x + b_in + W_hn (r * h) + b_hn), checked by hand for one step.
    auto gru = nn::GruConfig{1, 1}.with_reset_after(false).init();
    auto set = [](auto& p, std::vector<float> v) { p.set(Tensor<2>::from_data(TensorData(v, Dims{3, 1}))); };
    set(gru.weight_ih, {0.5f, -0.25f, 1.0f});
    set(gru.weight_hh, {0.3f, 0.2f, -0.7f});
    gru.bias_ih->set(Tensor<1>::from_floats({0.1, 0.2, 0.3}));
    gru.bias_hh->set(Tensor<1>::from_floats({-0.1, 0.05, 0.4}));
    const double x = 0.8, h = -0.6;
    auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
    double r = sig(0.5 * x + 0.1 + 0.3 * h - 0.1), z = sig(-0.25 * x + 0.2 + 0.2 * h + 0.05);
    double n = std::tanh(1.0 * x + 0.3 + -0.7 * (r * h) + 0.4);
    double expect = (1 - z) * n + z * h;
    auto y = gru.forward(Tensor<3>::from_floats({{{x}}}), Tensor<2>::from_floats({{h}}));
    EXPECT_NEAR(y.into_scalar(), expect, 1e-6);
}

}  // namespace
