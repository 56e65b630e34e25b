// Frontend of the reductions and fused softmax (scans: scan.cpp). Reductions keep the reduced dim with size
// 1; full reductions flatten to [numel] and reduce dim 0, giving shape [1].
#include "burn/core/half.hpp"
#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

/// The reduction row op along the normalised dim d (infer gives the output: the dim kept with size 1).
TensorAny reduce_op(OpId op, TensorAny x, int d) {
    auto c = make(op, attrs::Dim{d}, metas(x));
    return run1(c, {std::move(x).ref()});
}

std::pair<TensorAny, TensorAny> minmax_with_indices(OpId op, TensorAny x, int64_t dim, const char* name) {
    int d = check_along_dim(x, dim, name, false);
    auto c = make(op, attrs::Dim{d}, metas(x));
    TensorRefs outs = run(c, {std::move(x).ref()});
    return {TensorAny(std::move(outs[0])), TensorAny(std::move(outs[1]))};
}

TensorAny arg_op(OpId op, TensorAny x, int64_t dim, const char* name) {
    int d = check_along_dim(x, dim, name, false);
    return reduce_op(op, std::move(x), d);
}

TensorAny softmax_op(OpId op, TensorAny x, int64_t dim, const char* name) {
    check_defined(x, name);
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[", name, "] needs a float tensor, got ", describe(x),
                    "; convert with .float_()");
    BURN_CHECK_KIND(x.rank() > 0, shape, "[", name, "] needs a tensor of rank >= 1, got ", describe(x));
    int d = normalize_dim(dim, x.rank(), name);
    auto c = make(op, attrs::Dim{d}, metas(x));
    return run1(c, {std::move(x).ref()});
}

/// x as [numel] (a view when x is contiguous).
TensorAny flat(TensorAny x, const char* op) {
    check_defined(x, op);
    Dims shape{x.numel()};
    return reshape(std::move(x), shape);
}

}  // namespace

TensorAny softmax(TensorAny x, int64_t dim) {
    return softmax_op(OpId::softmax, std::move(x), dim, "softmax");
}
TensorAny log_softmax(TensorAny x, int64_t dim) {
    return softmax_op(OpId::log_softmax, std::move(x), dim, "log_softmax");
}

TensorAny softmax_backward(TensorAny y, TensorAny g, int64_t dim, bool log, TensorAny mask) {
    const char* name = "softmax_backward";
    check_defined(y, name);
    check_defined(g, name);
    BURN_CHECK_KIND(is_float(y.dtype()), dtype, "[", name, "] needs float tensors, got y ", describe(y));
    check_same_dtype(y, g, name);
    BURN_CHECK_KIND(y.shape() == g.shape(), shape, "[", name, "] y ", describe(y), " and g ", describe(g),
                    " must have the same shape");
    BURN_CHECK_KIND(y.device() == g.device(), device, "[", name, "] y is on ", y.device(), " but g on ",
                    g.device(), "; move one with to_device");
    BURN_CHECK_KIND(y.rank() > 0, shape, "[", name, "] needs a tensor of rank >= 1, got ", describe(y));
    int d = normalize_dim(dim, y.rank(), name);
    const attrs::SoftmaxBackward a{d, log};
    if (!mask.defined()) {
        auto c = make(OpId::softmax_backward, a, metas(y, g));
        return run1(c, take(std::move(y), std::move(g)));
    }
    check_bool(mask, name, "the mask");
    BURN_CHECK_KIND(mask.device() == y.device(), device, "[", name, "] the mask is on ", mask.device(),
                    " but y on ", y.device(), "; move it with to_device");
    BURN_CHECK_KIND(broadcast_shapes(mask.shape(), y.shape(), name) == y.shape(), shape, "[", name,
                    "] the mask ", describe(mask), " does not broadcast to y ", describe(y));
    if (d != y.rank() - 1) {  // the kernels take a mask along the last dim only
        auto dx = softmax_backward(std::move(y), std::move(g), d, log);
        auto zero = full(Dims::filled(dx.rank(), 1), 0.0, dx.dtype(), dx.device());
        return where(std::move(mask), std::move(zero), std::move(dx));
    }
    mask = broadcast_to(std::move(mask), y.shape(), name);
    auto c = make(OpId::softmax_backward, a, metas(y, g, mask));
    return run1(c, take(std::move(y), std::move(g), std::move(mask)));
}

TensorAny masked_softmax(TensorAny x, TensorAny mask, int64_t dim, double fill) {
    const char* name = "masked_softmax";
    check_defined(x, name);
    check_defined(mask, name);
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[", name, "] needs a float tensor, got ", describe(x),
                    "; convert with .float_()");
    check_bool(mask, name, "the mask");
    BURN_CHECK_KIND(x.rank() > 0, shape, "[", name, "] needs a tensor of rank >= 1, got ", describe(x));
    BURN_CHECK_KIND(mask.device() == x.device(), device, "[", name, "] the mask is on ", mask.device(),
                    " but x on ", x.device(), "; move it with to_device");
    int d = normalize_dim(dim, x.rank(), name);
    BURN_CHECK_KIND(broadcast_shapes(mask.shape(), x.shape(), name) == x.shape(), shape, "[", name,
                    "] the mask ", describe(mask), " does not broadcast to x ", describe(x));
    mask = broadcast_to(std::move(mask), x.shape(), name);
    if (d != x.rank() - 1) return softmax(mask_fill(std::move(x), std::move(mask), fill), d);
    // the fill value as x's dtype holds it (what mask_fill would write: f16 turns -3.4e38 into -inf)
    if (x.dtype() == DType::f16) fill = double(float(f16(static_cast<float>(fill))));
    if (x.dtype() == DType::bf16) fill = double(float(bf16(static_cast<float>(fill))));
    if (x.dtype() == DType::f32) fill = double(static_cast<float>(fill));
    auto c = make(OpId::masked_softmax, attrs::MaskedSoftmax{d, fill}, metas(x, mask));
    return run1(c, take(std::move(x), std::move(mask)));
}

TensorAny sum_dim(TensorAny x, int64_t dim) {
    int d = check_along_dim(x, dim, "sum_dim", false);
    return reduce_op(OpId::sum_dim, std::move(x), d);
}

TensorAny mean_dim(TensorAny x, int64_t dim) {
    int d = check_along_dim(x, dim, "mean_dim", false);
    return reduce_op(OpId::mean_dim, std::move(x), d);
}

TensorAny prod_dim(TensorAny x, int64_t dim) {
    int d = check_along_dim(x, dim, "prod_dim", false);
    return reduce_op(OpId::prod_dim, std::move(x), d);
}

std::pair<TensorAny, TensorAny> max_dim_with_indices(TensorAny x, int64_t dim) {
    return minmax_with_indices(OpId::max_dim, std::move(x), dim, "max_dim");
}
std::pair<TensorAny, TensorAny> min_dim_with_indices(TensorAny x, int64_t dim) {
    return minmax_with_indices(OpId::min_dim, std::move(x), dim, "min_dim");
}
TensorAny max_dim(TensorAny x, int64_t dim) {
    return max_dim_with_indices(std::move(x), dim).first;
}
TensorAny min_dim(TensorAny x, int64_t dim) {
    return min_dim_with_indices(std::move(x), dim).first;
}

TensorAny argmax(TensorAny x, int64_t dim) {
    return arg_op(OpId::argmax, std::move(x), dim, "argmax");
}
TensorAny argmin(TensorAny x, int64_t dim) {
    return arg_op(OpId::argmin, std::move(x), dim, "argmin");
}

TensorAny any_dim(TensorAny x, int64_t dim) {
    int d = check_along_dim(x, dim, "any_dim", true);
    return reduce_op(OpId::any_dim, std::move(x), d);
}
TensorAny all_dim(TensorAny x, int64_t dim) {
    int d = check_along_dim(x, dim, "all_dim", true);
    return reduce_op(OpId::all_dim, std::move(x), d);
}

// Full reductions validate under their own name, then flatten and reduce dim 0.
namespace {
void check_full(const TensorAny& x, const char* op, bool allow_bool) {
    check_defined(x, op);
    if (!allow_bool) {
        BURN_CHECK_KIND(!is_bool(x.dtype()), dtype, "[", op, "] is not defined for Bool tensors, got ",
                        describe(x), "; convert with .int_() first");
    }
}
}  // namespace

TensorAny sum(TensorAny x) {
    check_full(x, "sum", false);
    return sum_dim(flat(std::move(x), "sum"), 0);
}
TensorAny mean(TensorAny x) {
    check_full(x, "mean", false);
    BURN_CHECK_KIND(x.numel() > 0 || !is_int(x.dtype()), shape,
                    "[mean] the mean of an empty Int tensor is "
                    "undefined (tensor ",
                    describe(x), "); convert with .float_() to get NaN");
    return mean_dim(flat(std::move(x), "mean"), 0);
}
TensorAny prod(TensorAny x) {
    check_full(x, "prod", false);
    return prod_dim(flat(std::move(x), "prod"), 0);
}
TensorAny max(TensorAny x) {
    check_full(x, "max", false);
    BURN_CHECK_KIND(x.numel() > 0, shape, "[max] the maximum of an empty tensor is undefined (tensor ",
                    describe(x), ")");
    return max_dim(flat(std::move(x), "max"), 0);
}
TensorAny min(TensorAny x) {
    check_full(x, "min", false);
    BURN_CHECK_KIND(x.numel() > 0, shape, "[min] the minimum of an empty tensor is undefined (tensor ",
                    describe(x), ")");
    return min_dim(flat(std::move(x), "min"), 0);
}
TensorAny any(TensorAny x) {
    check_full(x, "any", true);
    return any_dim(flat(std::move(x), "any"), 0);
}
TensorAny all(TensorAny x) {
    check_full(x, "all", true);
    return all_dim(flat(std::move(x), "all"), 0);
}

TensorAny var(TensorAny x, int64_t dim, int64_t correction) {
    check_float(x, "var");
    int d = check_along_dim(x, dim, "var", false);
    BURN_CHECK(correction >= 0, "[var] correction must be non-negative, got ", correction);
    const int64_t n = x.shape()[d];
    TensorAny mu = mean_dim(x, d);
    TensorAny diff = sub(std::move(x), std::move(mu));
    TensorAny sq = mul(diff, diff);
    diff = TensorAny();
    // n - correction <= 0 divides by zero (inf / NaN), as burn and torch do.
    return div_scalar(sum_dim(std::move(sq), d), static_cast<double>(n - correction));
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of sum_dim, mean_dim, prod_dim, max_dim, min_dim,
// argmax, argmin, any_dim, all_dim, softmax, log_softmax, softmax_backward, masked_softmax

namespace burn::op_infer {

namespace {

TensorMeta reduced(const TensorMeta& x, int d, DType dtype) {
    Dims shape = x.shape;
    shape[d] = 1;
    return {dtype, shape};
}

Outs reduce_same(const OpCall& c, Metas in, unsigned flags = 0) {
    const int d = along_dim(c, in, flags);
    return {reduced(in[0], d, in[0].dtype)};
}

Outs reduce_to(const OpCall& c, Metas in, unsigned flags, DType dtype) {
    const int d = along_dim(c, in, flags);
    return {reduced(in[0], d, dtype)};
}

Outs reduce_with_indices(const OpCall& c, Metas in) {
    const int d = along_dim(c, in, kNonEmpty);
    return {reduced(in[0], d, in[0].dtype), reduced(in[0], d, DType::i32)};
}

Outs softmax_like(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const TensorMeta& x = in[0];
    check_float(c, x);
    BURN_CHECK_KIND(x.shape.rank() > 0, shape, "[", c.op, "] needs a tensor of rank >= 1, got ", describe(x));
    check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    return {x};
}

}  // namespace

Outs infer_sum_dim(const OpCall& c, Metas in) {
    return reduce_same(c, in);
}

Outs infer_mean_dim(const OpCall& c, Metas in) {
    const int d = along_dim(c, in, 0);
    const TensorMeta& x = in[0];
    BURN_CHECK_KIND(!is_int(x.dtype) || x.shape[d] > 0, shape,
                    "[mean_dim] the mean of an Int tensor over dim ", d, " of size 0 is undefined (tensor ",
                    describe(x), "); convert with .float_() to get NaN");
    return {reduced(x, d, x.dtype)};
}

Outs infer_prod_dim(const OpCall& c, Metas in) {
    return reduce_same(c, in);
}

Outs infer_max_dim(const OpCall& c, Metas in) {
    return reduce_with_indices(c, in);
}

Outs infer_min_dim(const OpCall& c, Metas in) {
    return reduce_with_indices(c, in);
}

Outs infer_argmax(const OpCall& c, Metas in) {
    return reduce_to(c, in, kNonEmpty, DType::i32);
}

Outs infer_argmin(const OpCall& c, Metas in) {
    return reduce_to(c, in, kNonEmpty, DType::i32);
}

Outs infer_any_dim(const OpCall& c, Metas in) {
    return reduce_to(c, in, kAllowBool, DType::boolean);
}

Outs infer_all_dim(const OpCall& c, Metas in) {
    return reduce_to(c, in, kAllowBool, DType::boolean);
}

Outs infer_softmax(const OpCall& c, Metas in) {
    return softmax_like(c, in);
}

Outs infer_log_softmax(const OpCall& c, Metas in) {
    return softmax_like(c, in);
}

Outs infer_softmax_backward(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 3);
    const TensorMeta &y = in[0], &g = in[1];
    BURN_CHECK_KIND(is_float(y.dtype), dtype, "[softmax_backward] needs float tensors, got y ", describe(y));
    check_same_dtype(c, y, g);
    BURN_CHECK_KIND(y.shape == g.shape, shape, "[softmax_backward] y ", describe(y), " and g ", describe(g),
                    " must have the same shape");
    BURN_CHECK_KIND(y.shape.rank() > 0, shape, "[softmax_backward] needs a tensor of rank >= 1, got ",
                    describe(y));
    const int d = check_dim(c, c.attrs<attrs::SoftmaxBackward>().dim, y.shape.rank());
    if (in.size() == 3) {
        check_bool(c, in[2], "the mask");
        check_same_shape(c, in[2], "the mask", y, "y");
        BURN_CHECK_KIND(d == y.shape.rank() - 1, shape, "[softmax_backward] a mask needs dim = the last (",
                        y.shape.rank() - 1, "), got ", d, "; apply the mask with where otherwise");
    }
    return {y};
}

Outs infer_masked_softmax(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &x = in[0], &mask = in[1];
    check_float(c, x);
    check_bool(c, mask, "the mask");
    BURN_CHECK_KIND(x.shape.rank() > 0, shape, "[masked_softmax] needs a tensor of rank >= 1, got ",
                    describe(x));
    check_same_shape(c, mask, "the mask", x, "x");
    const int d = check_dim(c, c.attrs<attrs::MaskedSoftmax>().dim, x.shape.rank());
    BURN_CHECK_KIND(d == x.shape.rank() - 1, shape, "[masked_softmax] the row needs dim = the last (",
                    x.shape.rank() - 1, "), got ", d,
                    "; use softmax(mask_fill(x, mask, fill), dim) otherwise");
    return {x};
}

}  // namespace burn::op_infer
