// Frontend of the reductions, scans and fused softmax.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

#define BURN_STUB(...) BURN_THROW("not implemented yet")
TensorAny softmax(TensorAny, int64_t) { BURN_STUB(); }
TensorAny log_softmax(TensorAny, int64_t) { BURN_STUB(); }
TensorAny sum_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny mean_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny prod_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny max_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny min_dim(TensorAny, int64_t) { BURN_STUB(); }
std::pair<TensorAny, TensorAny> max_dim_with_indices(TensorAny, int64_t) { BURN_STUB(); }
std::pair<TensorAny, TensorAny> min_dim_with_indices(TensorAny, int64_t) { BURN_STUB(); }
TensorAny argmax(TensorAny, int64_t) { BURN_STUB(); }
TensorAny argmin(TensorAny, int64_t) { BURN_STUB(); }
TensorAny any_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny all_dim(TensorAny, int64_t) { BURN_STUB(); }
TensorAny sum(TensorAny) { BURN_STUB(); }
TensorAny mean(TensorAny) { BURN_STUB(); }
TensorAny prod(TensorAny) { BURN_STUB(); }
TensorAny max(TensorAny) { BURN_STUB(); }
TensorAny min(TensorAny) { BURN_STUB(); }
TensorAny any(TensorAny) { BURN_STUB(); }
TensorAny all(TensorAny) { BURN_STUB(); }
TensorAny var(TensorAny, int64_t, int64_t) { BURN_STUB(); }
TensorAny cumsum(TensorAny, int64_t) { BURN_STUB(); }

}  // namespace burn::ops
