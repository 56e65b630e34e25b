#pragma once
/// One gate of a recurrent cell as two Linears (burn's GateController): gate_product(x, h) =
/// input_transform(x) + hidden_transform(h), i.e. x W_i^T + b_i + h W_h^T + b_h. burn's LSTM and GRU
/// keep one per gate; this project's Lstm/Gru fuse the gates PyTorch-style (nn/rnn.hpp), and the store
/// adapters split fused files into `{input,forget,cell,output}_gate.{input,hidden}_transform` for
/// modules built from GateControllers (store/adapter.hpp), so both layouts load the same weights.
///
///     auto gate = nn::GateControllerConfig{d_input, d_hidden}.init(device);
///     auto i = activation::sigmoid(gate.gate_product(x, h));  // [batch, d_hidden]
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/linear.hpp"

namespace burn::nn {

struct GateController {
    Linear input_transform;   // [d_output, d_input]
    Linear hidden_transform;  // [d_output, d_output]

    /// x [..., d_input], h [..., d_output] -> [..., d_output].
    template <std::size_t D>
    Tensor<D> gate_product(const Tensor<D>& input, const Tensor<D>& hidden) const {
        return input_transform.forward(input) + hidden_transform.forward(hidden);
    }

    BURN_MODULE(GateController, input_transform, hidden_transform)
};

struct GateControllerConfig {
    std::size_t d_input = 0;
    std::size_t d_output = 0;
    bool bias = true;
    Initializer initializer = default_layer_initializer();
    GateController init(const Device& device = Device()) const {
        return GateController{LinearConfig{d_input, d_output, bias, initializer}.init(device),
                              LinearConfig{d_output, d_output, bias, initializer}.init(device)};
    }
    BURN_CONFIG(GateControllerConfig, d_input, d_output, bias, initializer)
};

}  // namespace burn::nn
