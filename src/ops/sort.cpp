// Frontend of sort, argsort and topk.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

std::pair<TensorAny, TensorAny> sort_with_indices(TensorAny, int64_t, bool) { BURN_THROW("not implemented yet"); }
std::pair<TensorAny, TensorAny> topk_with_indices(TensorAny, int64_t, int64_t) { BURN_THROW("not implemented yet"); }

}  // namespace burn::ops
