// Lstm, BiLstm and Gru. The input projection of every time step is one GEMM; the recurrence adds one
// [batch, H] x [H, kH] GEMM and a few elementwise ops per step. Time steps and gates are taken apart
// with a custom op whose backward is one stack/cat (narrow's own backward would zero-fill the whole
// source once per piece: quadratic in the sequence length).
#include "burn/nn/rnn.hpp"

#include <cmath>

#include "burn/autodiff/custom_op.hpp"
#include "rnn_util.hpp"

namespace burn::nn {

using namespace ops;

namespace rnn_detail {

std::vector<TensorAny> unbind(const TensorAny& x, int64_t dim, int64_t n, bool squeeze) {
    autodiff::CustomOp op;
    op.name = "rnn_split";
    const int64_t size = x.shape()[static_cast<int>(dim)] / n;
    op.forward = [dim, n, size, squeeze](const std::vector<TensorAny>& in) {
        std::vector<TensorAny> out;
        out.reserve(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            TensorAny piece = narrow(in[0], dim, i * size, size);
            out.push_back(squeeze ? squeeze_dim(std::move(piece), dim) : std::move(piece));
        }
        return out;
    };
    op.backward = [dim, squeeze](const std::vector<TensorAny>&, const std::vector<TensorAny>& outs,
                                 const std::vector<TensorAny>& grads) {
        std::vector<TensorAny> gs;
        gs.reserve(grads.size());
        for (std::size_t i = 0; i < grads.size(); ++i)
            gs.push_back(grads[i].defined() ? grads[i]
                                            : full(outs[i].shape(), 0.0, outs[i].dtype(), outs[i].device()));
        return std::vector<TensorAny>{squeeze ? stack(gs, dim) : cat(gs, dim)};
    };
    return autodiff::apply(op, {x});
}

Initializer default_rnn_init(std::size_t d_hidden) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(d_hidden));
    return Initializer::Uniform(-bound, bound);
}

RnnParams init_rnn(const char* config, std::size_t gates, std::size_t d_input, std::size_t d_hidden,
                   bool bias, const std::optional<Initializer>& initializer, const Device& device) {
    BURN_CHECK(d_input > 0 && d_hidden > 0, "[", config, "] d_input and d_hidden must be positive, got ",
               d_input, " and ", d_hidden);
    const Initializer init = initializer ? *initializer : default_rnn_init(d_hidden);
    const auto g = static_cast<int64_t>(gates * d_hidden);
    const auto in = static_cast<int64_t>(d_input), h = static_cast<int64_t>(d_hidden);
    RnnParams p;
    p.w_ih = Param<Tensor<2>>(init.init<2>({gates * d_hidden, d_input}, in, g, device));
    p.w_hh = Param<Tensor<2>>(init.init<2>({gates * d_hidden, d_hidden}, h, g, device));
    if (bias) {
        p.b_ih = Param<Tensor<1>>(init.init<1>({gates * d_hidden}, in, g, device));
        p.b_hh = Param<Tensor<1>>(init.init<1>({gates * d_hidden}, h, g, device));
    }
    return p;
}

TensorAny batch_major(const TensorAny& input, bool batch_first, int64_t d_input, const char* layer) {
    BURN_CHECK_KIND(input.defined() && is_float(input.dtype()), dtype, "[", layer, "] needs a Float input");
    BURN_CHECK_KIND(input.rank() == 3 && input.shape()[2] == d_input, shape, "[", layer, "] input ",
                    input.shape(), " must be ", batch_first ? "[batch, seq, " : "[seq, batch, ", d_input,
                    "]");
    return batch_first ? input : swap_dims(input, 0, 1);
}

void check_state(const TensorAny& s, int64_t batch, int64_t h, const char* layer, const char* what) {
    BURN_CHECK_KIND(s.rank() == 2 && s.shape()[0] == batch && s.shape()[1] == h, shape, "[", layer, "] ",
                    what, " state ", s.shape(), " must be [batch, d_hidden] = [", batch, ", ", h, "]");
}

TensorAny project(const TensorAny& x, const TensorAny& w, const TensorAny* bias) {
    const Dims s = x.shape();
    TensorAny y = matmul(reshape(x, Dims{-1, s[2]}), swap_dims(w, 0, 1));
    if (bias) y = add(std::move(y), unsqueeze_dim(*bias, 0));
    return reshape(std::move(y), Dims{s[0], s[1], w.shape()[0]});
}

TensorAny output_of(std::vector<TensorAny>& outputs, int64_t batch, int64_t h, const TensorAny& like,
                    bool batch_first) {
    TensorAny out =
        outputs.empty() ? full(Dims{batch, 0, h}, 0.0, like.dtype(), like.device()) : stack(outputs, 1);
    return batch_first ? out : swap_dims(std::move(out), 0, 1);
}

std::pair<std::optional<Tensor<2>>, std::optional<Tensor<2>>> split_directions(
    const std::optional<Tensor<3>>& state, int64_t h, const char* layer) {
    if (!state) return {};
    BURN_CHECK_KIND(state->shape()[0] == 2 && state->shape()[2] == h, shape, "[", layer, "] state ",
                    state->shape(), " must be [2, batch, ", h, "] (forward, reverse)");
    return {state->narrow(0, 0, 1).squeeze_dim(0), state->narrow(0, 1, 1).squeeze_dim(0)};
}

Tensor<3> final_states(const Tensor<3>& out_f, const Tensor<3>& out_r, const std::optional<Tensor<2>>& s_f,
                       const std::optional<Tensor<2>>& s_r, bool batch_first) {
    const int64_t t_dim = batch_first ? 1 : 0, steps = out_f.shape()[t_dim];
    auto at = [&](const Tensor<3>& out, int64_t t, const std::optional<Tensor<2>>& initial) -> Tensor<2> {
        if (steps > 0) return out.narrow(t_dim, t, 1).squeeze_dim(t_dim);
        if (initial) return *initial;  // no time step: the state passes through
        const int64_t batch = out.shape()[batch_first ? 0 : 1], h = out.shape()[2];
        return Tensor<2>(full(Dims{batch, h}, 0.0, out.dtype(), out.device()));
    };
    return Tensor<2>::stack({at(out_f, steps - 1, s_f), at(out_r, 0, s_r)}, 0);
}

}  // namespace rnn_detail

namespace {

using namespace rnn_detail;

std::pair<Tensor<3>, LstmState<2>> run_lstm(const Lstm& m, const Tensor<3>& input,
                                            const std::optional<LstmState<2>>& state, bool reverse) {
    const TensorAny& w_ih = m.weight_ih.val().handle();
    const auto h_size = static_cast<int64_t>(m.d_hidden);
    TensorAny x = batch_major(input.handle(), m.batch_first, w_ih.shape()[1], "Lstm");
    const int64_t batch = x.shape()[0], steps = x.shape()[1];
    TensorAny bias;
    if (m.bias_ih) bias = add(m.bias_ih->val().handle(), m.bias_hh->val().handle());
    TensorAny h, c;
    if (state) {
        check_state(state->hidden.handle(), batch, h_size, "Lstm", "hidden");
        check_state(state->cell.handle(), batch, h_size, "Lstm", "cell");
        h = state->hidden.handle();
        c = state->cell.handle();
    } else {
        h = full(Dims{batch, h_size}, 0.0, x.dtype(), x.device());
        c = h;
    }
    std::vector<TensorAny> outputs(static_cast<std::size_t>(steps));
    if (steps > 0) {
        std::vector<TensorAny> xw =
            unbind(project(x, w_ih, bias.defined() ? &bias : nullptr), 1, steps, true);
        TensorAny w_hh_t = swap_dims(m.weight_hh.val().handle(), 0, 1);  // [H, 4H]
        for (int64_t s = 0; s < steps; ++s) {
            const auto t = static_cast<std::size_t>(reverse ? steps - 1 - s : s);
            std::vector<TensorAny> g = unbind(add(xw[t], matmul(h, w_hh_t)), 1, 4, false);  // i, f, g, o
            c = add(mul(sigmoid(g[1]), c), mul(sigmoid(g[0]), tanh(g[2])));
            h = mul(sigmoid(g[3]), tanh(c));
            outputs[t] = h;
        }
    }
    TensorAny out = output_of(outputs, batch, h_size, x, m.batch_first);
    return {Tensor<3>(std::move(out)), LstmState<2>{Tensor<2>(std::move(c)), Tensor<2>(std::move(h))}};
}

}  // namespace

Lstm LstmConfig::init(const Device& device) const {
    return make_layer<Lstm>("LstmConfig", 4, *this, device);
}

std::pair<Tensor<3>, LstmState<2>> Lstm::forward(const Tensor<3>& input,
                                                 const std::optional<LstmState<2>>& state) const {
    return run_lstm(*this, input, state, false);
}

std::pair<Tensor<3>, LstmState<2>> Lstm::forward_reverse(const Tensor<3>& input,
                                                         const std::optional<LstmState<2>>& state) const {
    return run_lstm(*this, input, state, true);
}

BiLstm BiLstmConfig::init(const Device& device) const {
    LstmConfig c{d_input, d_hidden, bias, batch_first, initializer};
    return BiLstm{c.init(device), c.init(device)};
}

std::pair<Tensor<3>, LstmState<3>> BiLstm::forward(const Tensor<3>& input,
                                                   const std::optional<LstmState<3>>& state) const {
    std::optional<LstmState<2>> s_fwd, s_rev;
    if (state) {
        const auto h = static_cast<int64_t>(forward_lstm.d_hidden);
        for (const Tensor<3>* s : {&state->cell, &state->hidden})
            BURN_CHECK_KIND(s->shape()[0] == 2 && s->shape()[2] == h, shape, "[BiLstm] state ", s->shape(),
                            " must be [2, batch, ", h, "]");
        s_fwd = LstmState<2>{state->cell.narrow(0, 0, 1).squeeze_dim(0),
                             state->hidden.narrow(0, 0, 1).squeeze_dim(0)};
        s_rev = LstmState<2>{state->cell.narrow(0, 1, 1).squeeze_dim(0),
                             state->hidden.narrow(0, 1, 1).squeeze_dim(0)};
    }
    auto [out_f, st_f] = forward_lstm.forward(input, s_fwd);
    auto [out_r, st_r] = reverse_lstm.forward_reverse(input, s_rev);
    Tensor<3> out = Tensor<3>::cat({out_f, out_r}, 2);
    LstmState<3> st{Tensor<2>::stack({st_f.cell, st_r.cell}, 0),
                    Tensor<2>::stack({st_f.hidden, st_r.hidden}, 0)};
    return {std::move(out), std::move(st)};
}

Gru GruConfig::init(const Device& device) const {
    Gru m = make_layer<Gru>("GruConfig", 3, *this, device);
    m.reset_after = reset_after;
    return m;
}

namespace {

Tensor<3> run_gru(const Gru& m, const Tensor<3>& input, const std::optional<Tensor<2>>& state, bool reverse) {
    const TensorAny& w_ih = m.weight_ih.val().handle();
    const TensorAny& w_hh = m.weight_hh.val().handle();
    const auto hs = static_cast<int64_t>(m.d_hidden);
    TensorAny x = batch_major(input.handle(), m.batch_first, w_ih.shape()[1], "Gru");
    const int64_t batch = x.shape()[0], steps = x.shape()[1];
    TensorAny h;
    if (state) {
        check_state(state->handle(), batch, hs, "Gru", "hidden");
        h = state->handle();
    } else {
        h = full(Dims{batch, hs}, 0.0, x.dtype(), x.device());
    }
    const TensorAny* b_ih = m.bias_ih ? &m.bias_ih->val().handle() : nullptr;
    TensorAny b_hh = m.bias_hh ? m.bias_hh->val().handle() : TensorAny();
    std::vector<TensorAny> outputs(static_cast<std::size_t>(steps));
    if (steps > 0) {
        std::vector<TensorAny> xw = unbind(project(x, w_ih, b_ih), 1, steps, true);
        // reset_after: one [H, 3H] GEMM per step; otherwise [H, 2H] for r, z and [H, H] on r * h for n.
        TensorAny w_t = swap_dims(m.reset_after ? w_hh : narrow(w_hh, 0, 0, 2 * hs), 0, 1);
        TensorAny w_n_t = m.reset_after ? TensorAny() : swap_dims(narrow(w_hh, 0, 2 * hs, hs), 0, 1);
        TensorAny b_rz = b_hh.defined() && !m.reset_after ? narrow(b_hh, 0, 0, 2 * hs) : b_hh;
        TensorAny b_n = b_hh.defined() && !m.reset_after ? narrow(b_hh, 0, 2 * hs, hs) : TensorAny();
        for (int64_t s = 0; s < steps; ++s) {
            const int64_t t = reverse ? steps - 1 - s : s;
            std::vector<TensorAny> gx = unbind(xw[static_cast<std::size_t>(t)], 1, 3, false);  // r, z, n
            TensorAny hw = matmul(h, w_t);
            if (b_rz.defined()) hw = add(std::move(hw), unsqueeze_dim(b_rz, 0));
            std::vector<TensorAny> gh = unbind(hw, 1, m.reset_after ? 3 : 2, false);
            TensorAny r = sigmoid(add(gx[0], gh[0]));
            TensorAny z = sigmoid(add(gx[1], gh[1]));
            TensorAny hn;
            if (m.reset_after) {
                hn = mul(r, gh[2]);
            } else {
                hn = matmul(mul(r, h), w_n_t);
                if (b_n.defined()) hn = add(std::move(hn), unsqueeze_dim(b_n, 0));
            }
            TensorAny n = tanh(add(gx[2], hn));
            h = add(n, mul(z, sub(h, n)));  // (1 - z) * n + z * h
            outputs[static_cast<std::size_t>(t)] = h;
        }
    }
    return Tensor<3>(output_of(outputs, batch, hs, x, m.batch_first));
}

}  // namespace

Tensor<3> Gru::forward(const Tensor<3>& input, const std::optional<Tensor<2>>& state) const {
    return run_gru(*this, input, state, false);
}

Tensor<3> Gru::forward_reverse(const Tensor<3>& input, const std::optional<Tensor<2>>& state) const {
    return run_gru(*this, input, state, true);
}

BiGru BiGruConfig::init(const Device& device) const {
    GruConfig c{d_input, d_hidden, bias, batch_first, reset_after, initializer};
    return BiGru{c.init(device), c.init(device)};
}

std::pair<Tensor<3>, Tensor<3>> BiGru::forward(const Tensor<3>& input,
                                               const std::optional<Tensor<3>>& state) const {
    auto [s_fwd, s_rev] = split_directions(state, static_cast<int64_t>(forward_gru.d_hidden), "BiGru");
    Tensor<3> out_f = forward_gru.forward(input, s_fwd);
    Tensor<3> out_r = reverse_gru.forward_reverse(input, s_rev);
    return {Tensor<3>::cat({out_f, out_r}, 2),
            final_states(out_f, out_r, s_fwd, s_rev, forward_gru.batch_first)};
}

}  // namespace burn::nn
