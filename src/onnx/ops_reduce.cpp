// ONNX reductions: ReduceSum/Mean/Max/Min/Prod/L1/L2/SumSquare/LogSum/LogSumExp, ArgMax, ArgMin.
// axes is an attribute before opset 13 (ReduceSum) or 18 (the others), an input after.
#include <algorithm>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

enum class R { sum, mean, max, min, prod, l1, l2, sum_square, log_sum, log_sum_exp };

template <R Kind, int AxesInputSince>
Outs reduce(const OpContext& c) {
    TensorAny x = c.in(0);
    std::vector<int64_t> axes;
    if (c.opset() >= AxesInputSince) {
        if (c.has(1)) axes = c.ints_of(1);
    } else {
        axes = c.attr_ints("axes");
    }
    const bool keep = c.attr_int("keepdims", 1) != 0;
    if (axes.empty()) {
        if (c.opset() >= AxesInputSince && c.attr_int("noop_with_empty_axes", 0)) return {x};
        for (int64_t i = 0; i < x.rank(); ++i) axes.push_back(i);
    }
    std::vector<bool> reduced(static_cast<std::size_t>(x.rank()), false);
    for (int64_t a : axes) reduced[static_cast<std::size_t>(c.axis(a, x.rank()))] = true;
    if constexpr (Kind == R::l1) x = ops::abs(x);
    if constexpr (Kind == R::l2 || Kind == R::sum_square) x = ops::square(x);
    TensorAny shift;
    if constexpr (Kind == R::log_sum_exp) {
        shift = x;
        for (int d = 0; d < x.rank(); ++d)
            if (reduced[static_cast<std::size_t>(d)]) shift = ops::max_dim(shift, d);
        shift =
            ops::where(ops::is_inf(shift), ops::full(shift.shape(), 0, shift.dtype(), shift.device()), shift);
        x = ops::exp(ops::sub(x, shift));
    }
    for (int d = 0; d < x.rank(); ++d) {
        if (!reduced[static_cast<std::size_t>(d)]) continue;
        switch (Kind) {
            case R::mean:
                x = ops::mean_dim(x, d);
                break;
            case R::max:
                x = ops::max_dim(x, d);
                break;
            case R::min:
                x = ops::min_dim(x, d);
                break;
            case R::prod:
                x = ops::prod_dim(x, d);
                break;
            default:
                x = ops::sum_dim(x, d);
        }
    }
    if constexpr (Kind == R::l2) x = ops::sqrt(x);
    if constexpr (Kind == R::log_sum) x = ops::log(x);
    if constexpr (Kind == R::log_sum_exp) x = ops::add(ops::log(x), shift);
    if (!keep) {
        std::vector<int64_t> shape;
        for (int d = 0; d < x.rank(); ++d)
            if (!reduced[static_cast<std::size_t>(d)]) shape.push_back(x.shape()[d]);
        x = ops::reshape(x, dims_of(shape));
    }
    return {x};
}

template <bool Max>
Outs arg(const OpContext& c) {
    TensorAny x = c.in(0);
    const int64_t axis = c.axis(c.attr_int("axis", 0), x.rank());
    const bool keep = c.attr_int("keepdims", 1) != 0, last = c.attr_int("select_last_index", 0) != 0;
    const int64_t n = x.shape()[static_cast<int>(axis)];
    if (last) x = ops::flip(x, Dims{axis});
    TensorAny i = ops::cast(Max ? ops::argmax(x, axis) : ops::argmin(x, axis), DType::i64);
    if (last) i = ops::rsub_scalar(i, static_cast<double>(n - 1));
    if (!keep) i = ops::squeeze_dim(i, axis);
    return {i};
}

}  // namespace

void add_reduce_ops(OpTable& t) {
    t.add("ReduceSum", 1, reduce<R::sum, 13>);
    t.add("ReduceMean", 1, reduce<R::mean, 18>);
    t.add("ReduceMax", 1, reduce<R::max, 18>);
    t.add("ReduceMin", 1, reduce<R::min, 18>);
    t.add("ReduceProd", 1, reduce<R::prod, 18>);
    t.add("ReduceL1", 1, reduce<R::l1, 18>);
    t.add("ReduceL2", 1, reduce<R::l2, 18>);
    t.add("ReduceSumSquare", 1, reduce<R::sum_square, 18>);
    t.add("ReduceLogSum", 1, reduce<R::log_sum, 18>);
    t.add("ReduceLogSumExp", 1, reduce<R::log_sum_exp, 18>);
    t.add("ArgMax", 1, arg<true>);
    t.add("ArgMin", 1, arg<false>);
}

}  // namespace burn::onnx::detail
