#pragma once
// The MNIST convnet of examples/mnist (model.hpp's Cnn), inference only, on the portable core: shared by
// mnist_forward.cpp (checked against a float64 reference) and mnist_infer.cpp (timed; docs/wasm.md).
#include <burn/nn/activation.hpp>
#include <burn/nn/conv.hpp>
#include <burn/nn/linear.hpp>
#include <burn/nn/pool.hpp>
#include <burn/tensor/tensor.hpp>

namespace burn {

struct Cnn {
    nn::Conv2d conv1 =
        nn::Conv2dConfig{{1, 32}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(Device::cpu());
    nn::Conv2d conv2 =
        nn::Conv2dConfig{{32, 64}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(Device::cpu());
    nn::MaxPool2d pool = nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init();
    nn::Linear fc1 = nn::LinearConfig{3136, 128}.init(Device::cpu());
    nn::Linear fc2 = nn::LinearConfig{128, 10}.init(Device::cpu());
    nn::Relu relu;

    Tensor<2> forward(const Tensor<3>& images) const {
        auto x = images.reshape<4>({-1, 1, 28, 28});
        x = pool.forward(relu.forward(conv1.forward(x)));
        x = pool.forward(relu.forward(conv2.forward(x)));
        return fc2.forward(relu.forward(fc1.forward(x.flatten<2>(1, 3))));
    }
};

}  // namespace burn
