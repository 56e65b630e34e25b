#pragma once
// Helpers shared by the recurrent layers (src/nn/rnn.cpp, rnn_elman.cpp); private to src/nn.
#include <optional>
#include <utility>
#include <vector>

#include "burn/nn/rnn.hpp"

namespace burn::nn::rnn_detail {

/// x split along dim into n equal views (squeezed when each piece has size 1 and squeeze is set); the
/// backward pass is one stack/cat.
std::vector<TensorAny> unbind(const TensorAny& x, int64_t dim, int64_t n, bool squeeze);

struct RnnParams {
    Param<Tensor<2>> w_ih, w_hh;
    std::optional<Param<Tensor<1>>> b_ih, b_hh;
};

/// The weights of a layer with `gates` gates: PyTorch's U(-1/sqrt(H), 1/sqrt(H)) unless initializer.
RnnParams init_rnn(const char* config, std::size_t gates, std::size_t d_input, std::size_t d_hidden,
                   bool bias, const std::optional<Initializer>& initializer, const Device& device);

/// A recurrent layer M (Lstm, Gru, Rnn) holding the weights init_rnn made for its config C.
template <class M, class C>
M make_layer(const char* config, std::size_t gates, const C& c, const Device& device) {
    RnnParams p = init_rnn(config, gates, c.d_input, c.d_hidden, c.bias, c.initializer, device);
    M m;
    m.weight_ih = std::move(p.w_ih);
    m.weight_hh = std::move(p.w_hh);
    m.bias_ih = std::move(p.b_ih);
    m.bias_hh = std::move(p.b_hh);
    m.d_hidden = c.d_hidden;
    m.batch_first = c.batch_first;
    return m;
}

/// Checks input [batch, seq, d_input] (after making it batch-first) and returns it batch-first.
TensorAny batch_major(const TensorAny& input, bool batch_first, int64_t d_input, const char* layer);

/// Throws unless s is [batch, h].
void check_state(const TensorAny& s, int64_t batch, int64_t h, const char* layer, const char* what);

/// x [batch, seq, d_input] -> x W^T + bias as [batch, seq, gates * H].
TensorAny project(const TensorAny& x, const TensorAny& w, const TensorAny* bias);

/// The per-step outputs [batch, H] stacked as [batch, seq, H] (or [seq, batch, H]).
TensorAny output_of(std::vector<TensorAny>& outputs, int64_t batch, int64_t h, const TensorAny& like,
                    bool batch_first);

/// A bidirectional layer's [2, batch, H] state as the two directions' [batch, H] (none when absent).
std::pair<std::optional<Tensor<2>>, std::optional<Tensor<2>>> split_directions(
    const std::optional<Tensor<3>>& state, int64_t h, const char* layer);

/// PyTorch's h_n of a bidirectional layer: the forward output at the last time step and the reverse
/// output at the first, [2, batch, H] (the initial states when there is no time step).
Tensor<3> final_states(const Tensor<3>& out_f, const Tensor<3>& out_r, const std::optional<Tensor<2>>& s_f,
                       const std::optional<Tensor<2>>& s_r, bool batch_first);

}  // namespace burn::nn::rnn_detail
