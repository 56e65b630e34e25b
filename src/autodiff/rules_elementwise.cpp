// Gradient rules of the elementwise ops: the vjp column of elementwise.def, expanded here.
#include <array>
#include <cmath>

#include "autodiff/rules.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::autodiff {

namespace {

using namespace ops;
using Grads = std::vector<TensorAny>;

// Helpers the vjp column uses.
TensorAny mask_of(TensorAny m, const TensorAny& like) {
    return cast(std::move(m), like.dtype());
}
TensorAny leaky_relu_grad(const TensorAny& x, double slope) {
    return add_scalar(mul_scalar(mask_of(greater_elem(x, 0), x), 1.0 - slope), slope);
}
TensorAny silu_grad(const TensorAny& x) {
    auto s = sigmoid(x);
    return mul(s, add_scalar(mul(x, rsub_scalar(s, 1)), 1));  // s * (1 + x (1 - s))
}
/// d^2 gelu / dx^2 = phi(x) (2 - x^2), for gelu_backward's x-derivative.
TensorAny gelu_grad2(const TensorAny& x) {
    auto x2 = square(x);
    return mul(mul_scalar(exp(mul_scalar(x2, -0.5)), 0.39894228040143267794), rsub_scalar(x2, 2));
}
TensorAny gelu_tanh_grad(const TensorAny& x) {
    const double k = 0.79788456080286535588, c = 0.044715;
    auto x2 = square(x);
    auto inner = mul_scalar(mul(x, add_scalar(mul_scalar(x2, c), 1)), k);  // k (x + c x^3)
    auto t = tanh(inner);
    auto dinner = mul_scalar(add_scalar(mul_scalar(x2, 3 * c), 1), k);  // k (1 + 3 c x^2)
    auto left = mul_scalar(add_scalar(t, 1), 0.5);
    auto right = mul(mul_scalar(mul(x, rsub_scalar(square(t), 1)), 0.5), dinner);
    return add(left, right);
}
TensorAny softplus_grad(const TensorAny& x, double beta, double threshold) {
    auto bx = mul_scalar(x, beta);
    auto over = greater_elem(bx, threshold);
    return where(over, full(Dims::filled(x.rank(), 1), 1.0, x.dtype(), x.device()), sigmoid(bx));
}
TensorAny clamp_grad(const TensorAny& x, double lo, double hi) {
    return mask_of(bool_and(greater_equal_elem(x, lo), lower_equal_elem(x, hi)), x);
}
TensorAny powi_grad(const TensorAny& x, double n) {
    if (n == 0) return zeros_as(x);
    return mul_scalar(powi_scalar(x, n - 1), n);
}

#define BURN_UNARY(name, kinds, body, vjp, domain)                                    \
    Grads name##_vjp(const VjpContext& c) {                                           \
        [[maybe_unused]] const TensorAny& x = c.x[0];                                 \
        [[maybe_unused]] const TensorAny& y = c.y[0];                                 \
        [[maybe_unused]] const TensorAny& g = c.g[0];                                 \
        [[maybe_unused]] const double p0 = c.call.scalars[0], p1 = c.call.scalars[1]; \
        return {vjp};                                                                 \
    }
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    Grads name##_vjp(const VjpContext& c) {                  \
        [[maybe_unused]] const TensorAny& a = c.x[0];        \
        [[maybe_unused]] const TensorAny& b = c.x[1];        \
        [[maybe_unused]] const TensorAny& y = c.y[0];        \
        [[maybe_unused]] const TensorAny& g = c.g[0];        \
        Grads out(2);                                        \
        if (c.needs[0]) out[0] = vjp_a;                      \
        if (c.needs[1]) out[1] = vjp_b;                      \
        return out;                                          \
    }
#include "burn/backend/elementwise.def"

}  // namespace

void register_elementwise_rules(RuleTable& t) {
#define BURN_UNARY(name, kinds, body, vjp, domain) t[static_cast<std::size_t>(OpId::name)] = &name##_vjp;
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    t[static_cast<std::size_t>(OpId::name)] = &name##_vjp;
#include "burn/backend/elementwise.def"
}

namespace {
const RuleTable& table() {
    static const RuleTable t = [] {
        RuleTable r{};
        r.fill(nullptr);
        register_elementwise_rules(r);
        register_structural_rules(r);
        register_conv_rules(r);
        register_norm_rules(r);
        register_attention_rules(r);
        return r;
    }();
    return t;
}
}  // namespace

VjpRule vjp_rule(OpId op) {
    return table()[static_cast<std::size_t>(op)];
}

bool is_non_differentiable(OpId op) {
    switch (op_info(op).cls) {
        case OpClass::unary_pred:
        case OpClass::compare:
            return true;
        default:
            break;
    }
    if (op_info(op).kinds == OpKinds::int_only) return true;  // bit operations of Int tensors
    switch (op) {
        case OpId::bool_and:
        case OpId::bool_or:
        case OpId::bool_xor:
        case OpId::fill:
        case OpId::arange:
        case OpId::random:
        case OpId::argmax:
        case OpId::argmin:
        case OpId::any_dim:
        case OpId::adam_step:  // an optimizer update: no gradient flows through it
        case OpId::adam_step_multi:
        case OpId::layer_norm_backward:  // adjoints of fused ops: no second derivatives
        case OpId::cross_entropy_backward:
        case OpId::attention_backward:
        case OpId::all_dim:
            return true;
        default:
            return false;
    }
}

namespace {
[[gnu::noinline]] std::array<bool, kNumOps> differentiable_table() {
    std::array<bool, kNumOps> t{};
    for (int i = 0; i < kNumOps; ++i)
        t[static_cast<std::size_t>(i)] =
            !is_non_differentiable(static_cast<OpId>(i)) && vjp_rule(static_cast<OpId>(i)) != nullptr;
    return t;
}
}  // namespace

bool is_differentiable(OpId op) {
    // Asked on every op the autodiff decorator runs: both parts are fixed per op, so read from a table.
    static const std::array<bool, kNumOps> table = differentiable_table();
    if (static_cast<std::size_t>(op) >= table.size()) (void)op_info(op);  // throws naming the id
    return table[static_cast<std::size_t>(op)];
}

}  // namespace burn::autodiff
