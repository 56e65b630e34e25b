// ONNX training-preview optimizers (ai.onnx.preview.training, version 1): Adagrad, Adam and
// Momentum (modes "standard" and "nesterov"), each updating any number of tensors per node.
//
// The inputs are R (learning rate), T (update count), then the n tensors X, their gradients G and
// their optimizer states (Adagrad: H; Adam: V, H; Momentum: V), each group of n in order; the
// outputs are the new X, then the new states, in the same grouping. R and T are scalars read on the
// host (small parameter tensors: T decides a branch); the updates use burn::ops on every device.
#include <cmath>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

/// The node's R and T and the number n of tensors it updates (states: groups after X).
struct OptStep {
    double r = 0;
    int64_t t = 0;
    std::size_t n = 0;
};

OptStep step_of(const OpContext& c, std::size_t groups) {
    c.check(c.num_inputs() >= 2 + groups && (c.num_inputs() - 2) % groups == 0, "takes R, T and ", groups,
            " groups of equally many tensors; got ", c.num_inputs(), " inputs");
    OptStep s;
    s.n = (c.num_inputs() - 2) / groups;
    c.check(!is_float(c.in(1).dtype()) && c.in(1).dtype() != DType::boolean,
            "T (the update count) must be an integer tensor, got ", c.in(1).dtype(), " ", c.in(1).shape());
    const std::vector<double> r = c.doubles_of(0);
    const std::vector<int64_t> t = c.ints_of(1);
    c.check(r.size() == 1 && t.size() == 1, "R and T must be scalars, got ", c.in(0).shape(), " and ",
            c.in(1).shape());
    s.r = r[0], s.t = t[0];
    // The outputs: the new X and each new state (not G), n of each.
    c.check(c.node().outputs.size() <= (groups - 1) * s.n, "has ", c.node().outputs.size(),
            " outputs; at most ", (groups - 1) * s.n, " for ", s.n, " tensors");
    for (std::size_t i = 2; i < c.num_inputs(); ++i) {
        c.check(is_float(c.in(i).dtype()), "input ", i, " must be a float tensor, got ", c.in(i).dtype());
        check_same_dtype(c, c.in(2), c.in(i));
    }
    return s;
}

/// Input k of group g (group 0: X, 1: G, then the states).
TensorAny group_in(const OpContext& c, const OptStep& s, std::size_t g, std::size_t k) {
    return c.in(2 + g * s.n + k);
}

/// norm_coefficient * X + G, with X and G at one rank.
TensorAny regularized(const TensorAny& x, const TensorAny& g, double norm) {
    auto [a, b] = align(x, g);
    return norm == 0 ? b : ops::add(ops::mul_scalar(a, norm), b);
}

TensorAny sub_b(const TensorAny& a, const TensorAny& b) {
    auto [l, r] = align(a, b);
    return ops::sub(l, r);
}

TensorAny add_b(const TensorAny& a, const TensorAny& b) {
    auto [l, r] = align(a, b);
    return ops::add(l, r);
}

double required_float(const OpContext& c, const char* name) {
    c.check(c.has_attr(name), "needs the attribute '", name, "'");
    return c.attr_float(name, 0);
}

Outs adagrad(const OpContext& c) {
    const OptStep s = step_of(c, 3);
    const double norm = c.attr_float("norm_coefficient", 0), eps = c.attr_float("epsilon", 1e-6),
                 decay = c.attr_float("decay_factor", 0);
    const double r = s.r / (1 + static_cast<double>(s.t) * decay);
    Outs xs, hs;
    for (std::size_t k = 0; k < s.n; ++k) {
        const TensorAny x = group_in(c, s, 0, k);
        const TensorAny g = regularized(x, group_in(c, s, 1, k), norm);
        const TensorAny h = add_b(group_in(c, s, 2, k), ops::square(g));
        const TensorAny step = ops::div(ops::mul_scalar(g, r), ops::add_scalar(ops::sqrt(h), eps));
        xs.push_back(sub_b(x, step));
        hs.push_back(h);
    }
    xs.insert(xs.end(), hs.begin(), hs.end());
    return xs;
}

Outs adam(const OpContext& c) {
    const OptStep s = step_of(c, 4);
    const double norm = c.attr_float("norm_coefficient", 0), post = c.attr_float("norm_coefficient_post", 0),
                 alpha = c.attr_float("alpha", 0.9), beta = c.attr_float("beta", 0.999),
                 eps = c.attr_float("epsilon", 1e-6);
    double r = s.r;
    if (s.t > 0) {
        const double tt = static_cast<double>(s.t);
        r = r * std::sqrt(1 - std::pow(beta, tt)) / (1 - std::pow(alpha, tt));
    }
    Outs xs, vs, hs;
    for (std::size_t k = 0; k < s.n; ++k) {
        const TensorAny x = group_in(c, s, 0, k);
        const TensorAny g = regularized(x, group_in(c, s, 1, k), norm);
        const TensorAny v =
            add_b(ops::mul_scalar(group_in(c, s, 2, k), alpha), ops::mul_scalar(g, 1 - alpha));
        const TensorAny h =
            add_b(ops::mul_scalar(group_in(c, s, 3, k), beta), ops::mul_scalar(ops::square(g), 1 - beta));
        const TensorAny step = ops::mul_scalar(ops::div(v, ops::add_scalar(ops::sqrt(h), eps)), r);
        TensorAny xn = sub_b(x, step);
        if (post != 0) xn = ops::mul_scalar(xn, 1 - post);
        xs.push_back(xn);
        vs.push_back(v);
        hs.push_back(h);
    }
    xs.insert(xs.end(), vs.begin(), vs.end());
    xs.insert(xs.end(), hs.begin(), hs.end());
    return xs;
}

Outs momentum(const OpContext& c) {
    const OptStep s = step_of(c, 3);
    const double norm = required_float(c, "norm_coefficient"), alpha = required_float(c, "alpha"),
                 beta = required_float(c, "beta");
    c.check(c.has_attr("mode"), "needs the attribute 'mode' (standard or nesterov)");
    const std::string mode = c.attr_string("mode", "");
    c.check(mode == "standard" || mode == "nesterov", "mode '", mode, "' is not standard or nesterov");
    const double beta_adj = s.t > 0 ? beta : 1.0;
    Outs xs, vs;
    for (std::size_t k = 0; k < s.n; ++k) {
        const TensorAny x = group_in(c, s, 0, k);
        const TensorAny g = regularized(x, group_in(c, s, 1, k), norm);
        const TensorAny v = add_b(ops::mul_scalar(group_in(c, s, 2, k), alpha), ops::mul_scalar(g, beta_adj));
        const TensorAny dir = mode == "standard" ? v : add_b(g, ops::mul_scalar(v, alpha));
        xs.push_back(sub_b(x, ops::mul_scalar(dir, s.r)));
        vs.push_back(v);
    }
    xs.insert(xs.end(), vs.begin(), vs.end());
    return xs;
}

}  // namespace

void add_training_ops(OpTable& t) {
    const std::string domain = "ai.onnx.preview.training";
    t.add("Adagrad", 1, adagrad, domain);
    t.add("Adam", 1, adam, domain);
    t.add("Momentum", 1, momentum, domain);
}

}  // namespace burn::onnx::detail
