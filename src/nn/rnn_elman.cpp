// Rnn (Elman, tanh or relu) and BiRnn: torch.nn.RNN's recurrence with the shared helpers of rnn.cpp
// (one GEMM for the input projection of every step, one [batch, H] x [H, H] GEMM per step).
#include "burn/nn/rnn.hpp"
#include "rnn_util.hpp"

namespace burn::nn {

namespace {

std::pair<Tensor<3>, Tensor<2>> run_rnn(const Rnn& m, const Tensor<3>& input,
                                        const std::optional<Tensor<2>>& state, bool reverse) {
    using namespace ops;
    using namespace rnn_detail;
    const TensorAny& w_ih = m.weight_ih.val().handle();
    const auto hs = static_cast<int64_t>(m.d_hidden);
    TensorAny x = batch_major(input.handle(), m.batch_first, w_ih.shape()[1], "Rnn");
    const int64_t batch = x.shape()[0], steps = x.shape()[1];
    TensorAny h;
    if (state) {
        check_state(state->handle(), batch, hs, "Rnn", "hidden");
        h = state->handle();
    } else {
        h = full(Dims{batch, hs}, 0.0, x.dtype(), x.device());
    }
    TensorAny bias;
    if (m.bias_ih) bias = add(m.bias_ih->val().handle(), m.bias_hh->val().handle());
    std::vector<TensorAny> outputs(static_cast<std::size_t>(steps));
    if (steps > 0) {
        std::vector<TensorAny> xw =
            unbind(project(x, w_ih, bias.defined() ? &bias : nullptr), 1, steps, true);
        TensorAny w_hh_t = swap_dims(m.weight_hh.val().handle(), 0, 1);  // [H, H]
        for (int64_t s = 0; s < steps; ++s) {
            const auto t = static_cast<std::size_t>(reverse ? steps - 1 - s : s);
            TensorAny pre = add(xw[t], matmul(h, w_hh_t));
            h = m.nonlinearity == RnnNonlinearity::tanh ? tanh(std::move(pre)) : relu(std::move(pre));
            outputs[t] = h;
        }
    }
    return {Tensor<3>(output_of(outputs, batch, hs, x, m.batch_first)), Tensor<2>(std::move(h))};
}

}  // namespace

Rnn RnnConfig::init(const Device& device) const {
    Rnn m = rnn_detail::make_layer<Rnn>("RnnConfig", 1, *this, device);
    m.nonlinearity = nonlinearity;
    return m;
}

std::pair<Tensor<3>, Tensor<2>> Rnn::forward(const Tensor<3>& input,
                                             const std::optional<Tensor<2>>& state) const {
    return run_rnn(*this, input, state, false);
}

std::pair<Tensor<3>, Tensor<2>> Rnn::forward_reverse(const Tensor<3>& input,
                                                     const std::optional<Tensor<2>>& state) const {
    return run_rnn(*this, input, state, true);
}

BiRnn BiRnnConfig::init(const Device& device) const {
    RnnConfig c{d_input, d_hidden, bias, batch_first, nonlinearity, initializer};
    return BiRnn{c.init(device), c.init(device)};
}

std::pair<Tensor<3>, Tensor<3>> BiRnn::forward(const Tensor<3>& input,
                                               const std::optional<Tensor<3>>& state) const {
    auto [s_fwd, s_rev] =
        rnn_detail::split_directions(state, static_cast<int64_t>(forward_rnn.d_hidden), "BiRnn");
    auto [out_f, h_f] = forward_rnn.forward(input, s_fwd);
    auto [out_r, h_r] = reverse_rnn.forward_reverse(input, s_rev);
    return {Tensor<3>::cat({out_f, out_r}, 2), Tensor<2>::stack({h_f, h_r}, 0)};
}

}  // namespace burn::nn
