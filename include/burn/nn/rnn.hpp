#pragma once
/// Recurrent layers with PyTorch's parameter layout, so PyTorch weights load as they are:
///   Lstm:  weight_ih [4H, I], weight_hh [4H, H], bias_ih [4H], bias_hh [4H]; gate order i, f, g, o
///   Gru:   weight_ih [3H, I], weight_hh [3H, H], bias_ih [3H], bias_hh [3H]; gate order r, z, n
///   Rnn:   weight_ih [H, I], weight_hh [H, H], bias_ih [H], bias_hh [H] (Elman: tanh or relu)
/// (PyTorch's weight_ih_l0 is weight_ih here, and so on; a bidirectional layer's *_l0_reverse
/// tensors are reverse_lstm.* / reverse_gru.* / reverse_rnn.*, the others forward_*.*). Inputs are [batch,
/// seq, features] by default (batch_first, burn's default); batch_first = false takes [seq, batch, features]
/// like PyTorch's. The input projection of all time steps is one GEMM; each step adds one [batch, H] x [H,
/// kH] GEMM.
#include <utility>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"

namespace burn::nn {

/// The cell and hidden states: [batch, H] for Lstm, [2, batch, H] (forward, reverse) for BiLstm.
template <std::size_t D>
struct LstmState {
    Tensor<D> cell;
    Tensor<D> hidden;
};

struct Lstm {
    Param<Tensor<2>> weight_ih;                 // [4H, d_input]
    Param<Tensor<2>> weight_hh;                 // [4H, H]
    std::optional<Param<Tensor<1>>> bias_ih{};  // [4H]
    std::optional<Param<Tensor<1>>> bias_hh{};  // [4H]
    std::size_t d_hidden = 0;
    bool batch_first = true;

    /// input [batch, seq, d_input] (or [seq, batch, d_input]), state [batch, H] each (zeros when
    /// absent) -> (output [batch, seq, H] (or [seq, batch, H]), final state).
    std::pair<Tensor<3>, LstmState<2>> forward(const Tensor<3>& input,
                                               const std::optional<LstmState<2>>& state = std::nullopt) const;
    /// The same, running from the last time step to the first (BiLstm's reverse direction).
    std::pair<Tensor<3>, LstmState<2>> forward_reverse(
        const Tensor<3>& input, const std::optional<LstmState<2>>& state = std::nullopt) const;

    BURN_MODULE(Lstm, weight_ih, weight_hh, bias_ih, bias_hh, d_hidden, batch_first)
};

struct LstmConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    /// Unset: PyTorch's U(-1/sqrt(H), 1/sqrt(H)) for every weight and bias.
    std::optional<Initializer> initializer{};
    Lstm init(const Device& device = Device()) const;
    BURN_CONFIG(LstmConfig, d_input, d_hidden, bias, batch_first, initializer)
};

/// Two Lstm layers, one per direction; the output concatenates their hidden states ([..., 2H]).
/// (burn names the fields forward and reverse; C++ keeps forward for the method.)
struct BiLstm {
    Lstm forward_lstm;
    Lstm reverse_lstm;

    /// input [batch, seq, d_input] -> (output [batch, seq, 2H], state [2, batch, H] each: index 0 the
    /// forward direction, 1 the reverse, as PyTorch's h_n / c_n)
    std::pair<Tensor<3>, LstmState<3>> forward(const Tensor<3>& input,
                                               const std::optional<LstmState<3>>& state = std::nullopt) const;

    BURN_MODULE(BiLstm, forward_lstm, reverse_lstm)
};

struct BiLstmConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    std::optional<Initializer> initializer{};
    BiLstm init(const Device& device = Device()) const;
    BURN_CONFIG(BiLstmConfig, d_input, d_hidden, bias, batch_first, initializer)
};

/// GRU. reset_after = true is PyTorch's (and cuDNN's) form n = tanh(W_in x + b_in + r * (W_hn h + b_hn));
/// false applies the reset gate before the hidden projection: n = tanh(W_in x + b_in + W_hn (r * h) + b_hn).
struct Gru {
    Param<Tensor<2>> weight_ih;                 // [3H, d_input]
    Param<Tensor<2>> weight_hh;                 // [3H, H]
    std::optional<Param<Tensor<1>>> bias_ih{};  // [3H]
    std::optional<Param<Tensor<1>>> bias_hh{};  // [3H]
    std::size_t d_hidden = 0;
    bool batch_first = true;
    bool reset_after = true;

    /// input [batch, seq, d_input], state [batch, H] (zeros when absent) -> hidden states [batch, seq, H]
    Tensor<3> forward(const Tensor<3>& input, const std::optional<Tensor<2>>& state = std::nullopt) const;
    /// The same, running from the last time step to the first (BiGru's reverse direction).
    Tensor<3> forward_reverse(const Tensor<3>& input,
                              const std::optional<Tensor<2>>& state = std::nullopt) const;

    BURN_MODULE(Gru, weight_ih, weight_hh, bias_ih, bias_hh, d_hidden, batch_first, reset_after)
};

struct GruConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    bool reset_after = true;
    std::optional<Initializer> initializer{};
    Gru init(const Device& device = Device()) const;
    BURN_CONFIG(GruConfig, d_input, d_hidden, bias, batch_first, reset_after, initializer)
};

/// Two Gru layers, one per direction (torch.nn.GRU(bidirectional=True)); the output concatenates their
/// hidden states ([..., 2H]).
struct BiGru {
    Gru forward_gru;
    Gru reverse_gru;

    /// input [batch, seq, d_input], state [2, batch, H] (forward, reverse; zeros when absent) ->
    /// (output [batch, seq, 2H], final state [2, batch, H] as PyTorch's h_n)
    std::pair<Tensor<3>, Tensor<3>> forward(const Tensor<3>& input,
                                            const std::optional<Tensor<3>>& state = std::nullopt) const;

    BURN_MODULE(BiGru, forward_gru, reverse_gru)
};

struct BiGruConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    bool reset_after = true;
    std::optional<Initializer> initializer{};
    BiGru init(const Device& device = Device()) const;
    BURN_CONFIG(BiGruConfig, d_input, d_hidden, bias, batch_first, reset_after, initializer)
};

/// The Elman RNN's nonlinearity (torch.nn.RNN's nonlinearity).
enum class RnnNonlinearity { tanh, relu };
BURN_ENUM(RnnNonlinearity, tanh, relu)

/// Elman RNN (torch.nn.RNN): h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh).
struct Rnn {
    Param<Tensor<2>> weight_ih;                 // [H, d_input]
    Param<Tensor<2>> weight_hh;                 // [H, H]
    std::optional<Param<Tensor<1>>> bias_ih{};  // [H]
    std::optional<Param<Tensor<1>>> bias_hh{};  // [H]
    std::size_t d_hidden = 0;
    bool batch_first = true;
    RnnNonlinearity nonlinearity = RnnNonlinearity::tanh;

    /// input [batch, seq, d_input] (or [seq, batch, d_input]), state [batch, H] (zeros when absent) ->
    /// (output [batch, seq, H] (or [seq, batch, H]), final hidden state [batch, H])
    std::pair<Tensor<3>, Tensor<2>> forward(const Tensor<3>& input,
                                            const std::optional<Tensor<2>>& state = std::nullopt) const;
    /// The same, running from the last time step to the first (BiRnn's reverse direction).
    std::pair<Tensor<3>, Tensor<2>> forward_reverse(
        const Tensor<3>& input, const std::optional<Tensor<2>>& state = std::nullopt) const;

    BURN_MODULE(Rnn, weight_ih, weight_hh, bias_ih, bias_hh, d_hidden, batch_first, nonlinearity)
};

struct RnnConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    RnnNonlinearity nonlinearity = RnnNonlinearity::tanh;
    std::optional<Initializer> initializer{};
    Rnn init(const Device& device = Device()) const;
    BURN_CONFIG(RnnConfig, d_input, d_hidden, bias, batch_first, nonlinearity, initializer)
};

/// Two Rnn layers, one per direction (torch.nn.RNN(bidirectional=True)).
struct BiRnn {
    Rnn forward_rnn;
    Rnn reverse_rnn;

    /// input [batch, seq, d_input], state [2, batch, H] (zeros when absent) -> (output [batch, seq, 2H],
    /// final state [2, batch, H] as PyTorch's h_n)
    std::pair<Tensor<3>, Tensor<3>> forward(const Tensor<3>& input,
                                            const std::optional<Tensor<3>>& state = std::nullopt) const;

    BURN_MODULE(BiRnn, forward_rnn, reverse_rnn)
};

struct BiRnnConfig {
    std::size_t d_input = 0;
    std::size_t d_hidden = 0;
    bool bias = true;
    bool batch_first = true;
    RnnNonlinearity nonlinearity = RnnNonlinearity::tanh;
    std::optional<Initializer> initializer{};
    BiRnn init(const Device& device = Device()) const;
    BURN_CONFIG(BiRnnConfig, d_input, d_hidden, bias, batch_first, nonlinearity, initializer)
};

}  // namespace burn::nn
