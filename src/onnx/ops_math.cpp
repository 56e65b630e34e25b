// ONNX linear algebra and normalised exponentials: MatMul (numpy semantics), Gemm, Softmax,
// LogSoftmax (the opset < 13 2-D coercion too), CumSum, TopK, Trilu.
#include <algorithm>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

TensorAny matmul_np(const OpContext& c, TensorAny a, TensorAny b) {
    check_same_dtype(c, a, b);
    const bool va = a.rank() == 1, vb = b.rank() == 1;
    if (va) a = ops::unsqueeze_dim(a, 0);
    if (vb) b = ops::unsqueeze_dim(b, 1);
    const int64_t r = std::max<int64_t>(a.rank(), b.rank());
    TensorAny y = ops::matmul(to_rank(a, r), to_rank(b, r));
    if (va) y = ops::squeeze_dim(y, y.rank() - 2);
    if (vb) y = ops::squeeze_dim(y, y.rank() - 1);
    return y;
}

Outs gemm(const OpContext& c) {
    TensorAny a = c.in(0), b = c.in(1);
    c.check(a.rank() == 2 && b.rank() == 2, "A and B must be 2-D, got ", a.shape(), " and ", b.shape());
    if (c.attr_int("transA", 0)) a = ops::swap_dims(a, 0, 1);
    if (c.attr_int("transB", 0)) b = ops::swap_dims(b, 0, 1);
    const double alpha = c.attr_float("alpha", 1.0), beta = c.attr_float("beta", 1.0);
    TensorAny y = matmul_np(c, a, b);
    if (alpha != 1.0) y = ops::mul_scalar(y, alpha);
    if (c.has(2) && beta != 0.0) {
        TensorAny bias = c.in(2);
        if (beta != 1.0) bias = ops::mul_scalar(bias, beta);
        auto [l, r] = align(y, bias);
        y = ops::add(l, r);
    }
    return {y};
}

template <bool Log>
Outs softmax(const OpContext& c) {
    const TensorAny& x = c.in(0);
    if (c.opset() >= 13) {
        const int64_t axis = c.axis(c.attr_int("axis", -1), x.rank());
        return {Log ? ops::log_softmax(x, axis) : ops::softmax(x, axis)};
    }
    // Before opset 13: the input is coerced to 2-D at axis (default 1) and normalised over dim 1.
    TensorAny flat = as_2d(c, x, c.attr_int("axis", 1));
    return {ops::reshape(Log ? ops::log_softmax(flat, 1) : ops::softmax(flat, 1), x.shape())};
}

Outs cumsum(const OpContext& c) {
    TensorAny x = c.in(0);
    const int64_t axis = c.axis(c.ints_of(1).at(0), x.rank());
    const bool exclusive = c.attr_int("exclusive", 0) != 0, reverse = c.attr_int("reverse", 0) != 0;
    if (reverse) x = ops::flip(x, Dims{axis});
    TensorAny y = ops::cumsum(x, axis);
    if (exclusive) y = ops::sub(y, x);
    if (reverse) y = ops::flip(y, Dims{axis});
    return {y};
}

Outs topk(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t k = c.opset() >= 10 ? c.ints_of(1).at(0) : c.attr_int("k");
    const int64_t axis = c.axis(c.attr_int("axis", -1), x.rank());
    const bool largest = c.attr_int("largest", 1) != 0;
    c.check(k >= 0 && k <= x.shape()[static_cast<int>(axis)], "k = ", k, " is out of range for dim ", axis,
            " of ", x.shape());
    auto [v, i] = ops::sort_with_indices(x, axis, largest);
    return {ops::narrow(v, axis, 0, k), ops::cast(ops::narrow(i, axis, 0, k), DType::i64)};
}

Outs trilu(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t k = c.has(1) ? c.ints_of(1).at(0) : 0;
    return {c.attr_int("upper", 1) ? ops::triu(x, k) : ops::tril(x, k)};
}

/// Det: LU factorisation with partial pivoting of every [n, n] matrix of x [..., n, n], on the device
/// (one step of row swap and elimination per column, so it differentiates on an autodiff device); the
/// determinant is the product of the pivots times the sign of the row swaps. f16/bf16 compute in f32.
Outs det(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(is_float(x.dtype()), "X must be a float tensor, got ", x.dtype(), " ", x.shape());
    const int r = x.rank();
    c.check(r >= 2 && x.shape()[r - 1] == x.shape()[r - 2], "X must be [..., M, M] (square matrices), got ",
            x.shape());
    const int64_t n = x.shape()[r - 1];
    std::vector<int64_t> batch(x.shape().begin(), x.shape().begin() + (r - 2));
    int64_t nb = 1;
    for (int64_t d : batch) nb *= d;
    if (nb == 0 || n == 0) return {ops::full(dims_of(batch), 1, x.dtype(), c.device())};  // det([]) = 1
    const DType wd = x.dtype() == DType::f64 ? DType::f64 : DType::f32;
    TensorAny a = ops::reshape(ops::cast(x, wd), Dims{nb, n, n});
    TensorAny y = ops::full(Dims{nb, 1, 1}, 1, wd, c.device());
    const TensorAny rows = ops::reshape(ops::arange(0, n, 1, DType::i64, c.device()), Dims{1, n, 1});
    for (int64_t k = 0; k < n; ++k) {
        // The pivot: the largest |a[i, k]| among rows i >= k, swapped into row k.
        const TensorAny col = ops::abs(ops::narrow(a, 2, k, 1));  // [B, n, 1]
        const TensorAny p =
            ops::cast(ops::argmax(ops::where(ops::lower_elem(rows, static_cast<double>(k)),
                                             ops::full(Dims{1, 1, 1}, -1, wd, c.device()), col),
                                  1),
                      DType::i64);  // [B, 1, 1]
        const TensorAny kk = ops::full(Dims{1, 1, 1}, static_cast<double>(k), DType::i64, c.device());
        const TensorAny perm =
            ops::where(ops::equal_elem(rows, static_cast<double>(k)), ops::expand(p, Dims{nb, n, 1}),
                       ops::where(ops::equal(rows, p), ops::expand(kk, Dims{nb, n, 1}),
                                  ops::expand(rows, Dims{nb, n, 1})));
        a = ops::gather(a, 1, ops::contiguous(ops::expand(perm, Dims{nb, n, n})));
        const TensorAny sign = ops::where(ops::equal_elem(p, static_cast<double>(k)),
                                          ops::full(Dims{1, 1, 1}, 1, wd, c.device()),
                                          ops::full(Dims{1, 1, 1}, -1, wd, c.device()));
        const TensorAny row = ops::narrow(a, 1, k, 1);    // [B, 1, n]
        const TensorAny piv = ops::narrow(row, 2, k, 1);  // [B, 1, 1]
        y = ops::mul(ops::mul(y, piv), sign);
        if (k + 1 == n) break;
        // Eliminate below the pivot (a zero pivot means a zero column: the factors are 0, the det 0).
        const TensorAny safe =
            ops::where(ops::equal_elem(piv, 0), ops::full(Dims{1, 1, 1}, 1, wd, c.device()), piv);
        TensorAny below = ops::narrow(a, 1, k + 1, n - k - 1);  // [B, n-k-1, n]
        below = ops::sub(below, ops::mul(ops::div(ops::narrow(below, 2, k, 1), safe), row));
        a = ops::cat({ops::narrow(a, 1, 0, k + 1), below}, 1);
    }
    return {ops::cast(ops::reshape(y, dims_of(batch)), x.dtype())};
}

}  // namespace

void add_math_ops(OpTable& t) {
    t.add("MatMul", 1, [](const OpContext& c) -> Outs { return {matmul_np(c, c.in(0), c.in(1))}; });
    t.add("Gemm", 1, gemm);
    t.add("Softmax", 1, softmax<false>);
    t.add("LogSoftmax", 1, softmax<true>);
    t.add("CumSum", 11, cumsum);
    t.add("TopK", 1, topk);
    t.add("Trilu", 14, trilu);
    t.add("Det", 11, det);
}

}  // namespace burn::onnx::detail
