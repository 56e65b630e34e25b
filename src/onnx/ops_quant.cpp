// ONNX quantization: QuantizeLinear and DequantizeLinear (opset 10: per tensor; 13: per axis too),
// DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv. Everything runs on the
// device through burn::ops; only the scalar shapes of parameters are inspected on the host.
// Integer products are exact:
// - MatMulInteger, QLinearMatMul: the operands are widened to i32 and their zero points subtracted in
//   i32, then an i32 matmul (each product is at most 2^16; the accumulation wraps only past 2^31, as
//   ONNX allows; the CUDA backend multiplies integers in f64, exact below 2^53).
// - ConvInteger, QLinearConv: burn's convolutions take floats only, so the zero-point-shifted operands
//   (integers of magnitude <= 255) convolve in f64, where every product (< 2^16) and every sum of fewer
//   than 2^37 of them is exact, before the cast to i32. The convolution attributes (kernel_shape,
//   strides, pads, dilations, group, auto_pad) are read by the op table's Conv entry (ops_nn.cpp),
//   called on the node with the shifted operands.
// Quantization is round(x / scale) (half to even) + zero point, saturated, in f32 (f64 for f64 or int32
// inputs). QLinear* requantize as onnxruntime does: multiplier = a_scale * b_scale / y_scale in f32,
// the i32 accumulator converted to f32 (exact while |acc| < 2^24) times it, rounded half to even, plus
// the zero point, saturated.
#include <algorithm>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

struct QRange {
    double lo, hi;
};

QRange q_range(const OpContext& c, DType dt, const char* what) {
    if (dt == DType::u8) return {0, 255};
    if (dt == DType::i8) return {-128, 127};
    c.fail(what, " must be uint8 or int8, got ", dt);
}

void check_q8(const OpContext& c, const TensorAny& x, const char* what) {
    c.check(x.dtype() == DType::u8 || x.dtype() == DType::i8, what, " must be uint8 or int8, got ", x.dtype(),
            " ", x.shape());
}

void check_scale(const OpContext& c, const TensorAny& s, const char* what) {
    c.check(is_float(s.dtype()), what, " must be a float tensor, got ", s.dtype(), " ", s.shape());
}

/// QuantizeLinear's and DequantizeLinear's scale or zero point p shaped to broadcast against x: one
/// element (per tensor) or, from opset 13, a 1-D tensor of x.shape[axis] elements (per axis).
TensorAny ql_param(const OpContext& c, const TensorAny& p, const TensorAny& x, const char* what) {
    if (p.rank() <= 1 && p.shape().numel() == 1) return ops::reshape(p, Dims::filled(x.rank(), 1));
    c.check(c.opset() >= 13 && p.rank() == 1, what, " must be a scalar",
            c.opset() >= 13 ? " or a 1-D tensor" : " before opset 13", ", got shape ", p.shape());
    const int64_t axis = c.axis(c.attr_int("axis", 1), x.rank());
    const int a = static_cast<int>(axis);
    c.check(p.shape()[0] == x.shape()[a], what, " has ", p.shape()[0], " elements but the input ", x.shape(),
            " has ", x.shape()[a], " along axis ", axis);
    Dims s = Dims::filled(x.rank(), 1);
    s[a] = p.shape()[0];
    return ops::reshape(p, s);
}

void check_zero_point(const OpContext& c, const TensorAny& zp, const TensorAny& scale, const char* what) {
    c.check(zp.shape().numel() == scale.shape().numel() && zp.rank() <= 1, what,
            " must have the shape of the scale ", scale.shape(), ", got ", zp.shape());
}

Outs quantize_linear(const OpContext& c) {
    const TensorAny &x = c.in(0), &s = c.in(1);
    check_scale(c, s, "y_scale");
    c.check(is_float(x.dtype()) || x.dtype() == DType::i32, "x must be float or int32, got ", x.dtype());
    const DType out = c.has(2) ? c.in(2).dtype() : DType::u8;
    const QRange r = q_range(c, out, "y_zero_point");
    const bool wide = x.dtype() == DType::f64 || s.dtype() == DType::f64 || !is_float(x.dtype());
    const DType ct = wide ? DType::f64 : DType::f32;
    TensorAny y = ops::round(ops::div(ops::cast(x, ct), ops::cast(ql_param(c, s, x, "y_scale"), ct)));
    if (c.has(2)) {
        check_zero_point(c, c.in(2), s, "y_zero_point");
        y = ops::add(y, ops::cast(ql_param(c, c.in(2), x, "y_zero_point"), ct));
    }
    return {ops::cast(ops::clamp(y, r.lo, r.hi), out)};
}

Outs dequantize_linear(const OpContext& c) {
    const TensorAny &x = c.in(0), &s = c.in(1);
    check_scale(c, s, "x_scale");
    c.check(x.dtype() == DType::u8 || x.dtype() == DType::i8 || x.dtype() == DType::i32,
            "x must be uint8, int8 or int32, got ", x.dtype());
    TensorAny v = ops::cast(x, DType::i32);
    if (c.has(2)) {
        const TensorAny& zp = c.in(2);
        c.check(zp.dtype() == x.dtype(), "x_zero_point must have the type of x (", x.dtype(), "), got ",
                zp.dtype());
        check_zero_point(c, zp, s, "x_zero_point");
        v = ops::sub(v, ops::cast(ql_param(c, zp, x, "x_zero_point"), DType::i32));
    }
    return {ops::mul(ops::cast(v, s.dtype()), ql_param(c, s, x, "x_scale"))};
}

Outs dynamic_quantize_linear(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(is_float(x.dtype()), "x must be a float tensor, got ", x.dtype());
    const DType ct = x.dtype() == DType::f64 ? DType::f64 : DType::f32;
    // The range [min(x), max(x)] widened to hold 0 (a 0 appended, which also serves an empty x).
    TensorAny flat = ops::cat(
        {ops::reshape(ops::cast(x, ct), Dims{x.shape().numel()}), ops::full(Dims{1}, 0, ct, x.device())}, 0);
    TensorAny lo = ops::min(flat), hi = ops::max(flat);
    TensorAny scale = ops::div_scalar(ops::sub(hi, lo), 255);
    // A zero range (x all 0) divides by 1 instead, quantizing to 0 with zero point 0.
    TensorAny safe = ops::where(ops::equal_elem(scale, 0), ops::full(Dims{1}, 1, ct, x.device()), scale);
    TensorAny zp = ops::clamp(ops::round(ops::div(ops::neg(lo), safe)), 0, 255);
    TensorAny y =
        ops::add(ops::round(ops::div(ops::cast(x, ct), ops::reshape(safe, Dims::filled(x.rank(), 1)))),
                 ops::reshape(zp, Dims::filled(x.rank(), 1)));
    const Dims scalar = Dims::filled(0, 1);
    return {ops::cast(ops::clamp(y, 0, 255), DType::u8), ops::cast(ops::reshape(scale, scalar), DType::f32),
            ops::cast(ops::reshape(zp, scalar), DType::u8)};
}

// ---- integer matmul

/// numpy's matmul rule: a 1-D lhs [K] is [1, K], a 1-D rhs [K] is [K, 1] (squeezed again after).
TensorAny as_matrix(const OpContext& c, const TensorAny& m, bool lhs, const char* what) {
    c.check(m.rank() >= 1, what, " must have rank >= 1, got a scalar");
    return m.rank() == 1 ? ops::unsqueeze_dim(m, lhs ? 0 : 1) : m;
}

/// A parameter of lhs a (per row: [M] or [..., M, 1]) or rhs b (per column: [N] or [..., 1, N]) at rank
/// r; one element means per tensor.
TensorAny mm_param(const OpContext& c, const TensorAny& p, const TensorAny& m, bool row, int64_t r,
                   const char* what) {
    const int ri = static_cast<int>(r);
    if (p.shape().numel() == 1) return ops::reshape(p, Dims::filled(ri, 1));
    if (p.rank() == 1) {
        const int64_t n = m.shape()[row ? m.rank() - 2 : m.rank() - 1];
        c.check(p.shape()[0] == n, what, " has ", p.shape()[0], " elements, expected 1 or ", n, " (one per ",
                row ? "row" : "column", " of ", m.shape(), ")");
        Dims s = Dims::filled(ri, 1);
        s[row ? ri - 2 : ri - 1] = n;
        return ops::reshape(p, s);
    }
    c.check(p.rank() <= r, what, " of shape ", p.shape(), " has a higher rank than the operand ", m.shape());
    return to_rank(p, r);
}

/// m (uint8 or int8) as i32 minus its zero point (input zp_at, if present).
TensorAny mm_shifted(const OpContext& c, const TensorAny& m, std::size_t zp_at, bool row, int64_t r,
                     const char* what, const char* zp_what) {
    TensorAny v = to_rank(ops::cast(m, DType::i32), r);
    if (!c.has(zp_at)) return v;
    const TensorAny& zp = c.in(zp_at);
    c.check(zp.dtype() == m.dtype(), zp_what, " must have the type of ", what, " (", m.dtype(), "), got ",
            zp.dtype());
    return ops::sub(v, ops::cast(mm_param(c, zp, m, row, r, zp_what), DType::i32));
}

void check_inner(const OpContext& c, const TensorAny& a, const TensorAny& b) {
    c.check(a.shape()[a.rank() - 1] == b.shape()[b.rank() - 2], "the inner dims differ: ", a.shape(), " x ",
            b.shape());
}

TensorAny unmatrix(TensorAny y, bool va, bool vb) {
    if (va) y = ops::squeeze_dim(y, y.rank() - 2);
    if (vb) y = ops::squeeze_dim(y, y.rank() - 1);
    return y;
}

Outs matmul_integer(const OpContext& c) {
    check_q8(c, c.in(0), "A");
    check_q8(c, c.in(1), "B");
    const TensorAny a = as_matrix(c, c.in(0), true, "A"), b = as_matrix(c, c.in(1), false, "B");
    check_inner(c, a, b);
    const int64_t r = std::max(a.rank(), b.rank());
    TensorAny y = ops::matmul(mm_shifted(c, a, 2, true, r, "A", "a_zero_point"),
                              mm_shifted(c, b, 3, false, r, "B", "b_zero_point"));
    return {unmatrix(y, c.in(0).rank() == 1, c.in(1).rank() == 1)};
}

/// round(acc * mult) + zp saturated to zp's type, in f32 (acc i32 or f64, mult f32; both at one rank).
TensorAny requantize(const OpContext& c, const TensorAny& acc, const TensorAny& mult, const TensorAny& zp) {
    const QRange r = q_range(c, zp.dtype(), "y_zero_point");
    TensorAny y = ops::round(ops::mul(ops::cast(acc, DType::f32), ops::cast(mult, DType::f32)));
    y = ops::add(y, ops::cast(zp, DType::f32));
    return ops::cast(ops::clamp(y, r.lo, r.hi), zp.dtype());
}

/// A y parameter (scale or zero point) at rank r: one element, or a shape that broadcasts as it is.
TensorAny y_param(const OpContext& c, const TensorAny& p, int64_t r, const char* what) {
    if (p.shape().numel() == 1) return ops::reshape(p, Dims::filled(static_cast<int>(r), 1));
    c.check(p.rank() <= r, what, " of shape ", p.shape(), " has a higher rank than the output (", r, ")");
    return to_rank(p, r);
}

Outs qlinear_matmul(const OpContext& c) {
    check_q8(c, c.in(0), "a");
    check_q8(c, c.in(3), "b");
    for (std::size_t i : {1, 4, 6})
        check_scale(c, c.in(i), i == 1 ? "a_scale" : i == 4 ? "b_scale" : "y_scale");
    const TensorAny a = as_matrix(c, c.in(0), true, "a"), b = as_matrix(c, c.in(3), false, "b");
    check_inner(c, a, b);
    const int64_t r = std::max(a.rank(), b.rank());
    TensorAny acc = ops::matmul(mm_shifted(c, a, 2, true, r, "a", "a_zero_point"),
                                mm_shifted(c, b, 5, false, r, "b", "b_zero_point"));
    TensorAny mult = ops::div(
        ops::mul(mm_param(c, c.in(1), a, true, r, "a_scale"), mm_param(c, c.in(4), b, false, r, "b_scale")),
        y_param(c, c.in(6), r, "y_scale"));
    TensorAny y = requantize(c, acc, mult, y_param(c, c.in(7), r, "y_zero_point"));
    return {unmatrix(y, c.in(0).rank() == 1, c.in(3).rank() == 1)};
}

// ---- integer convolution

/// A conv parameter: one element (per tensor) or, when per_channel, one per output channel (n of them),
/// shaped [1, n, 1...] (dim = 1, outputs) or [n, 1...] (dim = 0, weights) at rank r.
TensorAny conv_param(const OpContext& c, const TensorAny& p, int64_t r, int dim, int64_t n, bool per_channel,
                     const char* what) {
    const int ri = static_cast<int>(r);
    if (p.rank() <= 1 && p.shape().numel() == 1) return ops::reshape(p, Dims::filled(ri, 1));
    c.check(per_channel && p.rank() == 1 && p.shape()[0] == n, what, " must be a scalar",
            per_channel ? " or 1-D with one element per output channel (" : "", per_channel ? n : 0,
            per_channel ? ")" : "", ", got shape ", p.shape());
    Dims s = Dims::filled(ri, 1);
    s[dim] = n;
    return ops::reshape(p, s);
}

/// The f64 convolution of x and w (uint8 or int8) less their zero points (inputs x_zp, w_zp when
/// present), with the node's Conv attributes.
TensorAny int_conv(const OpContext& c, std::size_t x_at, std::size_t x_zp, std::size_t w_at,
                   std::size_t w_zp) {
    const TensorAny &x = c.in(x_at), &w = c.in(w_at);
    check_q8(c, x, "x");
    check_q8(c, w, "w");
    c.check(x.rank() >= 3 && x.rank() <= 5 && w.rank() == x.rank(),
            "x and w must be [N, C, spatial...] and [M, C / group, kernel...] of rank 3 to 5, got ",
            x.shape(), " and ", w.shape());
    TensorAny xs = ops::cast(x, DType::f64), ws = ops::cast(w, DType::f64);
    if (c.has(x_zp)) {
        c.check(c.in(x_zp).dtype() == x.dtype(), "x_zero_point must have the type of x (", x.dtype(), ")");
        xs = ops::sub(
            xs, ops::cast(conv_param(c, c.in(x_zp), x.rank(), 1, 0, false, "x_zero_point"), DType::f64));
    }
    if (c.has(w_zp)) {
        c.check(c.in(w_zp).dtype() == w.dtype(), "w_zero_point must have the type of w (", w.dtype(), ")");
        ws =
            ops::sub(ws, ops::cast(conv_param(c, c.in(w_zp), w.rank(), 0, w.shape()[0], true, "w_zero_point"),
                                   DType::f64));
    }
    const OpEntry* conv = op_table().find("", "Conv");
    c.check(conv != nullptr, "needs the Conv op, which this build lacks");
    const std::vector<TensorAny> ins{xs, ws};
    return conv->run(OpContext(c.node(), c.opset(), c.device(), ins)).at(0);
}

Outs conv_integer(const OpContext& c) {
    return {ops::cast(int_conv(c, 0, 2, 1, 3), DType::i32)};
}

Outs qlinear_conv(const OpContext& c) {
    for (std::size_t i : {1, 4, 6})
        check_scale(c, c.in(i), i == 1 ? "x_scale" : i == 4 ? "w_scale" : "y_scale");
    c.check(c.has(2) && c.has(5) && c.has(7), "x_zero_point, w_zero_point and y_zero_point are required");
    TensorAny acc = int_conv(c, 0, 2, 3, 5);
    const int64_t r = acc.rank(), m = c.in(3).shape()[0];
    if (c.has(8)) {
        const TensorAny& bias = c.in(8);
        c.check(bias.dtype() == DType::i32 && bias.rank() == 1 && bias.shape()[0] == m,
                "B must be int32 of shape [", m, "] (one per output channel), got ", bias.dtype(), " ",
                bias.shape());
        acc = ops::add(acc, conv_param(c, ops::cast(bias, DType::f64), r, 1, m, true, "B"));
    }
    TensorAny mult = ops::div(ops::mul(conv_param(c, c.in(1), r, 1, m, false, "x_scale"),
                                       conv_param(c, c.in(4), r, 1, m, true, "w_scale")),
                              conv_param(c, c.in(6), r, 1, m, false, "y_scale"));
    return {requantize(c, acc, mult, conv_param(c, c.in(7), r, 1, m, false, "y_zero_point"))};
}

}  // namespace

void add_quant_ops(OpTable& t) {
    t.add("QuantizeLinear", 10, quantize_linear);
    t.add("DequantizeLinear", 10, dequantize_linear);
    t.add("DynamicQuantizeLinear", 11, dynamic_quantize_linear);
    t.add("MatMulInteger", 10, matmul_integer);
    t.add("ConvInteger", 10, conv_integer);
    t.add("QLinearMatMul", 10, qlinear_matmul);
    t.add("QLinearConv", 10, qlinear_conv);
}

}  // namespace burn::onnx::detail
