// ONNX elementwise ops: unary math and activations, binary arithmetic and comparisons (numpy
// broadcasting across ranks), logic, Where, Clip, Cast, and the variadic Max/Min/Sum/Mean.
#include <cmath>
#include <limits>

#include "burn/nn/activation_shrink.hpp"
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

TensorAny float_in(const OpContext& c, std::size_t i = 0) {
    const TensorAny& x = c.in(i);
    c.check(is_float(x.dtype()), "needs a float input, got ", x.dtype(), " ", x.shape());
    return x;
}

std::pair<TensorAny, TensorAny> operands(const OpContext& c) {
    check_same_dtype(c, c.in(0), c.in(1));
    return align(c.in(0), c.in(1));
}

TensorAny zero_like(const TensorAny& x) {
    return scalar_like(x, 0);
}

TensorAny elu(const TensorAny& x, double alpha) {
    TensorAny neg = ops::mul_scalar(ops::expm1(ops::min_pair(x, zero_like(x))), alpha);
    return ops::where(ops::greater_elem(x, 0), x, neg);
}

TensorAny hard_sigmoid(const TensorAny& x, double alpha, double beta) {
    return ops::clamp(ops::add_scalar(ops::mul_scalar(x, alpha), beta), 0, 1);
}

TensorAny softplus(const TensorAny& x) {
    return ops::softplus(x, 1, 20);
}

/// Folds a variadic op (Max, Min, Sum) over its inputs with numpy broadcasting.
template <TensorAny (*F)(TensorAny, TensorAny)>
Outs fold(const OpContext& c) {
    c.check(c.num_inputs() >= 1, "needs at least one input");
    TensorAny acc = c.in(0);
    for (std::size_t i = 1; i < c.num_inputs(); ++i) {
        check_same_dtype(c, acc, c.in(i));
        auto [a, b] = align(acc, c.in(i));
        acc = F(std::move(a), std::move(b));
    }
    return {acc};
}

/// ONNX Mod: fmod = 0 takes the divisor's sign (integers only), fmod = 1 the dividend's (C fmod).
Outs mod(const OpContext& c) {
    auto [a, b] = operands(c);
    const bool fmod = c.attr_int("fmod", 0) != 0;
    c.check(fmod || !is_float(a.dtype()),
            "fmod = 0 is defined for integer inputs only; set fmod = 1 for floats");
    if (!fmod) return {ops::remainder(a, b)};
    if (is_float(a.dtype())) return {ops::sub(a, ops::mul(ops::trunc(ops::div(a, b)), b))};
    return {ops::sub(a, ops::mul(ops::div(a, b), b))};  // integer div truncates
}

Outs clip(const OpContext& c) {
    TensorAny x = c.in(0);
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (c.opset() < 11) {
        lo = c.attr_float("min", lo);
        hi = c.attr_float("max", hi);
    } else {
        if (c.has(1)) lo = c.doubles_of(1).at(0);
        if (c.has(2)) hi = c.doubles_of(2).at(0);
    }
    if (!is_float(x.dtype())) {
        lo = std::max(lo, -9.2e18);
        hi = std::min(hi, 9.2e18);
    }
    return {ops::clamp(x, lo, hi)};
}

Outs cast(const OpContext& c) {
    const int64_t to = c.attr_int("to");
    const auto dt = dtype_of_onnx(static_cast<int32_t>(to));
    c.check(dt.has_value(), "cannot cast to ", onnx_type_name(static_cast<int32_t>(to)),
            " (burn has no such dtype)");
    return {ops::cast(c.in(0), *dt)};
}

Outs is_inf(const OpContext& c) {
    const TensorAny x = c.in(0);
    const bool neg = c.attr_int("detect_negative", 1) != 0, pos = c.attr_int("detect_positive", 1) != 0;
    if (neg && pos) return {ops::is_inf(x)};
    TensorAny inf = ops::is_inf(x);
    if (!neg && !pos) return {ops::bool_and(inf, ops::bool_not(inf))};
    return {ops::bool_and(inf, pos ? ops::greater_elem(x, 0) : ops::lower_elem(x, 0))};
}

Outs shrink(const OpContext& c) {
    const double lambd = c.attr_float("lambd", 0.5), bias = c.attr_float("bias", 0.0);
    return {activation::any::shrink(c.in(0), lambd, bias)};
}

Outs prelu(const OpContext& c) {
    auto [x, slope] = operands(c);
    return {ops::where(ops::lower_elem(x, 0), ops::mul(x, slope), x)};
}

Outs where(const OpContext& c) {
    const TensorAny& cond = c.in(0);
    c.check(cond.dtype() == DType::boolean, "the condition must be bool, got ", cond.dtype());
    check_same_dtype(c, c.in(1), c.in(2));
    auto xs = align_all({cond, c.in(1), c.in(2)});
    return {ops::where(xs[0], xs[1], xs[2])};
}

Outs mean(const OpContext& c) {
    TensorAny s = fold<ops::add>(c)[0];
    return {ops::div_scalar(s, static_cast<double>(c.num_inputs()))};
}

Outs pow(const OpContext& c) {
    TensorAny a = c.in(0), b = c.in(1);
    if (b.dtype() != a.dtype()) b = ops::cast(b, a.dtype());  // Pow allows a different exponent type
    auto [x, y] = align(a, b);
    if (!is_float(x.dtype())) return {ops::powi(x, y)};
    return {ops::powf(x, y)};
}

#define BURN_ONNX_UNARY(op, expr)                     \
    t.add(op, 1, [](const OpContext& c) -> Outs {     \
        [[maybe_unused]] const TensorAny x = c.in(0); \
        return {expr};                                \
    })
#define BURN_ONNX_BINARY(op, fn)                  \
    t.add(op, 1, [](const OpContext& c) -> Outs { \
        auto [a, b] = operands(c);                \
        return {fn(a, b)};                        \
    })

}  // namespace

void add_elementwise_ops(OpTable& t) {
    BURN_ONNX_UNARY("Identity", x);
    BURN_ONNX_UNARY("Abs", ops::abs(x));
    BURN_ONNX_UNARY("Neg", ops::neg(x));
    BURN_ONNX_UNARY("Sign", ops::sign(x));
    BURN_ONNX_UNARY("Exp", ops::exp(float_in(c)));
    BURN_ONNX_UNARY("Log", ops::log(float_in(c)));
    BURN_ONNX_UNARY("Sqrt", ops::sqrt(float_in(c)));
    BURN_ONNX_UNARY("Reciprocal", ops::recip(float_in(c)));
    BURN_ONNX_UNARY("Sin", ops::sin(float_in(c)));
    BURN_ONNX_UNARY("Cos", ops::cos(float_in(c)));
    BURN_ONNX_UNARY("Tan", ops::tan(float_in(c)));
    BURN_ONNX_UNARY("Tanh", ops::tanh(float_in(c)));
    BURN_ONNX_UNARY("Sinh", ops::sinh(float_in(c)));
    BURN_ONNX_UNARY("Cosh", ops::cosh(float_in(c)));
    BURN_ONNX_UNARY("Asin", ops::asin(float_in(c)));
    BURN_ONNX_UNARY("Acos", ops::acos(float_in(c)));
    BURN_ONNX_UNARY("Atan", ops::atan(float_in(c)));
    BURN_ONNX_UNARY("Asinh", ops::log(ops::add(x, ops::sqrt(ops::add_scalar(ops::square(float_in(c)), 1)))));
    BURN_ONNX_UNARY("Acosh", ops::log(ops::add(x, ops::sqrt(ops::sub_scalar(ops::square(float_in(c)), 1)))));
    BURN_ONNX_UNARY(
        "Atanh",
        ops::mul_scalar(ops::log(ops::div(ops::add_scalar(float_in(c), 1), ops::rsub_scalar(x, 1))), 0.5));
    BURN_ONNX_UNARY("Floor", ops::floor(float_in(c)));
    BURN_ONNX_UNARY("Ceil", ops::ceil(float_in(c)));
    BURN_ONNX_UNARY("Round", ops::round(float_in(c)));
    BURN_ONNX_UNARY("Erf", ops::erf(float_in(c)));
    BURN_ONNX_UNARY("Not", ops::bool_not(x));
    BURN_ONNX_UNARY("IsNaN", ops::is_nan(x));
    BURN_ONNX_UNARY("Relu", ops::relu(x));
    BURN_ONNX_UNARY("Sigmoid", ops::sigmoid(float_in(c)));
    BURN_ONNX_UNARY("Softplus", softplus(float_in(c)));
    BURN_ONNX_UNARY("Softsign", ops::div(x, ops::add_scalar(ops::abs(float_in(c)), 1)));
    BURN_ONNX_UNARY("LeakyRelu", ops::leaky_relu(float_in(c), c.attr_float("alpha", 0.01)));
    BURN_ONNX_UNARY("Elu", elu(float_in(c), c.attr_float("alpha", 1.0)));
    BURN_ONNX_UNARY(
        "Celu",
        ops::add(ops::relu(x),
                 ops::min_pair(zero_like(x), ops::mul_scalar(ops::expm1(ops::div_scalar(
                                                                 float_in(c), c.attr_float("alpha", 1.0))),
                                                             c.attr_float("alpha", 1.0)))));
    BURN_ONNX_UNARY("Selu",
                    ops::mul_scalar(elu(float_in(c), c.attr_float("alpha", 1.67326319217681884765625)),
                                    c.attr_float("gamma", 1.05070102214813232421875)));
    BURN_ONNX_UNARY("HardSigmoid",
                    hard_sigmoid(float_in(c), c.attr_float("alpha", 0.2), c.attr_float("beta", 0.5)));
    BURN_ONNX_UNARY("HardSwish", ops::mul(x, hard_sigmoid(float_in(c), 1.0 / 6.0, 0.5)));
    BURN_ONNX_UNARY("Mish", ops::mul(x, ops::tanh(softplus(float_in(c)))));
    BURN_ONNX_UNARY("ThresholdedRelu",
                    ops::where(ops::greater_elem(float_in(c), c.attr_float("alpha", 1.0)), x, zero_like(x)));
    t.add("Shrink", 9, shrink);
    BURN_ONNX_BINARY("Add", ops::add);
    BURN_ONNX_BINARY("Sub", ops::sub);
    BURN_ONNX_BINARY("Mul", ops::mul);
    BURN_ONNX_BINARY("Div", ops::div);
    BURN_ONNX_BINARY("Equal", ops::equal);
    BURN_ONNX_BINARY("Greater", ops::greater);
    BURN_ONNX_BINARY("GreaterOrEqual", ops::greater_equal);
    BURN_ONNX_BINARY("Less", ops::lower);
    BURN_ONNX_BINARY("LessOrEqual", ops::lower_equal);
    BURN_ONNX_BINARY("And", ops::bool_and);
    BURN_ONNX_BINARY("Or", ops::bool_or);
    BURN_ONNX_BINARY("Xor", ops::bool_xor);
    t.add("Pow", 1, pow);
    t.add("Mod", 10, mod);
    t.add("Clip", 1, clip);
    t.add("Cast", 1, cast);
    t.add("CastLike", 15, [](const OpContext& c) -> Outs { return {ops::cast(c.in(0), c.in(1).dtype())}; });
    t.add("IsInf", 10, is_inf);
    t.add("PRelu", 1, prelu);
    t.add("Where", 9, where);
    t.add("Max", 1, fold<ops::max_pair>);
    t.add("Min", 1, fold<ops::min_pair>);
    t.add("Sum", 1, fold<ops::add>);
    t.add("Mean", 1, mean);
}

}  // namespace burn::onnx::detail
