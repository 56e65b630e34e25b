// ONNX control flow: If, Loop, Scan (opset 8's batched form and opset 9's). Each runs its subgraphs
// through OpContext::run_graph, which gives them the outer values they read; the conditions and trip
// counts are read on the host (they decide what runs), everything else stays on the device, so a
// loop's body differentiates on an autodiff device like straight-line code.
#include <algorithm>
#include <limits>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

bool host_bool(const OpContext& c, const TensorAny& x, const char* what) {
    c.check(x.defined() && x.shape().numel() == 1, what, " must hold one element, got ",
            x.defined() ? x.shape() : Dims{});
    return ops::into_data(ops::cast(ops::reshape(x, Dims{1}), DType::f64)).to_vec<double>()[0] != 0.0;
}

Outs if_op(const OpContext& c) {
    const bool cond = host_bool(c, c.in(0), "cond");
    return c.run_graph(cond ? "then_branch" : "else_branch", {});
}

/// An empty scan output (a loop that ran no iteration): [0, declared dims...] of the declared dtype.
TensorAny empty_scan(const OpContext& c, const ValueInfo& v) {
    Dims shape{0};
    if (v.shape)
        for (const Dim& d : *v.shape) shape.push_back(d.size >= 0 ? d.size : 0);
    return ops::full(shape, 0, v.dtype.value_or(DType::f32), c.device());
}

Outs loop(const OpContext& c) {
    const Graph& body = c.attr_graph("body");
    const std::size_t n_carried = c.num_inputs() > 2 ? c.num_inputs() - 2 : 0;
    c.check(body.inputs.size() == 2 + n_carried, "the body takes ", body.inputs.size(),
            " inputs; this Loop passes 2 + ", n_carried,
            " (iteration number, condition, loop-carried values)");
    c.check(body.outputs.size() >= 1 + n_carried, "the body returns ", body.outputs.size(),
            " outputs; this Loop needs at least 1 + ", n_carried, " (condition, loop-carried values)");
    const std::size_t n_scan = body.outputs.size() - 1 - n_carried;
    int64_t trips = std::numeric_limits<int64_t>::max();
    if (c.has(0)) {
        const std::vector<int64_t> m = c.ints_of(0);
        c.check(m.size() == 1, "M must hold one trip count, got ", m.size(), " values");
        trips = m[0];
    }
    const bool has_cond = c.has(1);
    bool cond = has_cond ? host_bool(c, c.in(1), "cond") : true;
    c.check(c.has(0) || has_cond, "neither M nor cond is given: the loop would never end");
    Outs carried;
    for (std::size_t i = 0; i < n_carried; ++i) carried.push_back(c.in(2 + i));
    std::vector<Outs> scans(n_scan);
    for (int64_t i = 0; i < trips && cond; ++i) {
        Outs ins{ops::full(Dims{}, static_cast<double>(i), DType::i64, c.device()),
                 ops::full(Dims{}, 1, DType::boolean, c.device())};
        ins.insert(ins.end(), carried.begin(), carried.end());
        Outs outs = c.run_graph("body", std::move(ins));
        if (has_cond) cond = host_bool(c, outs[0], "the body's condition output");
        for (std::size_t k = 0; k < n_carried; ++k) carried[k] = outs[1 + k];
        for (std::size_t k = 0; k < n_scan; ++k) scans[k].push_back(outs[1 + n_carried + k]);
    }
    Outs out = carried;
    for (std::size_t k = 0; k < n_scan; ++k)
        out.push_back(scans[k].empty() ? empty_scan(c, body.outputs[1 + n_carried + k])
                                       : ops::stack(scans[k], 0));
    return out;
}

struct ScanSpec {
    std::size_t n_state = 0, n_in = 0, n_out = 0;
    std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
};

/// Opset 9's scan over states and scan inputs (already without a batch dim).
Outs scan_core(const OpContext& c, Outs states, const Outs& xs, const ScanSpec& s, int64_t steps) {
    std::vector<Outs> ys(s.n_out);
    for (int64_t t = 0; t < steps; ++t) {
        Outs ins = states;
        for (std::size_t j = 0; j < s.n_in; ++j) {
            const int64_t at = s.in_dirs[j] ? steps - 1 - t : t;
            ins.push_back(ops::squeeze_dim(ops::narrow(xs[j], s.in_axes[j], at, 1), s.in_axes[j]));
        }
        Outs outs = c.run_graph("body", std::move(ins));
        c.check(outs.size() == s.n_state + s.n_out, "the body returned ", outs.size(), " values, expected ",
                s.n_state + s.n_out);
        for (std::size_t k = 0; k < s.n_state; ++k) states[k] = outs[k];
        for (std::size_t k = 0; k < s.n_out; ++k) ys[k].push_back(outs[s.n_state + k]);
    }
    Outs out = states;
    for (std::size_t k = 0; k < s.n_out; ++k) {
        c.check(!ys[k].empty(), "a scan over 0 steps has no scan output to shape");
        if (s.out_dirs[k]) std::reverse(ys[k].begin(), ys[k].end());
        const int64_t axis = c.axis(s.out_axes[k], ys[k][0].rank() + 1);
        out.push_back(ops::stack(ys[k], axis));
    }
    return out;
}

std::vector<int64_t> flags(const OpContext& c, const char* name, std::size_t n) {
    std::vector<int64_t> v = c.attr_ints(name, std::vector<int64_t>(n, 0));
    c.check(v.size() == n, "attribute '", name, "' has ", v.size(), " entries, expected ", n);
    return v;
}

Outs scan(const OpContext& c) {
    const Graph& body = c.attr_graph("body");
    const int64_t m = c.attr_int("num_scan_inputs");
    const bool v8 = c.opset() < 9;
    const std::size_t first = v8 ? 1 : 0;  // opset 8's optional sequence_lens comes first
    c.check(m >= 1 && static_cast<std::size_t>(m) + first <= c.num_inputs(), "num_scan_inputs is ", m,
            " but the node has ", c.num_inputs(), " inputs");
    ScanSpec s;
    s.n_in = static_cast<std::size_t>(m);
    s.n_state = c.num_inputs() - first - s.n_in;
    c.check(body.inputs.size() == s.n_state + s.n_in, "the body takes ", body.inputs.size(),
            " inputs, expected ", s.n_state, " states + ", s.n_in, " scan inputs");
    c.check(body.outputs.size() >= s.n_state, "the body returns ", body.outputs.size(),
            " outputs, fewer than the ", s.n_state, " states");
    s.n_out = body.outputs.size() - s.n_state;
    Outs states, xs;
    for (std::size_t i = 0; i < s.n_state; ++i) states.push_back(c.in(first + i));
    for (std::size_t j = 0; j < s.n_in; ++j) xs.push_back(c.in(first + s.n_state + j));
    if (!v8) {
        s.in_axes = flags(c, "scan_input_axes", s.n_in);
        s.in_dirs = flags(c, "scan_input_directions", s.n_in);
        s.out_axes = flags(c, "scan_output_axes", s.n_out);
        s.out_dirs = flags(c, "scan_output_directions", s.n_out);
        int64_t steps = -1;
        for (std::size_t j = 0; j < s.n_in; ++j) {
            s.in_axes[j] = c.axis(s.in_axes[j], xs[j].rank());
            const int64_t len = xs[j].shape()[static_cast<int>(s.in_axes[j])];
            c.check(steps < 0 || len == steps, "scan input ", j, " has length ", len, " along axis ",
                    s.in_axes[j], ", the others ", steps);
            steps = len;
        }
        return scan_core(c, states, xs, s, steps);
    }
    // Opset 8: every input has a batch dim 0 and scans along dim 1; run each batch row on its own.
    s.in_axes.assign(s.n_in, 0);
    s.in_dirs = flags(c, "directions", s.n_in);
    s.out_axes.assign(s.n_out, 0);
    s.out_dirs.assign(s.n_out, 0);
    for (const TensorAny& x : xs)
        c.check(x.rank() >= 2, "scan inputs need [batch, sequence, ...], got ", x.shape());
    const int64_t batch = xs[0].shape()[0], steps = xs[0].shape()[1];
    for (const TensorAny& x : xs)
        c.check(x.shape()[0] == batch && x.shape()[1] == steps,
                "scan inputs disagree on [batch, sequence]: ", xs[0].shape(), " and ", x.shape());
    std::vector<int64_t> lens(static_cast<std::size_t>(batch), steps);
    if (c.has(0)) {
        lens = c.ints_of(0);
        c.check(static_cast<int64_t>(lens.size()) == batch, "sequence_lens has ", lens.size(),
                " entries for batch ", batch);
    }
    std::vector<Outs> rows;
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t len = lens[static_cast<std::size_t>(b)];
        c.check(len >= 1 && len <= steps, "sequence_lens[", b, "] = ", len, " is outside [1, ", steps, "]");
        auto row = [&](const TensorAny& x) { return ops::squeeze_dim(ops::narrow(x, 0, b, 1), 0); };
        Outs st, in;
        for (const TensorAny& x : states) st.push_back(row(x));
        for (const TensorAny& x : xs) in.push_back(ops::narrow(row(x), 0, 0, len));
        Outs out = scan_core(c, st, in, s, len);
        for (std::size_t k = s.n_state; k < out.size(); ++k)
            if (len < steps) {  // pad the scan outputs to the full sequence with zeros
                Dims pad = out[k].shape();
                pad[0] = steps - len;
                out[k] = ops::cat({out[k], ops::full(pad, 0, out[k].dtype(), c.device())}, 0);
            }
        rows.push_back(std::move(out));
    }
    Outs out;
    for (std::size_t k = 0; k < s.n_state + s.n_out; ++k) {
        Outs parts;
        for (const Outs& r : rows) parts.push_back(r[k]);
        out.push_back(ops::stack(parts, 0));
    }
    return out;
}

}  // namespace

void add_control_ops(OpTable& t) {
    t.add("If", 1, if_op);
    t.add("Loop", 1, loop);
    t.add("Scan", 8, scan);
}

}  // namespace burn::onnx::detail
