#pragma once
// Dtype conversion on load that never loses values silently: a value that does not fit the module's
// dtype (an i64 of 2^40 into i32, a finite f64 that becomes inf in f16, a non-integral float into an
// int, a 2 into bool) is an error naming the tensor, the element and the value.
#include <string>

#include "burn/tensor/data.hpp"

namespace burn::store::detail {

/// data converted to dtype `to`; throws burn::Error "tensor 'name': element i (value v) ..." when a
/// value would change beyond rounding. Rounding to the nearest representable value is accepted
/// (f64 -> f32 -> f16/bf16 and int -> float keep the nearest value), overflow to inf is not.
TensorData convert_checked(const TensorData& data, DType to, const std::string& name);

}  // namespace burn::store::detail
