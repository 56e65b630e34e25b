// Frontend of matmul.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

TensorAny matmul(TensorAny, TensorAny) { BURN_THROW("not implemented yet"); }

}  // namespace burn::ops
