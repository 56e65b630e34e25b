// Frontend of the indexing ops: cat, slice_assign (kernel), select, gather, scatter, one_hot.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

TensorAny cat(const std::vector<TensorAny>&, int64_t) { BURN_THROW("not implemented yet"); }
TensorAny select(TensorAny, int64_t, TensorAny) { BURN_THROW("not implemented yet"); }
TensorAny select_assign(TensorAny, int64_t, TensorAny, TensorAny) { BURN_THROW("not implemented yet"); }
TensorAny gather(TensorAny, int64_t, TensorAny) { BURN_THROW("not implemented yet"); }
TensorAny scatter(TensorAny, int64_t, TensorAny, TensorAny) { BURN_THROW("not implemented yet"); }
TensorAny one_hot(TensorAny, int64_t) { BURN_THROW("not implemented yet"); }

}  // namespace burn::ops
