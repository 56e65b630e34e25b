#pragma once
// The models the ONNX export suites trace (export_test.cpp against burn's importer,
// export_ort_test.cpp against onnxruntime): the MNIST MLP and convnet of examples/mnist, a transformer
// encoder block (attention, layer norm, gelu feed-forward) and a convnet with batch norm, group norm and
// every pool.
#include <burn/burn.hpp>
#include <burn/nn/conv.hpp>
#include <burn/nn/group_norm.hpp>
#include <burn/nn/norm.hpp>
#include <burn/nn/pool.hpp>
#include <burn/nn/transformer.hpp>

#include "../../../examples/mnist/model.hpp"

namespace export_test_models {

using namespace burn;

inline mnist::Mlp make_mlp(const Device& d) {
    mnist::MnistConfig c;
    c.hidden = 64;
    return mnist::Mlp(c, d);
}

inline mnist::Cnn make_cnn(const Device& d) {
    return mnist::Cnn(mnist::MnistConfig{}, d);
}

/// A two-layer transformer encoder over [batch, seq, 32] (4 heads, d_ff 64, gelu).
struct Encoder {
    nn::TransformerEncoder enc;
    Tensor<3> forward(const Tensor<3>& x) const { return enc.forward(nn::TransformerEncoderInput{x}); }
    BURN_MODULE(Encoder, enc)
};
inline Encoder make_encoder(const Device& d) {
    nn::TransformerEncoderConfig c;
    c.d_model = 32;
    c.d_ff = 64;
    c.n_heads = 4;
    c.n_layers = 2;
    return Encoder{c.init(d)};
}

/// conv -> batch norm -> relu -> avg pool (padded) -> conv -> group norm -> max pool 3/2 (ceil mode)
/// -> adaptive avg pool 2x2 -> linear; input [batch, 3, 17, 17].
struct PoolNet {
    nn::Conv2d conv1, conv2;
    nn::BatchNorm bn;
    nn::GroupNorm gn;
    nn::AvgPool2d avg;
    nn::MaxPool2d max;
    nn::AdaptiveAvgPool2d adaptive;
    nn::Linear fc;
    Tensor<2> forward(const Tensor<4>& x) const {
        auto h = avg.forward(activation::relu(bn.forward(conv1.forward(x))));
        h = adaptive.forward(max.forward(gn.forward(conv2.forward(h))));
        return fc.forward(h.flatten<2>(1, 3));
    }
    BURN_MODULE(PoolNet, conv1, conv2, bn, gn, avg, max, adaptive, fc)
};
inline PoolNet make_poolnet(const Device& d) {
    nn::MaxPool2dConfig max{{3, 3}, {2, 2}};
    max.ceil_mode = true;  // 8 -> 4 (3 in floor mode)
    PoolNet m{nn::Conv2dConfig{{3, 8}, {3, 3}}.init(d),
              nn::Conv2dConfig{{8, 12}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(d),
              nn::BatchNormConfig{8}.init(d),
              nn::GroupNormConfig{3, 12}.init(d),
              nn::AvgPool2dConfig{{3, 3}, {2, 2}, nn::Explicit2d{1, 1}}.init(),
              max.init(),
              nn::AdaptiveAvgPool2dConfig{{2, 2}}.init(),
              nn::LinearConfig{48, 5}.init(d)};
    // running statistics that are not the initial 0 and 1, so inference normalisation is exercised
    m.bn.running_mean.set(Tensor<1>::random({8}, Distribution::Uniform(-0.5, 0.5), d));
    m.bn.running_var.set(Tensor<1>::random({8}, Distribution::Uniform(0.5, 2.0), d));
    return m;
}

}  // namespace export_test_models
