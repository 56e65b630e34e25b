// Frontend of the indexing ops: cat, select, select_assign, gather, scatter, one_hot (slice_assign's
// frontend lives in layout.cpp). Shapes, dtypes and devices are validated here; index values are
// checked by the kernels, which throw burn::IndexError naming the op, the value and the dim size.
#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {
void check_index_tensor(const TensorAny& indices, const char* op) {
    check_int(indices, op, "indices");
}

void check_same_device(const TensorAny& a, const TensorAny& b, const char* op) {
    BURN_CHECK_KIND(a.device() == b.device(), device, "[", op,
                    "] inputs are on different devices: ", describe(a), " vs ", describe(b),
                    "; move them with .to_device(device) first");
}
}  // namespace

TensorAny cat(const std::vector<TensorAny>& xs, int64_t dim) {
    BURN_CHECK(!xs.empty(), "[cat] needs at least one tensor");
    for (const auto& x : xs) check_defined(x, "cat");
    const TensorAny& first = xs[0];
    const int r = first.rank();
    const int d = normalize_dim(dim, r, "cat");
    for (const auto& x : xs) check_same_device(first, x, "cat");
    // infer checks the dtypes, ranks and the other dims, and sums the sizes along d
    std::vector<TensorMeta> in;
    in.reserve(xs.size());
    for (const auto& x : xs) in.push_back(meta(x));
    auto c = make(OpId::cat, attrs::Dim{d}, in);
    if (xs.size() == 1) return first;
    TensorRefs refs;
    refs.reserve(xs.size());
    for (const auto& x : xs) refs.push_back(x.ref());
    return run1(c, std::move(refs));
}

TensorAny select(TensorAny x, int64_t dim, TensorAny indices) {
    check_defined(x, "select");
    check_index_tensor(indices, "select");
    BURN_CHECK_KIND(indices.rank() == 1, shape, "[select] indices must be 1-D, got ", describe(indices),
                    "; flatten them first");
    check_same_device(x, indices, "select");
    const int d = normalize_dim(dim, x.rank(), "select");
    auto c = make(OpId::select, attrs::Dim{d}, metas(x, indices));
    return run1(c, take(std::move(x), std::move(indices)));
}

TensorAny select_assign(TensorAny x, int64_t dim, TensorAny indices, TensorAny values) {
    check_numeric(x, "select_assign");
    check_same_dtype(x, values, "select_assign");
    check_index_tensor(indices, "select_assign");
    BURN_CHECK_KIND(indices.rank() == 1, shape, "[select_assign] indices must be 1-D, got ",
                    describe(indices), "; flatten them first");
    check_same_device(x, indices, "select_assign");
    check_same_device(x, values, "select_assign");
    const int d = normalize_dim(dim, x.rank(), "select_assign");
    Dims expected = x.shape();
    expected[d] = indices.shape()[0];
    BURN_CHECK_KIND(values.shape() == expected, shape, "[select_assign] values must have shape ", expected,
                    " (x's shape ", x.shape(), " with dim ", d, " = the ", indices.shape()[0],
                    " indices), got ", values.shape());
    auto c = make(OpId::select_add, attrs::Dim{d}, metas(x, indices, values));
    return run1(c, take(std::move(x), std::move(indices), std::move(values)));
}

TensorAny gather(TensorAny x, int64_t dim, TensorAny indices) {
    check_defined(x, "gather");
    check_index_tensor(indices, "gather");
    check_same_device(x, indices, "gather");
    BURN_CHECK_KIND(indices.rank() == x.rank(), shape,
                    "[gather] indices must have the tensor's rank: tensor ", describe(x), ", indices ",
                    describe(indices));
    const int d = normalize_dim(dim, x.rank(), "gather");
    for (int k = 0; k < x.rank(); ++k) {
        if (k == d) continue;
        BURN_CHECK_KIND(indices.shape()[k] <= x.shape()[k], shape, "[gather] indices of shape ",
                        indices.shape(), " exceed the tensor's shape ", x.shape(), " on dim ", k,
                        " (only dim ", d, " may be larger)");
    }
    auto c = make(OpId::gather, attrs::Dim{d}, metas(x, indices));
    return run1(c, take(std::move(x), std::move(indices)));
}

TensorAny scatter(TensorAny x, int64_t dim, TensorAny indices, TensorAny values) {
    check_numeric(x, "scatter");
    check_same_dtype(x, values, "scatter");
    check_index_tensor(indices, "scatter");
    check_same_device(x, indices, "scatter");
    check_same_device(x, values, "scatter");
    op_infer::check_scatter_ranks("scatter", x.shape(), indices.shape(), values.shape());
    const int d = normalize_dim(dim, x.rank(), "scatter");
    op_infer::check_scatter_shapes("scatter", x.shape(), indices.shape(), values.shape(), d);
    auto c = make(OpId::scatter_add, attrs::Dim{d}, metas(x, indices, values));
    return run1(c, take(std::move(x), std::move(indices), std::move(values)));
}

TensorAny one_hot_fill(TensorAny x, int64_t num_classes, double on_value, double off_value, int64_t axis) {
    check_numeric(x, "one_hot_fill");
    BURN_CHECK(num_classes >= 1, "[one_hot_fill] num_classes must be at least 1, got ", num_classes);
    const int d = normalize_dim(axis, x.rank() + 1, "one_hot_fill");
    const DType dt = x.dtype();
    TensorAny classes = is_float(dt) ? cast(std::move(x), DType::i64) : std::move(x);
    if (dt != DType::u8)  // negative classes count from the end
        classes = where(lower_elem(classes, 0), add_scalar(classes, double(num_classes)), classes);
    TensorAny hot = greater_elem(one_hot(std::move(classes), num_classes), 0);
    const Dims ones = Dims::filled(hot.rank(), 1);
    const Device device = hot.device();
    TensorAny y = where(std::move(hot), full(ones, on_value, dt, device), full(ones, off_value, dt, device));
    const int last = y.rank() - 1;  // before y is moved: the argument order is unspecified
    return d == last ? y : movedim(std::move(y), Dims{last}, Dims{d});
}

TensorAny one_hot(TensorAny x, int64_t num_classes) {
    check_numeric(x, "one_hot");
    BURN_CHECK(num_classes >= 0, "[one_hot] num_classes must be non-negative, got ", num_classes);
    BURN_CHECK_KIND(x.rank() < kMaxRank, shape, "[one_hot] the result would exceed rank ", kMaxRank, " for ",
                    describe(x));
    const DType dt = x.dtype();
    const Device device = x.device();
    Dims shape = x.shape();
    shape.push_back(num_classes);
    Dims ones_shape = x.shape();
    ones_shape.push_back(1);
    // zeros[..., C] scatter-added with 1 at [..., x]: one pass over the output, and the scatter kernel
    // checks every value against [0, num_classes). Float classes are truncated toward zero.
    TensorAny classes = is_float(dt) ? cast(std::move(x), DType::i64) : std::move(x);
    TensorAny indices = unsqueeze_dim(std::move(classes), -1);
    TensorAny ones = expand(full(Dims::filled(shape.rank(), 1), 1.0, dt, device), ones_shape);
    TensorAny zeros = full(shape, 0.0, dt, device);
    // A GPU reports the bad class at the next synchronisation; this names one_hot there too.
    ::burn::detail::ErrorContext context(::burn::detail::msg(
        "[one_hot] a class value is outside [0, ", num_classes, ") (num_classes = ", num_classes, "): "));
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
        return scatter(std::move(zeros), -1, std::move(indices), std::move(ones));
    } catch (const IndexError& e) {
        BURN_THROW_KIND(index, "[one_hot] a class value is outside [0, ", num_classes,
                        ") (num_classes = ", num_classes, "): ", e.what());
    }
#else
    return scatter(std::move(zeros), -1, std::move(indices), std::move(ones));
#endif
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of cat, gather, scatter_add, select, select_add

namespace burn::op_infer {

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
    check_scatter_ranks("scatter_add", x.shape, indices.shape, values.shape);
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    check_scatter_shapes("scatter_add", x.shape, indices.shape, values.shape, d);
    return {x};
}

void check_scatter_ranks(const char* op, const Dims& x, const Dims& indices, const Dims& values,
                         const char* suffix) {
    BURN_CHECK_KIND(indices.rank() == x.rank() && values.rank() == x.rank(), shape, "[", op,
                    "] tensor, indices and values must have one rank: tensor ", x, ", indices ", indices,
                    ", values ", values, suffix);
}

void check_scatter_shapes(const char* op, const Dims& x, const Dims& indices, const Dims& values, int d,
                          const char* suffix) {
    check_scatter_ranks(op, x, indices, values, suffix);
    for (int k = 0; k < x.rank(); ++k) {
        BURN_CHECK_KIND(indices[k] <= values[k], shape, "[", op, "] indices of shape ", indices,
                        " exceed the values' shape ", values, " on dim ", k, suffix);
        if (k == d) continue;
        BURN_CHECK_KIND(indices[k] <= x[k], shape, "[", op, "] indices of shape ", indices,
                        " exceed the tensor's shape ", x, " on dim ", k, " (only dim ", d, " may be larger)",
                        suffix);
    }
}

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
