// Gradient rules of the module ops (ops.def family nn). Each forward op's rule calls its adjoint (the
// *_backward row); each adjoint's rule calls the forward op again, so the backward rows are
// differentiable too (they are linear in the gradient they take).
#include "autodiff/rules.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn::autodiff {

namespace {

using Grads = std::vector<TensorAny>;

/// Sums g [N, C, ...] over every dim but the channels: [C].
TensorAny channel_sum(const TensorAny& g) {
    const int64_t n = g.shape()[0], ch = g.shape()[1];
    TensorAny t = ops::reshape(g, Dims{n, ch, -1});
    if (t.shape()[2] == 0 || n == 0) return ops::full(Dims{ch}, 0.0, g.dtype(), g.device());
    t = ops::sum_dim(ops::sum_dim(std::move(t), 2), 0);
    return ops::reshape(std::move(t), Dims{ch});
}

Grads conv_rule(const VjpContext& c) {
    const auto spec = c.call.attrs<attrs::Conv>();
    const TensorAny &x = c.x[0], &w = c.x[1], &g = c.g[0];
    Grads out(c.x.size());
    if (c.needs[0]) out[0] = ops::detail::conv_backward_input(g, w, spec, x.shape());
    if (c.needs[1]) out[1] = ops::detail::conv_backward_weight(x, g, spec, w.shape());
    if (c.x.size() > 2 && c.needs[2]) out[2] = channel_sum(g);
    return out;
}

// y = conv_backward_input(g, w): linear in g with adjoint conv, and conv_backward_weight in w.
Grads conv_backward_input_rule(const VjpContext& c) {
    const auto spec = c.call.attrs<attrs::Conv>();
    const TensorAny &dy = c.x[0], &w = c.x[1], &G = c.g[0];
    Grads out(2);
    if (c.needs[0]) out[0] = ops::detail::conv_call(G, w, std::nullopt, spec, dy.shape());
    if (c.needs[1]) out[1] = ops::detail::conv_backward_weight(G, dy, spec, w.shape());
    return out;
}

// y = conv_backward_weight(x, g): bilinear; <y, G> = <conv(x, G), g>.
Grads conv_backward_weight_rule(const VjpContext& c) {
    const auto spec = c.call.attrs<attrs::Conv>();
    const TensorAny &x = c.x[0], &dy = c.x[1], &G = c.g[0];
    Grads out(2);
    if (c.needs[0]) out[0] = ops::detail::conv_backward_input(dy, G, spec, x.shape());
    if (c.needs[1]) out[1] = ops::detail::conv_call(x, G, std::nullopt, spec, dy.shape());
    return out;
}

Grads max_pool2d_rule(const VjpContext& c) {
    if (!c.g[0].defined()) return {TensorAny()};
    return {ops::detail::max_pool2d_backward(
        c.g[0], c.y[1], attrs::MaxPool2dBackward{c.call.attrs<attrs::MaxPool2d>().window, c.x[0].shape()})};
}

// dx = scatter of g to the indices: the adjoint gathers G at the indices.
Grads max_pool2d_backward_rule(const VjpContext& c) {
    const TensorAny &dy = c.x[0], &ind = c.x[1], &G = c.g[0];
    const Dims& s = dy.shape();
    if (dy.numel() == 0) return {ops::full(s, 0.0, dy.dtype(), dy.device()), TensorAny()};
    TensorAny flat = ops::reshape(G, Dims{s[0], s[1], -1});
    TensorAny picked = ops::gather(std::move(flat), 2, ops::reshape(ind, Dims{s[0], s[1], -1}));
    return {ops::reshape(std::move(picked), s), TensorAny()};
}

/// The pool's attributes with output 0's shape replaced (the adjoint's output is the other side's).
attrs::AvgPool2d avg_attrs(const VjpContext& c, const Dims& shape) {
    auto a = c.call.attrs<attrs::AvgPool2d>();
    a.shape = shape;
    return a;
}
Grads avg_pool2d_rule(const VjpContext& c) {
    return {ops::detail::avg_pool2d_backward(c.g[0], avg_attrs(c, c.x[0].shape()))};
}
Grads avg_pool2d_backward_rule(const VjpContext& c) {
    return {ops::detail::avg_pool2d_call(c.g[0], avg_attrs(c, c.x[0].shape()))};
}
Grads adaptive_avg_pool2d_rule(const VjpContext& c) {
    return {ops::detail::adaptive_avg_pool2d_backward(c.g[0], c.x[0].shape())};
}
Grads adaptive_avg_pool2d_backward_rule(const VjpContext& c) {
    return {ops::detail::adaptive_avg_pool2d_call(c.g[0], c.x[0].shape(), "adaptive_avg_pool2d")};
}
attrs::Interpolate interp_attrs(const VjpContext& c, const Dims& shape) {
    auto a = c.call.attrs<attrs::Interpolate>();
    a.shape = shape;
    return a;
}
Grads interpolate_rule(const VjpContext& c) {
    return {ops::detail::interpolate_backward(c.g[0], interp_attrs(c, c.x[0].shape()))};
}
Grads interpolate_backward_rule(const VjpContext& c) {
    return {ops::detail::interpolate_call(c.g[0], interp_attrs(c, c.x[0].shape()), "interpolate")};
}

}  // namespace

void register_conv_rules(RuleTable& t) {
    t[static_cast<std::size_t>(OpId::conv)] = &conv_rule;
    t[static_cast<std::size_t>(OpId::conv_backward_input)] = &conv_backward_input_rule;
    t[static_cast<std::size_t>(OpId::conv_backward_weight)] = &conv_backward_weight_rule;
    t[static_cast<std::size_t>(OpId::max_pool2d)] = &max_pool2d_rule;
    t[static_cast<std::size_t>(OpId::max_pool2d_backward)] = &max_pool2d_backward_rule;
    t[static_cast<std::size_t>(OpId::avg_pool2d)] = &avg_pool2d_rule;
    t[static_cast<std::size_t>(OpId::avg_pool2d_backward)] = &avg_pool2d_backward_rule;
    t[static_cast<std::size_t>(OpId::adaptive_avg_pool2d)] = &adaptive_avg_pool2d_rule;
    t[static_cast<std::size_t>(OpId::adaptive_avg_pool2d_backward)] = &adaptive_avg_pool2d_backward_rule;
    t[static_cast<std::size_t>(OpId::interpolate)] = &interpolate_rule;
    t[static_cast<std::size_t>(OpId::interpolate_backward)] = &interpolate_backward_rule;
}

}  // namespace burn::autodiff
