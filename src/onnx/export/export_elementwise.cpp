// ONNX nodes for the rows of elementwise.def (opset 17). A row that has no mapping here and has a
// decomposition (trunc, relu_backward, ...) is decomposed by dispatch before it reaches the recording.
#include <cmath>
#include <map>
#include <string>

#include "burn/backend/op_attrs.hpp"
#include "onnx/export/emit.hpp"

namespace burn::onnx::exporter {

namespace {

/// Rows that are one ONNX op of the same arity.
const std::map<OpId, const char*>& direct_ops() {
    static const std::map<OpId, const char*> m = {
        {OpId::neg, "Neg"},         {OpId::abs, "Abs"},
        {OpId::sign, "Sign"},       {OpId::recip, "Reciprocal"},
        {OpId::sqrt, "Sqrt"},       {OpId::exp, "Exp"},
        {OpId::log, "Log"},         {OpId::erf, "Erf"},
        {OpId::sin, "Sin"},         {OpId::cos, "Cos"},
        {OpId::tan, "Tan"},         {OpId::tanh, "Tanh"},
        {OpId::sinh, "Sinh"},       {OpId::cosh, "Cosh"},
        {OpId::asin, "Asin"},       {OpId::acos, "Acos"},
        {OpId::atan, "Atan"},       {OpId::floor, "Floor"},
        {OpId::ceil, "Ceil"},       {OpId::round, "Round"},
        {OpId::relu, "Relu"},       {OpId::sigmoid, "Sigmoid"},
        {OpId::is_nan, "IsNaN"},    {OpId::is_inf, "IsInf"},
        {OpId::bool_not, "Not"},    {OpId::add, "Add"},
        {OpId::sub, "Sub"},         {OpId::mul, "Mul"},
        {OpId::div, "Div"},         {OpId::powf, "Pow"},
        {OpId::max_pair, "Max"},    {OpId::min_pair, "Min"},
        {OpId::bool_and, "And"},    {OpId::bool_or, "Or"},
        {OpId::bool_xor, "Xor"},    {OpId::equal, "Equal"},
        {OpId::greater, "Greater"}, {OpId::greater_equal, "GreaterOrEqual"},
        {OpId::lower, "Less"},      {OpId::lower_equal, "LessOrEqual"},
        {OpId::where, "Where"},
    };
    return m;
}

/// Rows written with a few ONNX ops below.
bool composed(OpId op) {
    switch (op) {
        case OpId::square:
        case OpId::log1p:
        case OpId::expm1:
        case OpId::leaky_relu:
        case OpId::silu:
        case OpId::gelu:
        case OpId::gelu_tanh:
        case OpId::softplus:
        case OpId::clamp:
        case OpId::powi_scalar:
        case OpId::remainder:
        case OpId::not_equal:
            return true;
        default:
            return false;
    }
}

}  // namespace

bool can_export_elementwise(OpId op, DType dtype) {
    if (op == OpId::relu && !is_float(dtype)) return false;  // ONNX Relu is float-only before opset 14
    return direct_ops().count(op) != 0 || composed(op);
}

void emit_elementwise(Emitter& e) {
    const OpCall& c = e.call();
    const DType dt = e.in_meta(0).dtype;
    const std::string y = e.out(0);
    auto it = direct_ops().find(c.op);
    if (it != direct_ops().end()) {
        e.op1(it->second, e.broadcast_inputs(), y);
        return;
    }
    const std::string x = e.in(0);
    auto k = [&](double v) { return e.const_scalar(v, dt); };
    switch (c.op) {
        case OpId::square:
            e.op1("Mul", {x, x}, y);
            return;
        case OpId::log1p:
            e.op1("Log", {e.op1("Add", {x, k(1)})}, y);
            return;
        case OpId::expm1:
            e.op1("Sub", {e.op1("Exp", {x}), k(1)}, y);
            return;
        case OpId::leaky_relu:
            e.op1("LeakyRelu", {x}, y, {attr_f("alpha", c.attrs<attrs::LeakyRelu>().slope)});
            return;
        case OpId::silu:
            e.op1("Mul", {x, e.op1("Sigmoid", {x})}, y);
            return;
        case OpId::gelu: {  // x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2))
            auto erf = e.op1("Erf", {e.op1("Mul", {x, k(M_SQRT1_2)})});
            e.op1("Mul", {e.op1("Mul", {x, k(0.5)}), e.op1("Add", {erf, k(1)})}, y);
            return;
        }
        case OpId::gelu_tanh: {  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
            auto x3 = e.op1("Mul", {e.op1("Mul", {x, x}), x});
            auto inner = e.op1("Add", {x, e.op1("Mul", {x3, k(0.044715)})});
            auto t = e.op1("Tanh", {e.op1("Mul", {inner, k(std::sqrt(2.0 / M_PI))})});
            e.op1("Mul", {e.op1("Mul", {x, k(0.5)}), e.op1("Add", {t, k(1)})}, y);
            return;
        }
        case OpId::softplus: {  // log(1 + exp(beta x)) / beta, x where beta x > threshold
            const auto a = c.attrs<attrs::Softplus>();
            auto bx = a.beta == 1 ? x : e.op1("Mul", {x, k(a.beta)});
            auto sp = e.op1("Softplus", {bx});
            if (a.beta != 1) sp = e.op1("Div", {sp, k(a.beta)});
            e.op1("Where", {e.op1("Greater", {bx, k(a.threshold)}), x, sp}, y);
            return;
        }
        case OpId::clamp: {
            const auto a = c.attrs<attrs::Clamp>();
            e.op1("Clip", {x, k(a.min), k(a.max)}, y);
            return;
        }
        case OpId::powi_scalar:
            e.op1("Pow", {x, k(static_cast<double>(c.attrs<attrs::Powi>().exponent))}, y);
            return;
        case OpId::remainder: {
            auto ab = e.broadcast_inputs();
            if (!is_float(dt)) {  // Mod with fmod = 0: the divisor's sign, as burn's remainder
                e.op1("Mod", ab, y, {attr_i("fmod", 0)});
                return;
            }
            auto q = e.op1("Floor", {e.op1("Div", ab)});  // a - b floor(a / b)
            e.op1("Sub", {ab[0], e.op1("Mul", {ab[1], q})}, y);
            return;
        }
        case OpId::not_equal:
            e.op1("Not", {e.op1("Equal", e.broadcast_inputs())}, y);
            return;
        default:
            e.lacks("no ONNX mapping for this elementwise row and no decomposition");
    }
}

}  // namespace burn::onnx::exporter
