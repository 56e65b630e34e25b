// cummax_with_indices and cummin_with_indices (composites over the cummax / cummin rows): torch's
// running extremum with the index where it was reached. An element is a record where it equals the
// running extremum (ties included, so the latest of equal values wins, as torch's >=) or is NaN; the
// index is then the running maximum of the record positions (-1 elsewhere), one more cummax row.
#include <climits>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace scan_indices_impl {  // named, not anonymous: unity builds merge anonymous namespaces

std::pair<TensorAny, TensorAny> running_extremum_with_indices(TensorAny x, int64_t dim, bool max,
                                                              const char* name) {
    const int d = check_along_dim(x, dim, name);
    const int64_t n = x.shape()[d];
    BURN_CHECK_KIND(n <= INT32_MAX, shape, "[", name, "] dim ", d, " of ", describe(x),
                    " is too long for i32 indices");
    TensorAny y = max ? cummax(x, d) : cummin(x, d);
    TensorAny record = equal(x, y);
    if (is_float(x.dtype())) record = bool_or(std::move(record), is_nan(x));
    Dims lane = Dims::filled(x.rank(), 1);
    lane[d] = n;
    TensorAny pos = reshape(arange(0, n, 1, DType::i32, x.device()), lane);
    TensorAny none = full(Dims::filled(x.rank(), 1), -1, DType::i32, x.device());
    TensorAny idx = cummax(where(std::move(record), std::move(pos), std::move(none)), d);
    return {std::move(y), std::move(idx)};
}

}  // namespace scan_indices_impl

using namespace scan_indices_impl;

std::pair<TensorAny, TensorAny> cummax_with_indices(TensorAny x, int64_t dim) {
    return running_extremum_with_indices(std::move(x), dim, true, "cummax");
}

std::pair<TensorAny, TensorAny> cummin_with_indices(TensorAny x, int64_t dim) {
    return running_extremum_with_indices(std::move(x), dim, false, "cummin");
}

}  // namespace burn::ops
