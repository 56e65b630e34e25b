// Composite order statistics and covariance (no rows of their own): median, median_dim (torch's lower
// median with its index) and cov (burn's covariance matrix). Written with sort, gather, reductions and
// matmul, so every device runs them and autodiff differentiates them through those rows.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

std::pair<TensorAny, TensorAny> median_dim_with_indices(TensorAny x, int64_t dim) {
    check_defined(x, "median_dim");
    check_numeric(x, "median_dim");
    const int d = check_along_dim(x, dim, "median_dim");
    const int64_t n = x.shape()[d];
    BURN_CHECK_KIND(n > 0, shape, "[median_dim] dim ", d, " of ", describe(x),
                    " is empty: the median of no values is undefined; select a non-empty dim");
    const bool floating = is_float(x.dtype());
    TensorAny nans = floating ? cast(is_nan(x), DType::i32) : TensorAny();
    auto [v, i] = sort_with_indices(std::move(x), d, false);  // stable, NaN last
    const int64_t k = (n - 1) / 2;                            // the lower median (torch's rule)
    if (!floating) return {narrow(std::move(v), d, k, 1), narrow(std::move(i), d, k, 1)};
    // A lane with NaN gives NaN and the index of its first NaN (torch.median), the sorted position
    // n - count: pos = k + (count > 0) (n - count - k).
    TensorAny count = sum_dim(std::move(nans), d);
    TensorAny has = cast(greater_elem(count, 0), DType::i32);
    TensorAny pos = add_scalar(mul(std::move(has), rsub_scalar(std::move(count), static_cast<double>(n - k))),
                               static_cast<double>(k));
    TensorAny values = gather(std::move(v), d, pos);
    return {std::move(values), gather(std::move(i), d, std::move(pos))};
}

TensorAny median_dim(TensorAny x, int64_t dim) {
    return median_dim_with_indices(std::move(x), dim).first;
}

TensorAny median(TensorAny x) {
    check_defined(x, "median");
    check_numeric(x, "median");
    BURN_CHECK_KIND(x.numel() > 0, shape, "[median] ", describe(x),
                    " has no elements: the median of no values is undefined");
    const int64_t n = x.numel();
    return median_dim(reshape(std::move(x), Dims{n}), 0);
}

TensorAny cov(TensorAny x, int64_t dim, int64_t correction) {
    check_defined(x, "cov");
    check_float(x, "cov");
    BURN_CHECK_KIND(x.rank() == 2, shape, "[cov] needs a matrix, got ", describe(x),
                    "; give [variables, observations] with dim 1 (torch.cov's layout) or [observations, "
                    "variables] with dim 0");
    const int d = check_along_dim(x, dim, "cov");
    BURN_CHECK(correction >= 0, "[cov] correction_factor ", correction,
               " must be >= 0 (1: sample covariance, 0: population)");
    const int64_t n = x.shape()[d];
    // burn's formula: centre along dim, observations first, then C = X^T X / (n - correction).
    TensorAny m = mean_dim(x, d);
    TensorAny c = swap_dims(sub(std::move(x), std::move(m)), d, 0);
    TensorAny ct = swap_dims(c, 0, 1);
    return div_scalar(matmul(std::move(ct), std::move(c)), static_cast<double>(n - correction));
}

}  // namespace burn::ops
