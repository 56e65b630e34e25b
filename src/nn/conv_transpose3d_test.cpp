// nn::ConvTranspose3d against torch.nn.ConvTranspose3d (tests/fixtures/nn_layers/conv_transpose3d*.json,
// written by scripts/gen_conv3d_fixtures.py): forward, input and parameter gradients, stride, padding,
// output padding, dilation, groups, with and without bias; config validation.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;

namespace {

std::array<std::size_t, 3> triple(const config::Value& v) {
    const auto& a = v.as_array();
    return {static_cast<std::size_t>(a.at(0).as_uint64()), static_cast<std::size_t>(a.at(1).as_uint64()),
            static_cast<std::size_t>(a.at(2).as_uint64())};
}

void check(const std::string& name) {
    SCOPED_TRACE(name);
    auto f = nn_test::load_fixture(name);
    const auto& c = f.config;
    const auto& ch = c.at("channels").as_array();
    auto dev = Device().autodiff();
    auto conv = nn::ConvTranspose3dConfig{{static_cast<std::size_t>(ch.at(0).as_uint64()),
                                           static_cast<std::size_t>(ch.at(1).as_uint64())},
                                          triple(c.at("kernel_size"))}
                    .with_stride(triple(c.at("stride")))
                    .with_padding(triple(c.at("padding")))
                    .with_padding_out(triple(c.at("padding_out")))
                    .with_dilation(triple(c.at("dilation")))
                    .with_groups(f.cfg_size("groups"))
                    .with_bias(c.at("bias").as_bool())
                    .init(dev);
    EXPECT_EQ(nn_test::load_params(conv, f, dev), c.at("bias").as_bool() ? 2u : 1u);
    auto x = f.floats<5>("x", dev).require_grad();
    auto y = conv.forward(x);
    EXPECT_TRUE(close(y, f.at("y")));
    auto grads = (y * f.floats<5>("r", dev)).sum().backward();
    EXPECT_TRUE(close(*x.grad(grads), f.at("grad.x")));
    nn_test::expect_param_grads(conv, f, grads);
}

TEST(NnConvTranspose3d, MatchesPyTorch) {
    check("conv_transpose3d");
    check("conv_transpose3d_groups");
}

TEST(NnConvTranspose3d, ConfigAndInputErrors) {
    auto conv = nn::ConvTranspose3dConfig{{2, 4}, {2, 2, 2}}.init();
    EXPECT_EQ(conv.weight.val().dims(), (Shape<5>{2, 4, 2, 2, 2}));
    EXPECT_EQ(conv.num_params(), 2u * 4 * 8 + 4);
    EXPECT_EQ(conv.forward(Tensor<5>::zeros({1, 2, 3, 3, 3})).dims(), (Shape<5>{1, 4, 4, 4, 4}));
    EXPECT_THROW(nn::ConvTranspose3dConfig({{2, 4}, {0, 2, 2}}).init(), Error);
    EXPECT_THROW(nn::ConvTranspose3dConfig({{3, 4}, {2, 2, 2}}).with_groups(2).init(), Error);
    EXPECT_THROW(nn::ConvTranspose3dConfig({{2, 4}, {2, 2, 2}}).with_padding_out({1, 0, 0}).init(), Error);
    try {
        conv.forward(Tensor<5>::zeros({1, 3, 3, 3, 3}));
        ADD_FAILURE() << "wrong channel count accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("ConvTranspose3d"), std::string::npos) << e.what();
    }
    // JSON round trip of the config.
    auto cfg = nn::ConvTranspose3dConfig{{2, 4}, {3, 1, 2}}.with_stride({2, 1, 1});
    auto back = nn::ConvTranspose3dConfig::from_json(cfg.to_json());
    EXPECT_EQ(back.kernel_size, cfg.kernel_size);
    EXPECT_EQ(back.stride, cfg.stride);
}

}  // namespace
