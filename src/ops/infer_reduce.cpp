// infer for the reduce, scan, sort and contract rows of ops.def. Reductions keep the reduced dim with
// size 1.
#include <climits>

#include "ops/infer.hpp"

namespace burn::op_infer {

namespace {

enum Reduce : unsigned { kAllowBool = 1, kNonEmpty = 2 };

/// The reduced dim of a one-input reduction, after the frontends' checks.
int reduce_dim(const OpCall& c, Metas in, unsigned flags) {
    check_arity(c, in, 1, 1);
    const TensorMeta& x = in[0];
    if (!(flags & kAllowBool)) {
        BURN_CHECK_KIND(!is_bool(x.dtype), dtype, "[", c.op, "] is not defined for Bool tensors, got ",
                        describe(x), "; convert with .int_() first");
    }
    BURN_CHECK_KIND(x.shape.rank() > 0, shape, "[", c.op, "] needs a tensor of rank >= 1, got ", describe(x));
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    if (flags & kNonEmpty) {
        BURN_CHECK_KIND(x.shape[d] > 0, shape, "[", c.op, "] cannot reduce over dim ", d,
                        " of size 0 (tensor ", describe(x), "): the ", c.op, " of an empty set is undefined");
    }
    return d;
}

TensorMeta reduced(const TensorMeta& x, int d, DType dtype) {
    Dims shape = x.shape;
    shape[d] = 1;
    return {dtype, shape};
}

Outs reduce_same(const OpCall& c, Metas in, unsigned flags = 0) {
    const int d = reduce_dim(c, in, flags);
    return {reduced(in[0], d, in[0].dtype)};
}

Outs reduce_to(const OpCall& c, Metas in, unsigned flags, DType dtype) {
    const int d = reduce_dim(c, in, flags);
    return {reduced(in[0], d, dtype)};
}

Outs reduce_with_indices(const OpCall& c, Metas in) {
    const int d = reduce_dim(c, in, kNonEmpty);
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
    const int d = reduce_dim(c, in, 0);
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

Outs infer_cumsum(const OpCall& c, Metas in) {
    const int d = reduce_dim(c, in, 0);
    (void)d;
    return {in[0]};
}

Outs infer_sort(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const TensorMeta& x = in[0];
    const auto a = c.attrs<attrs::Sort>();
    BURN_CHECK_KIND(x.shape.rank() >= 1, shape, "[sort] needs a tensor of rank >= 1, got ", describe(x));
    const int d = check_dim(c, a.dim, x.shape.rank());
    const int64_t n = x.shape[d];
    BURN_CHECK_KIND(n <= INT32_MAX, shape, "[sort] dim ", d, " of ", describe(x),
                    " is too long for i32 indices");
    Dims shape = x.shape;
    if (a.k >= 0) {
        BURN_CHECK_KIND(a.k <= n, index, "[sort] k = ", a.k, " is out of range for dim ", d, " of size ", n,
                        " (", describe(x), "); k must be between 0 and ", n);
        shape[d] = a.k;
    }
    return {{x.dtype, shape}, {DType::i32, shape}};
}

Outs infer_matmul(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    (void)c.attrs<attrs::None>();
    const TensorMeta &a = in[0], &b = in[1];
    BURN_CHECK_KIND(!is_bool(a.dtype) && !is_bool(b.dtype), dtype,
                    "[matmul] needs float or int tensors, got lhs ", describe(a), " and rhs ", describe(b),
                    "; convert bool tensors with .int_() or .float_()");
    check_same_dtype(c, a, b);
    const int r = a.shape.rank();
    BURN_CHECK_KIND(r >= 2 && b.shape.rank() >= 2, shape, "[matmul] needs tensors of rank >= 2, got lhs ",
                    a.shape, " and rhs ", b.shape, "; add a dim with unsqueeze");
    BURN_CHECK_KIND(r == b.shape.rank(), shape, "[matmul] rank mismatch: lhs ", a.shape, " vs rhs ", b.shape,
                    "; unsqueeze the lower-rank operand");
    const int64_t k = a.shape[r - 1];
    BURN_CHECK_KIND(k == b.shape[r - 2], shape, "[matmul] inner dims differ: lhs ", a.shape, " vs rhs ",
                    b.shape, " (lhs's last dim ", k, " must equal rhs's second-to-last dim ", b.shape[r - 2],
                    ")");
    Dims out = a.shape;
    for (int d = 0; d < r - 2; ++d) {
        BURN_CHECK_KIND(a.shape[d] == b.shape[d], shape, "[matmul] the row's batch dims must be equal: lhs ",
                        a.shape, " vs rhs ", b.shape, " (dim ", d, "); broadcast them with expand first");
    }
    out[r - 1] = b.shape[r - 1];
    return {{a.dtype, out}};
}

}  // namespace burn::op_infer
