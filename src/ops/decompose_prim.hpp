#pragma once
// Building blocks of the decompositions (decompose_*.cpp). Each is written with frontend calls of
// primitive rows only (decompose.cpp lists them), so a decomposition built from them never reaches a
// derived row: the primitives-only test backend of tests/decompose_test.cpp checks that.
#include <limits>
#include <vector>

#include "burn/backend/op.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::ops::decomp {

using Inputs = std::vector<TensorAny>;
using Outputs = std::vector<TensorAny>;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// The dtype kernels compute dt in: f32 for f16/bf16, dt otherwise.
DType compute_dtype(DType dt);
/// x in its compute dtype; y back in dt.
TensorAny up(const TensorAny& x);
TensorAny down(TensorAny y, DType dt);
/// f on the single input in its compute dtype; the result in the call's dtype.
template <class F>
Outputs unary_f(const OpCall& c, const Inputs& in, F f) {
    return {down(f(up(in[0])), c.dtype)};
}

/// A [1, ..., 1] tensor of like's rank and device holding v, in like's dtype (or dt).
TensorAny scalar(const TensorAny& like, double v);
TensorAny scalar(const TensorAny& like, double v, DType dt);
/// Host values uploaded to device as dtype dt (index tables, divisors, interpolation weights).
TensorAny constant(const std::vector<double>& values, const Dims& shape, DType dt, const Device& device);
/// t reshaped to rank r with every dim 1 but dim d, which keeps t's length: a [k] vector laid along d.
TensorAny along(const TensorAny& t, int r, int d);

/// -x (floats: x * -1, exact for zeros too; ints: 0 - x, wrapping like the kernel).
TensorAny negate(const TensorAny& x);
/// |x| for floats and signed ints (+0 for -0; the most negative int stays itself, as in the kernel).
TensorAny absolute(const TensorAny& x);
/// a < b, a >= b (false for NaN), !b, x != x.
TensorAny less(const TensorAny& a, const TensorAny& b);
TensorAny greater_eq(const TensorAny& a, const TensorAny& b);
TensorAny logical_not(const TensorAny& b);
TensorAny nan_mask(const TensorAny& x);
/// where(x < 0, -r, r): r's sign taken from x (r >= 0 or NaN).
TensorAny with_sign_of(const TensorAny& x, const TensorAny& r);

/// exp(x) - 1 and log(1 + x) to a few ulps near 0 (Kahan's rewrites of exp and log), tanh(x) from
/// expm1 without cancellation. Floats, in x's dtype.
TensorAny expm1_of(const TensorAny& x);
TensorAny log1p_of(const TensorAny& x);
TensorAny tanh_of(const TensorAny& x);

/// softmax or log_softmax of a float tensor along dim: max, then exp(x - max), sum and scale (the
/// kernels' order). A row whose max is NaN, +inf or -inf gives NaN throughout, as the kernels do.
TensorAny softmax_of(const TensorAny& x, int dim, bool log);

/// x with `before` and `after` elements of value added along dim.
TensorAny pad(const TensorAny& x, int dim, int64_t before, int64_t after, double value);
/// x's slices along dim at the 1-D indices idx (the select row), and x with values added at them
/// (select_add); both through gather / scatter_add with the indices expanded.
TensorAny index_select(const TensorAny& x, int dim, const TensorAny& idx);
TensorAny index_add(const TensorAny& x, int dim, const TensorAny& idx, const TensorAny& values);
/// x[start : start + len] along dim (a slice view).
TensorAny narrow_dim(const TensorAny& x, int dim, int64_t start, int64_t len);
/// x[start : start + step * (count - 1) + 1 : step] along each of the given dims.
TensorAny strided(const TensorAny& x, const std::vector<int>& dims, const std::vector<int64_t>& start,
                  const std::vector<int64_t>& count, const std::vector<int64_t>& step);
/// acc with values added into the strided region (slice, add, slice_assign).
TensorAny add_strided(const TensorAny& acc, const std::vector<int>& dims, const std::vector<int64_t>& start,
                      const std::vector<int64_t>& count, const std::vector<int64_t>& step,
                      const TensorAny& values);

}  // namespace burn::ops::decomp
