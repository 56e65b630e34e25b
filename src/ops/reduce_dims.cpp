// Composite reductions (no rows of their own): over several dims (sum_dims, mean_dims, prod_dims,
// max_dims, min_dims), max_abs, var_mean, and the closeness predicates contains_nan, is_close and
// all_close. Each is written with reduce and elementwise rows, so every device runs it and autodiff
// differentiates it through those rows.
#include <vector>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {

/// The normalised, distinct dims of x to reduce (each checked as check_along_dim does).
std::vector<int> reduce_dims_of(const TensorAny& x, const Dims& dims, const char* op, bool allow_bool) {
    check_defined(x, op);
    std::vector<int> out;
    std::vector<bool> seen(static_cast<std::size_t>(x.rank()), false);
    for (int64_t dim : dims) {
        const int d = check_along_dim(x, dim, op, allow_bool);
        BURN_CHECK_KIND(!seen[static_cast<std::size_t>(d)], shape, "[", op, "] dim ", d, " appears twice in ",
                        dims, " for a tensor of shape ", x.shape(), "; list each dim once");
        seen[static_cast<std::size_t>(d)] = true;
        out.push_back(d);
    }
    return out;
}

template <class F>
TensorAny each_dim(TensorAny x, const Dims& dims, const char* op, F reduce) {
    for (int d : reduce_dims_of(x, dims, op, false)) x = reduce(std::move(x), d);
    return x;
}

}  // namespace

TensorAny sum_dims(TensorAny x, const Dims& dims) {
    return each_dim(std::move(x), dims, "sum_dims",
                    [](TensorAny t, int d) { return sum_dim(std::move(t), d); });
}

TensorAny prod_dims(TensorAny x, const Dims& dims) {
    return each_dim(std::move(x), dims, "prod_dims",
                    [](TensorAny t, int d) { return prod_dim(std::move(t), d); });
}

TensorAny max_dims(TensorAny x, const Dims& dims) {
    return each_dim(std::move(x), dims, "max_dims",
                    [](TensorAny t, int d) { return max_dim(std::move(t), d); });
}

TensorAny min_dims(TensorAny x, const Dims& dims) {
    return each_dim(std::move(x), dims, "min_dims",
                    [](TensorAny t, int d) { return min_dim(std::move(t), d); });
}

TensorAny mean_dims(TensorAny x, const Dims& dims) {
    if (!x.defined() || is_float(x.dtype()))
        return each_dim(std::move(x), dims, "mean_dims",
                        [](TensorAny t, int d) { return mean_dim(std::move(t), d); });
    // integers: one truncating division of the i64 sum, as mean_dim over the flattened dims would give
    const std::vector<int> ds = reduce_dims_of(x, dims, "mean_dims", false);
    int64_t n = 1;
    for (int d : ds) n *= x.shape()[d];
    const DType dt = x.dtype();
    TensorAny s = cast(std::move(x), DType::i64);
    for (int d : ds) s = sum_dim(std::move(s), d);
    if (n == 0) return cast(std::move(s), dt);  // an empty sum: 0, as mean_dim gives
    return cast(div_scalar(std::move(s), static_cast<double>(n)), dt);
}

TensorAny max_abs(TensorAny x) {
    check_defined(x, "max_abs");
    check_numeric(x, "max_abs");
    return max(abs(std::move(x)));
}

TensorAny max_abs_dim(TensorAny x, int64_t dim) {
    check_defined(x, "max_abs_dim");
    check_numeric(x, "max_abs_dim");
    check_along_dim(x, dim, "max_abs_dim");
    return max_dim(abs(std::move(x)), dim);
}

TensorAny max_abs_dims(TensorAny x, const Dims& dims) {
    if (x.defined()) check_numeric(x, "max_abs_dims");
    const std::vector<int> ds = reduce_dims_of(x, dims, "max_abs_dims", false);
    TensorAny a = abs(std::move(x));
    for (int d : ds) a = max_dim(std::move(a), d);
    return a;
}

std::pair<TensorAny, TensorAny> var_mean(TensorAny x, int64_t dim, int64_t correction) {
    check_defined(x, "var_mean");
    check_float(x, "var_mean");
    check_along_dim(x, dim, "var_mean");
    TensorAny m = mean_dim(x, dim);
    return {var(std::move(x), dim, correction), std::move(m)};
}

TensorAny contains_nan(TensorAny x) {
    check_defined(x, "contains_nan");
    check_numeric(x, "contains_nan");
    return any(is_nan(std::move(x)));
}

TensorAny is_close(TensorAny a, TensorAny b, double rtol, double atol) {
    check_defined(a, "is_close");
    check_defined(b, "is_close");
    check_numeric(a, "is_close");
    check_same_dtype(a, b, "is_close");
    BURN_CHECK(rtol >= 0 && atol >= 0, "[is_close] rtol ", rtol, " and atol ", atol,
               " must be non-negative (torch.isclose's rule)");
    // integers compare in f64 (their difference may overflow), f16/bf16 in f32
    BURN_CHECK_KIND(a.rank() == b.rank(), shape, "[is_close] ranks differ: ", a.shape(), " vs ", b.shape(),
                    "; unsqueeze the lower-rank operand");
    for (int d = 0; d < a.rank(); ++d)
        BURN_CHECK_KIND(a.shape()[d] == b.shape()[d] || a.shape()[d] == 1 || b.shape()[d] == 1, shape,
                        "[is_close] shapes ", a.shape(), " and ", b.shape(), " cannot be broadcast: dim ", d,
                        " is ", a.shape()[d], " vs ", b.shape()[d], " (each must be equal or 1)");
    const DType ct = is_float(a.dtype()) ? (a.dtype() == DType::f64 ? DType::f64 : DType::f32) : DType::f64;
    a = cast(std::move(a), ct);
    b = cast(std::move(b), ct);
    TensorAny bound = add_scalar(mul_scalar(abs(b), rtol), atol);
    TensorAny near = lower_equal(abs(sub(a, b)), std::move(bound));
    TensorAny finite = bool_and(is_finite(a), is_finite(b));
    return bool_or(equal(a, b), bool_and(std::move(finite), std::move(near)));
}

bool all_close(TensorAny a, TensorAny b, double rtol, double atol) {
    TensorAny c = is_close(std::move(a), std::move(b), rtol, atol);
    if (c.numel() == 0) return true;
    return into_data(all(std::move(c))).to_vec<bool>()[0];
}

}  // namespace burn::ops
