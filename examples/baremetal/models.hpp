#pragma once
// The two MNIST models of the bare-metal example (docs/embedded.md), shared by the trainer
// (train.cpp, on the host), the native predictions (classify.cpp built for the host) and the firmware
// (classify.cpp built for Cortex-M4 and Cortex-M55):
//   Mlp      784 -> 64 -> ReLU -> 10                                  (50,890 parameters, 199 KiB)
//   ConvNet  conv 1->8 3x3 pad 1, ReLU, maxpool 2 -> conv 8->16 3x3 pad 1, ReLU, maxpool 2 -> 784 -> 10
//                                                                     (9,098 parameters, 36 KiB)
// Input: digits as [batch, 28, 28] floats in [0, 1] (the grey level / 255). Built two ways: from
// configs (fresh weights, for training) or over the tensors of a Burnpack in memory (from_pack: views
// of flash, nothing copied).
#include <burn/embed/burnpack_view.hpp>
#include <burn/nn/activation.hpp>
#include <burn/nn/conv.hpp>
#include <burn/nn/linear.hpp>
#include <burn/nn/pool.hpp>
#include <burn/tensor/tensor.hpp>
#include <string>

namespace bm {

using namespace burn;

/// A Linear layer over the pack's `prefix.weight` [out, in] and `prefix.bias` [out].
inline nn::Linear linear_from(const embed::BurnpackView& pack, const std::string& prefix, int64_t in,
                              int64_t out) {
    nn::Linear l;
    l.weight = Param<Tensor<2>>(pack.get<2>(prefix + ".weight", {out, in}), ParamId(), false);
    l.bias = Param<Tensor<1>>(pack.get<1>(prefix + ".bias", {out}), ParamId(), false);
    return l;
}

/// A 3x3 convolution with padding 1 over the pack's `prefix.weight` [out, in, 3, 3] and `prefix.bias`.
inline nn::Conv2d conv3x3_from(const embed::BurnpackView& pack, const std::string& prefix, int64_t in,
                               int64_t out) {
    nn::Conv2d c;
    c.weight = Param<Tensor<4>>(pack.get<4>(prefix + ".weight", {out, in, 3, 3}), ParamId(), false);
    c.bias = Param<Tensor<1>>(pack.get<1>(prefix + ".bias", {out}), ParamId(), false);
    c.kernel_size = {3, 3};
    c.padding = nn::Explicit2d{1, 1};
    return c;
}

inline nn::Conv2d conv3x3(std::size_t in, std::size_t out, const Device& device) {
    return nn::Conv2dConfig{{in, out}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device);
}

struct Mlp {
    nn::Linear fc1, fc2;
    nn::Relu relu;

    static Mlp init(const Device& device) {
        return {nn::LinearConfig{784, 64}.init(device), nn::LinearConfig{64, 10}.init(device), {}};
    }
    static Mlp from_pack(const embed::BurnpackView& pack) {
        return {linear_from(pack, "mlp.fc1", 784, 64), linear_from(pack, "mlp.fc2", 64, 10), {}};
    }
    /// [batch, 28, 28] -> logits [batch, 10]
    Tensor<2> forward(const Tensor<3>& images) const {
        auto x = images.reshape<2>({-1, 784});
        return fc2.forward(relu.forward(fc1.forward(x)));
    }
    BURN_MODULE(Mlp, fc1, fc2)
};

struct ConvNet {
    nn::Conv2d conv1, conv2;
    nn::Linear fc;
    nn::MaxPool2d pool = nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init();
    nn::Relu relu;

    static ConvNet init(const Device& device) {
        return {conv3x3(1, 8, device),
                conv3x3(8, 16, device),
                nn::LinearConfig{784, 10}.init(device),
                nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init(),
                {}};
    }
    static ConvNet from_pack(const embed::BurnpackView& pack) {
        return {conv3x3_from(pack, "cnn.conv1", 1, 8),
                conv3x3_from(pack, "cnn.conv2", 8, 16),
                linear_from(pack, "cnn.fc", 784, 10),
                nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init(),
                {}};
    }
    /// [batch, 28, 28] -> logits [batch, 10]
    Tensor<2> forward(const Tensor<3>& images) const {
        auto x = images.reshape<4>({-1, 1, 28, 28});
        x = pool.forward(relu.forward(conv1.forward(x)));  // [b, 8, 14, 14]
        x = pool.forward(relu.forward(conv2.forward(x)));  // [b, 16, 7, 7]
        return fc.forward(x.flatten<2>(1, 3));
    }
    BURN_MODULE(ConvNet, conv1, conv2, fc)
};

/// Both, saved as one Burnpack: mlp.fc1.weight, ..., cnn.conv1.weight, ...
struct Models {
    Mlp mlp;
    ConvNet cnn;
    BURN_MODULE(Models, mlp, cnn)
};

}  // namespace bm
