// infer for the creation, layout, view and index rows of ops.def.
#include "ops/infer.hpp"

namespace burn::op_infer {

Outs infer_fill(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Fill>();
    return {{a.dtype, a.shape}};
}

Outs infer_arange(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Arange>();
    BURN_CHECK_KIND(!is_bool(a.dtype), dtype, "[arange] cannot make a bool range");
    BURN_CHECK_KIND(a.n >= 0, shape, "[arange] invalid length ", a.n);
    return {{a.dtype, Dims{a.n}}};
}

Outs infer_random(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Random>();
    return {{a.dtype, a.shape}};
}

Outs infer_cast(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    return {{c.attrs<attrs::Cast>().dtype, in[0].shape}};
}

Outs infer_copy(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    (void)c.attrs<attrs::None>();
    return {in[0]};
}

Outs infer_reshape(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    const TensorMeta& x = in[0];
    for (int64_t d : shape) BURN_CHECK_KIND(d >= 0, shape, "[reshape] invalid dimension ", d, " in ", shape);
    BURN_CHECK_KIND(shape.numel() == x.shape.numel(), shape, "[reshape] cannot reshape ", x.shape, " (",
                    x.shape.numel(), " elements) into ", shape, " (", shape.numel(), " elements)");
    return {{x.dtype, shape}};
}

Outs infer_permute(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto axes = c.attrs<attrs::Permute>().axes;
    const TensorMeta& x = in[0];
    const int r = x.shape.rank();
    BURN_CHECK_KIND(static_cast<int>(axes.size()) == r, shape, "[permute] ", axes.size(),
                    " axes given for a tensor of shape ", x.shape);
    bool seen[kMaxRank] = {};
    Dims shape = x.shape;
    for (int i = 0; i < r; ++i) {
        const int d = check_dim(c, axes[static_cast<std::size_t>(i)], r);
        BURN_CHECK_KIND(!seen[d], shape, "[permute] axis ", d, " repeated in the axes of a permute of ",
                        x.shape);
        seen[d] = true;
        shape[i] = x.shape[d];
    }
    return {{x.dtype, shape}};
}

Outs infer_expand(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    const TensorMeta& x = in[0];
    BURN_CHECK_KIND(shape.rank() >= x.shape.rank(), shape, "[expand] cannot expand ", x.shape,
                    " to the lower rank ", shape);
    const int lead = shape.rank() - x.shape.rank();
    for (int i = 0; i < shape.rank(); ++i) {
        BURN_CHECK_KIND(shape[i] >= 0, shape, "[expand] invalid target ", shape);
        if (i < lead) continue;
        const int64_t have = x.shape[i - lead];
        BURN_CHECK_KIND(have == shape[i] || have == 1, shape, "[expand] cannot expand ", x.shape, " to ",
                        shape, ": dim ", i, " has size ", have, " (only size-1 dims can grow)");
    }
    return {{x.dtype, shape}};
}

namespace {
/// The slice's shape: one normalised range per dim of x.
Dims slice_shape(const OpCall& c, const TensorMeta& x) {
    const auto ranges = c.attrs<attrs::Slice>().ranges;
    const int r = x.shape.rank();
    BURN_CHECK_KIND(static_cast<int>(ranges.size()) == r, shape, "[", c.op, "] ", ranges.size(),
                    " ranges given for a tensor of shape ", x.shape, "; the call needs one per dim");
    Dims shape = x.shape;
    for (int d = 0; d < r; ++d) {
        const attrs::Slice::Range& g = ranges[static_cast<std::size_t>(d)];
        const int64_t n = x.shape[d];
        BURN_CHECK(g.step != 0, "[", c.op, "] step must not be zero (dim ", d, ")");
        BURN_CHECK_KIND(g.start >= 0 && g.start <= g.end && g.end <= n, index, "[", c.op, "] range ", g.start,
                        "..", g.end, " is out of bounds for dim ", d, " of size ", n, " (shape ", x.shape,
                        "); the call's ranges are normalised to 0 <= start <= end <= size");
        shape[d] = g.length();
    }
    return shape;
}
}  // namespace

Outs infer_slice(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    return {{in[0].dtype, slice_shape(c, in[0])}};
}

Outs infer_slice_assign(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &x = in[0], &values = in[1];
    check_same_dtype(c, x, values);
    const Dims shape = slice_shape(c, x);
    BURN_CHECK_KIND(values.shape == shape, shape, "[slice_assign] values of shape ", values.shape,
                    " do not match the slice's shape ", shape, " (tensor ", x.shape, ")");
    return {x};
}

Outs infer_cat(const OpCall& c, Metas in) {
    BURN_CHECK(!in.empty(), "[cat] needs at least one tensor");
    const TensorMeta& first = in[0];
    const int r = first.shape.rank();
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, r);
    int64_t total = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const TensorMeta& x = in[i];
        BURN_CHECK_KIND(x.dtype == first.dtype, dtype, "[cat] dtype mismatch: tensor 0 is ", describe(first),
                        " but tensor ", i, " is ", describe(x), "; cast them to one dtype first");
        BURN_CHECK_KIND(x.shape.rank() == r, shape, "[cat] rank mismatch: tensor 0 has shape ", first.shape,
                        " but tensor ", i, " has shape ", x.shape);
        for (int k = 0; k < r; ++k) {
            if (k == d) continue;
            BURN_CHECK_KIND(x.shape[k] == first.shape[k], shape, "[cat] shapes must match except along dim ",
                            d, ": tensor 0 has shape ", first.shape, " but tensor ", i, " has shape ",
                            x.shape, " (dim ", k, " differs)");
        }
        BURN_CHECK_KIND(checked_add(total, x.shape[d], total), shape,
                        "[cat] the concatenated size overflows int64");
    }
    Dims shape = first.shape;
    shape[d] = total;
    return {{first.dtype, shape}};
}

Outs infer_gather(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &x = in[0], &indices = in[1];
    check_int(c, indices, "indices");
    BURN_CHECK_KIND(indices.shape.rank() == x.shape.rank(), shape,
                    "[gather] indices must have the tensor's rank: tensor ", describe(x), ", indices ",
                    describe(indices));
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    for (int k = 0; k < x.shape.rank(); ++k) {
        if (k == d) continue;
        BURN_CHECK_KIND(indices.shape[k] <= x.shape[k], shape, "[gather] indices of shape ", indices.shape,
                        " exceed the tensor's shape ", x.shape, " on dim ", k, " (only dim ", d,
                        " may be larger)");
    }
    return {{x.dtype, indices.shape}};
}

Outs infer_scatter_add(const OpCall& c, Metas in) {
    check_arity(c, in, 3, 3);
    const TensorMeta &x = in[0], &indices = in[1], &values = in[2];
    check_numeric(c, x);
    check_same_dtype(c, x, values);
    check_int(c, indices, "indices");
    BURN_CHECK_KIND(indices.shape.rank() == x.shape.rank() && values.shape.rank() == x.shape.rank(), shape,
                    "[scatter_add] tensor, indices and values must have one rank: tensor ", x.shape,
                    ", indices ", indices.shape, ", values ", values.shape);
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    for (int k = 0; k < x.shape.rank(); ++k) {
        BURN_CHECK_KIND(indices.shape[k] <= values.shape[k], shape, "[scatter_add] indices of shape ",
                        indices.shape, " exceed the values' shape ", values.shape, " on dim ", k);
        if (k == d) continue;
        BURN_CHECK_KIND(indices.shape[k] <= x.shape[k], shape, "[scatter_add] indices of shape ",
                        indices.shape, " exceed the tensor's shape ", x.shape, " on dim ", k, " (only dim ",
                        d, " may be larger)");
    }
    return {x};
}

namespace {
/// select and select_add: x with dim = the number of indices.
Dims selected_shape(const OpCall& c, const TensorMeta& x, const TensorMeta& indices) {
    check_int(c, indices, "indices");
    BURN_CHECK_KIND(indices.shape.rank() == 1, shape, "[", c.op, "] indices must be 1-D, got ",
                    describe(indices), "; flatten them first");
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    Dims shape = x.shape;
    shape[d] = indices.shape[0];
    return shape;
}
}  // namespace

Outs infer_select(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    return {{in[0].dtype, selected_shape(c, in[0], in[1])}};
}

Outs infer_select_add(const OpCall& c, Metas in) {
    check_arity(c, in, 3, 3);
    const TensorMeta &x = in[0], &values = in[2];
    check_numeric(c, x);
    check_same_dtype(c, x, values);
    const Dims expected = selected_shape(c, x, in[1]);
    BURN_CHECK_KIND(values.shape == expected, shape, "[select_add] values must have shape ", expected,
                    " (x's shape ", x.shape, " with the selected dim = the ", in[1].shape[0],
                    " indices), got ", values.shape);
    return {x};
}

}  // namespace burn::op_infer
