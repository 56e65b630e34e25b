// ONNX recurrent layers: LSTM, GRU, RNN (opsets 7-17): direction forward, reverse and bidirectional,
// activations with activation_alpha/beta, clip, input_forget (LSTM), linear_before_reset (GRU),
// layout (opset 14), the optional B, sequence_lens, initial_h, initial_c and P inputs, and any of
// the outputs Y, Y_h, Y_c omitted.
//
// Every direction runs in one recurrence: X·Wᵀ (+ biases) for all steps and directions is one
// batched matmul up front, then each step is one [D, batch, hidden] x [D, hidden, gates] matmul and
// elementwise ops, all through burn::ops, so the layers run on every device and differentiate on an
// autodiff device. A reverse direction runs forward over its input reversed in time (per row, within
// each row's length), and its outputs are put back in time order at the end.
//
// Host reads: sequence_lens (a small int tensor) is read on the host to validate it and to build the
// per-row reversal indices and the step masks; when every row has the full length it is ignored.
// Rows past their length leave the state unchanged (Y_h/Y_c hold the state at each row's last step)
// and give zeros in Y.
#include <algorithm>
#include <cctype>
#include <optional>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

/// One activation of the layer with its alpha and beta (ONNX's defaults where not given).
struct Act {
    std::string name;  // lower case
    double alpha = 0, beta = 0;
    bool operator==(const Act& o) const { return name == o.name && alpha == o.alpha && beta == o.beta; }
};

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

TensorAny apply(const Act& a, const TensorAny& x) {
    if (a.name == "sigmoid") return ops::sigmoid(x);
    if (a.name == "tanh") return ops::tanh(x);
    if (a.name == "relu") return ops::relu(x);
    if (a.name == "affine") return ops::add_scalar(ops::mul_scalar(x, a.alpha), a.beta);
    if (a.name == "leakyrelu") return ops::leaky_relu(x, a.alpha);
    if (a.name == "thresholdedrelu") return ops::where(ops::greater_elem(x, a.alpha), x, scalar_like(x, 0));
    if (a.name == "scaledtanh") return ops::mul_scalar(ops::tanh(ops::mul_scalar(x, a.beta)), a.alpha);
    if (a.name == "hardsigmoid")
        return ops::clamp(ops::add_scalar(ops::mul_scalar(x, a.alpha), a.beta), 0, 1);
    if (a.name == "elu") {
        TensorAny neg = ops::mul_scalar(ops::expm1(ops::min_pair(x, scalar_like(x, 0))), a.alpha);
        return ops::where(ops::greater_elem(x, 0), x, neg);
    }
    if (a.name == "softsign") return ops::div(x, ops::add_scalar(ops::abs(x), 1));
    return ops::softplus(x, 1, 20);  // "softplus" (names are validated when parsed)
}

/// The parsed layer: inputs in layout 0 ([seq, batch, ...]), one entry per direction.
struct Layer {
    int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
    bool layout1 = false;
    std::vector<bool> reversed;          // per direction
    std::vector<std::vector<Act>> acts;  // per direction, per activation slot
    std::optional<double> clip;          // clips the input of every activation
    TensorAny x;                         // [seq, batch, input]
    TensorAny rev;                       // i64 [seq * batch]: per-row reversal (sequence_lens), or undefined
    std::vector<TensorAny> step_mask;    // per step, bool [1, batch, 1] (sequence_lens), or empty
};

std::vector<Act> parse_acts(const OpContext& c, int64_t dirs, const std::vector<std::string>& defaults) {
    const std::size_t n = defaults.size();
    std::vector<std::string> names;
    auto it = c.node().attrs.find("activations");
    if (it != c.node().attrs.end()) {
        c.check(it->second.kind == Attribute::Kind::strings, "attribute 'activations' must be of type ",
                kind_name(Attribute::Kind::strings), ", got ", kind_name(it->second.kind));
        names = it->second.strings;
    }
    const std::vector<double> alphas = c.attr_floats("activation_alpha"),
                              betas = c.attr_floats("activation_beta");
    if (names.empty()) names = defaults;
    // One list per direction; a single list serves both directions of a bidirectional layer, and
    // a list for two directions on a one-direction layer uses its first half (RNN's schema default
    // lists two activations).
    c.check(names.size() == n || names.size() == 2 * n, "activations lists ", names.size(),
            " functions; expected ", n, " per direction (", n, " or ", 2 * n, " in all)");
    std::vector<Act> out;
    std::size_t ia = 0, ib = 0;
    for (const std::string& raw : names) {
        Act a{lower(raw), 0, 0};
        bool uses_alpha = true, uses_beta = false;
        if (a.name == "sigmoid" || a.name == "tanh" || a.name == "relu" || a.name == "softsign" ||
            a.name == "softplus") {
            uses_alpha = false;
        } else if (a.name == "leakyrelu") {
            a.alpha = 0.01;
        } else if (a.name == "thresholdedrelu" || a.name == "elu") {
            a.alpha = 1.0;
        } else if (a.name == "affine") {
            a.alpha = 1.0, a.beta = 0.0, uses_beta = true;
        } else if (a.name == "scaledtanh") {
            a.alpha = 1.0, a.beta = 1.0, uses_beta = true;
        } else if (a.name == "hardsigmoid") {
            a.alpha = 0.2, a.beta = 0.5, uses_beta = true;
        } else {
            c.fail("activation '", raw,
                   "' is not one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, "
                   "HardSigmoid, Elu, Softsign, Softplus");
        }
        // activation_alpha/beta are consumed in order by the activations that take them
        // (onnxruntime's reading); an exhausted list leaves ONNX's defaults.
        if (uses_alpha && ia < alphas.size()) a.alpha = alphas[ia++];
        if (uses_beta && ib < betas.size()) a.beta = betas[ib++];
        out.push_back(a);
    }
    if (out.size() == n && dirs == 2) {
        const std::vector<Act> one = out;
        out.insert(out.end(), one.begin(), one.end());
    }
    out.resize(n * static_cast<std::size_t>(dirs));
    return out;
}

/// X with dtype and rank checks, then the attributes and the shared inputs (W, R, sequence_lens).
/// gates: 4 (LSTM), 3 (GRU) or 1 (RNN).
Layer parse(const OpContext& c, int64_t gates, const std::vector<std::string>& default_acts) {
    Layer L;
    const TensorAny &x = c.in(0), &w = c.in(1), &r = c.in(2);
    c.check(is_float(x.dtype()), "X must be a float tensor, got ", x.dtype(), " ", x.shape());
    c.check(x.rank() == 3, "X must be 3-D, got ", x.shape());
    c.check(w.rank() == 3 && r.rank() == 3, "W and R must be 3-D, got ", w.shape(), " and ", r.shape());
    check_same_dtype(c, x, w);
    check_same_dtype(c, x, r);
    const int64_t layout = c.opset() >= 14 ? c.attr_int("layout", 0) : 0;
    c.check(layout == 0 || layout == 1, "layout must be 0 or 1, got ", layout);
    L.layout1 = layout == 1;
    L.x = L.layout1 ? ops::swap_dims(x, 0, 1) : x;
    L.seq = L.x.shape()[0], L.batch = L.x.shape()[1], L.input = L.x.shape()[2];
    c.check(L.seq >= 1 && L.batch >= 1, "X ", x.shape(), " must have at least one step and one batch row");

    const std::string direction = c.attr_string("direction", "forward");
    if (direction == "forward" || direction == "reverse") {
        L.reversed = {direction == "reverse"};
    } else {
        c.check(direction == "bidirectional", "direction '", direction,
                "' is not one of forward, reverse, bidirectional");
        L.reversed = {false, true};
    }
    L.dirs = static_cast<int64_t>(L.reversed.size());
    L.hidden = r.shape()[2];
    c.check(L.hidden >= 1, "R ", r.shape(), " must have a positive hidden size (its last dim)");
    if (c.has_attr("hidden_size"))
        c.check(c.attr_int("hidden_size") == L.hidden, "hidden_size = ", c.attr_int("hidden_size"),
                " does not match R's shape ", r.shape(),
                " ([num_directions, gates * hidden_size, hidden_size])");
    const Dims w_want{L.dirs, gates * L.hidden, L.input}, r_want{L.dirs, gates * L.hidden, L.hidden};
    c.check(w.shape() == w_want, "W has shape ", w.shape(), ", expected ", w_want,
            " ([num_directions, gates * hidden_size, input_size])");
    c.check(r.shape() == r_want, "R has shape ", r.shape(), ", expected ", r_want,
            " ([num_directions, gates * hidden_size, hidden_size])");
    if (c.has_attr("clip")) {
        L.clip = c.attr_float("clip", 0);
        c.check(*L.clip > 0, "clip must be positive, got ", *L.clip);
    }
    const std::vector<Act> acts = parse_acts(c, L.dirs, default_acts);
    const auto n = static_cast<std::ptrdiff_t>(default_acts.size());
    for (int64_t d = 0; d < L.dirs; ++d)
        L.acts.emplace_back(acts.begin() + d * n, acts.begin() + (d + 1) * n);

    if (c.has(4)) {
        c.check(!is_float(c.in(4).dtype()) && c.in(4).dtype() != DType::boolean,
                "sequence_lens must be an integer tensor, got ", c.in(4).dtype(), " ", c.in(4).shape());
        const std::vector<int64_t> lens = c.ints_of(4);
        c.check(static_cast<int64_t>(lens.size()) == L.batch, "sequence_lens has ", lens.size(),
                " entries for a batch of ", L.batch);
        bool all_full = true;
        for (int64_t v : lens) {
            c.check(v >= 0 && v <= L.seq, "sequence_lens holds ", v, ", outside [0, ", L.seq, "]");
            all_full = all_full && v == L.seq;
        }
        if (!all_full) {
            std::vector<int64_t> rev(static_cast<std::size_t>(L.seq * L.batch));
            for (int64_t t = 0; t < L.seq; ++t)
                for (int64_t b = 0; b < L.batch; ++b) {
                    const int64_t n_b = lens[static_cast<std::size_t>(b)];
                    rev[static_cast<std::size_t>(t * L.batch + b)] =
                        (t < n_b ? n_b - 1 - t : t) * L.batch + b;
                }
            L.rev = ops::from_data(TensorData(rev, Dims{L.seq * L.batch}), c.device());
            TensorAny steps =
                ops::reshape(ops::arange(0, L.seq, 1, DType::i64, c.device()), Dims{L.seq, 1, 1});
            TensorAny len = ops::from_data(TensorData(lens, Dims{1, L.batch, 1}), c.device());
            L.step_mask = ops::split(ops::lower(steps, len), 1, 0);
        }
    }
    return L;
}

/// x [seq, batch, ...] or [seq, 1, batch, ...] reversed in time: per row within its length when
/// sequence_lens is given, else a flip.
TensorAny reverse_time(const Layer& L, const TensorAny& x) {
    if (!L.rev.defined()) return ops::flip(x, Dims{0});
    Dims flat = x.shape();
    TensorAny y = ops::reshape(x, Dims{L.seq * L.batch, -1});
    return ops::reshape(ops::select(y, 0, L.rev), flat);
}

/// An optional [D, n] input (a bias or P) checked for shape and dtype.
TensorAny vec_input(const OpContext& c, const Layer& L, std::size_t i, const char* name, int64_t n) {
    const TensorAny& v = c.in(i);
    check_same_dtype(c, c.in(0), v);
    c.check(v.shape() == Dims{L.dirs, n}, name, " has shape ", v.shape(), ", expected ", Dims{L.dirs, n});
    return v;
}

/// An optional initial state (initial_h, initial_c) in [D, batch, hidden]; zeros when omitted.
TensorAny state_input(const OpContext& c, const Layer& L, std::size_t i, const char* name) {
    const Dims want{L.dirs, L.batch, L.hidden};
    if (!c.has(i)) return ops::full(want, 0, c.in(0).dtype(), c.device());
    TensorAny s = c.in(i);
    check_same_dtype(c, c.in(0), s);
    if (L.layout1) {
        c.check(s.rank() == 3, name, " must be 3-D, got ", s.shape());
        s = ops::swap_dims(s, 0, 1);
    }
    c.check(s.shape() == want, name, " has shape ", c.in(i).shape(), ", expected ",
            L.layout1 ? Dims{L.batch, L.dirs, L.hidden} : want);
    return s;
}

/// X·Wᵀ + bias for every step and direction in one batched matmul, split into per-step
/// [D, batch, gates * hidden] tensors. bias: [D, gates * hidden] or undefined.
std::vector<TensorAny> project_input(const Layer& L, const TensorAny& w, const TensorAny& bias) {
    std::vector<TensorAny> xs;
    for (int64_t d = 0; d < L.dirs; ++d) {
        TensorAny xd = L.reversed[static_cast<std::size_t>(d)] ? reverse_time(L, L.x) : L.x;
        xs.push_back(ops::reshape(xd, Dims{1, L.seq * L.batch, L.input}));
    }
    TensorAny xw = ops::matmul(L.dirs == 1 ? xs[0] : ops::cat(xs, 0), ops::swap_dims(w, 1, 2));
    if (bias.defined()) xw = ops::add(xw, ops::unsqueeze_dim(bias, 1));
    const int64_t g = w.shape()[1];
    xw = ops::reshape(xw, Dims{L.dirs, L.seq, L.batch, g});
    if (L.dirs > 1) xw = ops::contiguous(ops::swap_dims(xw, 0, 1));
    std::vector<TensorAny> steps =
        ops::split(L.dirs > 1 ? xw : ops::reshape(xw, Dims{L.seq, 1, L.batch, g}), 1, 0);
    for (TensorAny& s : steps) s = ops::reshape(s, Dims{L.dirs, L.batch, g});
    return steps;
}

/// Activation slot k of each direction on x [D, batch, n], after the clip.
TensorAny act(const Layer& L, std::size_t k, TensorAny x) {
    if (L.clip) x = ops::clamp(x, -*L.clip, *L.clip);
    if (L.dirs == 1 || L.acts[0][k] == L.acts[1][k]) return apply(L.acts[0][k], x);
    return ops::cat(
        {apply(L.acts[0][k], ops::narrow(x, 0, 0, 1)), apply(L.acts[1][k], ops::narrow(x, 0, 1, 1))}, 0);
}

TensorAny gate(const TensorAny& g, int64_t k, int64_t hidden) {
    return ops::narrow(g, 2, k * hidden, hidden);
}

/// The state after step t: the new one where the row is still within its length, else the old one.
TensorAny keep(const Layer& L, int64_t t, const TensorAny& fresh, const TensorAny& old) {
    if (L.step_mask.empty()) return fresh;
    return ops::where(L.step_mask[static_cast<std::size_t>(t)], fresh, old);
}

/// Collects Y's step outputs (zeros past each row's length) when the node asks for Y.
struct YOut {
    bool wanted = false;
    std::vector<TensorAny> steps;  // [D, batch, hidden] per step
    void add(const Layer& L, int64_t t, const TensorAny& h) {
        if (!wanted) return;
        if (L.step_mask.empty()) return steps.push_back(h);
        steps.push_back(ops::where(L.step_mask[static_cast<std::size_t>(t)], h, scalar_like(h, 0)));
    }
};

bool output_wanted(const OpContext& c, std::size_t i) {
    const auto& outs = c.node().outputs;
    return i < outs.size() && !outs[i].empty();
}

/// The node's outputs from Y's steps and the final states (each [D, batch, hidden]) in its layout.
Outs finish(const Layer& L, const YOut& y, std::vector<TensorAny> finals) {
    Outs out;
    if (y.wanted) {
        TensorAny ys = ops::stack(y.steps, 0);  // [seq, D, batch, hidden]
        std::vector<TensorAny> per_dir;
        for (int64_t d = 0; d < L.dirs; ++d) {
            TensorAny yd = ops::narrow(ys, 1, d, 1);
            per_dir.push_back(L.reversed[static_cast<std::size_t>(d)] ? reverse_time(L, yd) : yd);
        }
        ys = L.dirs == 1 ? per_dir[0] : ops::cat(per_dir, 1);
        out.push_back(L.layout1 ? ops::permute(ys, Dims{2, 0, 1, 3}) : ys);
    } else {
        out.emplace_back();
    }
    for (TensorAny& s : finals) out.push_back(L.layout1 ? ops::swap_dims(s, 0, 1) : s);
    return out;
}

/// W's and R's biases from B, each [D, gates * hidden] (both undefined without B).
std::pair<TensorAny, TensorAny> biases(const OpContext& c, const Layer& L, int64_t gates) {
    if (!c.has(3)) return {};
    const int64_t g = gates * L.hidden;
    TensorAny b = vec_input(c, L, 3, "B", 2 * g);
    return {ops::narrow(b, 1, 0, g), ops::narrow(b, 1, g, g)};
}

Outs rnn(const OpContext& c) {
    Layer L = parse(c, 1, {"Tanh"});
    auto [wb, rb] = biases(c, L, 1);
    const std::vector<TensorAny> xw = project_input(L, c.in(1), wb.defined() ? ops::add(wb, rb) : wb);
    const TensorAny rt = ops::contiguous(ops::swap_dims(c.in(2), 1, 2));
    TensorAny h = state_input(c, L, 5, "initial_h");
    YOut y{output_wanted(c, 0), {}};
    for (int64_t t = 0; t < L.seq; ++t) {
        TensorAny hn = act(L, 0, ops::add(xw[static_cast<std::size_t>(t)], ops::matmul(h, rt)));
        y.add(L, t, hn);
        h = keep(L, t, hn, h);
    }
    return finish(L, y, {h});
}

Outs gru(const OpContext& c) {
    Layer L = parse(c, 3, {"Sigmoid", "Tanh"});
    const int64_t n = L.hidden;
    const bool lbr = c.attr_int("linear_before_reset", 0) != 0;
    auto [wb, rb] = biases(c, L, 3);
    TensorAny bias, rbh;  // rbh: R's bias of the hidden gate when it goes inside r (.) (...)
    if (wb.defined()) {
        bias = ops::add(wb, rb);
        if (lbr) {
            bias = ops::cat({ops::narrow(bias, 1, 0, 2 * n), ops::narrow(wb, 1, 2 * n, n)}, 1);
            rbh = ops::unsqueeze_dim(ops::narrow(rb, 1, 2 * n, n), 1);
        }
    }
    const std::vector<TensorAny> xw = project_input(L, c.in(1), bias);
    const TensorAny rt = ops::swap_dims(c.in(2), 1, 2);  // [D, hidden, 3 hidden]
    const TensorAny rt_all = ops::contiguous(rt), rt_zr = ops::contiguous(ops::narrow(rt, 2, 0, 2 * n)),
                    rt_h = ops::contiguous(ops::narrow(rt, 2, 2 * n, n));
    TensorAny h = state_input(c, L, 5, "initial_h");
    YOut y{output_wanted(c, 0), {}};
    for (int64_t t = 0; t < L.seq; ++t) {
        const TensorAny& xt = xw[static_cast<std::size_t>(t)];
        const TensorAny hr = ops::matmul(h, lbr ? rt_all : rt_zr);
        const TensorAny z = act(L, 0, ops::add(gate(xt, 0, n), gate(hr, 0, n)));
        const TensorAny r = act(L, 0, ops::add(gate(xt, 1, n), gate(hr, 1, n)));
        TensorAny pre;
        if (lbr) {
            TensorAny hh = gate(hr, 2, n);
            if (rbh.defined()) hh = ops::add(hh, rbh);
            pre = ops::add(gate(xt, 2, n), ops::mul(r, hh));
        } else {
            pre = ops::add(gate(xt, 2, n), ops::matmul(ops::mul(r, h), rt_h));
        }
        const TensorAny hc = act(L, 1, pre);
        TensorAny hn = ops::add(hc, ops::mul(z, ops::sub(h, hc)));  // (1 - z) hc + z h
        y.add(L, t, hn);
        h = keep(L, t, hn, h);
    }
    return finish(L, y, {h});
}

Outs lstm(const OpContext& c) {
    Layer L = parse(c, 4, {"Sigmoid", "Tanh", "Tanh"});
    const int64_t n = L.hidden;
    const bool input_forget = c.attr_int("input_forget", 0) != 0;
    auto [wb, rb] = biases(c, L, 4);
    const std::vector<TensorAny> xw = project_input(L, c.in(1), wb.defined() ? ops::add(wb, rb) : wb);
    const TensorAny rt = ops::contiguous(ops::swap_dims(c.in(2), 1, 2));
    TensorAny h = state_input(c, L, 5, "initial_h"), cell = state_input(c, L, 6, "initial_c");
    TensorAny pi, po, pf;  // peepholes [D, 1, hidden]
    if (c.has(7)) {
        TensorAny p = ops::unsqueeze_dim(vec_input(c, L, 7, "P", 3 * n), 1);
        pi = gate(p, 0, n), po = gate(p, 1, n), pf = gate(p, 2, n);
    }
    YOut y{output_wanted(c, 0), {}};
    for (int64_t t = 0; t < L.seq; ++t) {
        const TensorAny g = ops::add(xw[static_cast<std::size_t>(t)], ops::matmul(h, rt));  // i, o, f, c
        TensorAny ig = gate(g, 0, n), og = gate(g, 1, n), fg = gate(g, 2, n);
        if (pi.defined()) ig = ops::add(ig, ops::mul(pi, cell));
        ig = act(L, 0, ig);
        if (input_forget) {
            fg = ops::rsub_scalar(ig, 1);
        } else {
            if (pf.defined()) fg = ops::add(fg, ops::mul(pf, cell));
            fg = act(L, 0, fg);
        }
        const TensorAny cn = ops::add(ops::mul(fg, cell), ops::mul(ig, act(L, 1, gate(g, 3, n))));
        if (po.defined()) og = ops::add(og, ops::mul(po, cn));
        const TensorAny hn = ops::mul(act(L, 0, og), act(L, 2, cn));
        y.add(L, t, hn);
        h = keep(L, t, hn, h);
        cell = keep(L, t, cn, cell);
    }
    return finish(L, y, {h, cell});
}

}  // namespace

void add_rnn_ops(OpTable& t) {
    t.add("RNN", 7, rnn);
    t.add("GRU", 7, gru);
    t.add("LSTM", 7, lstm);
}

}  // namespace burn::onnx::detail
