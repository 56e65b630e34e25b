#pragma once
// Helpers shared by the frontend op files (validation and OpCall construction).
#include <string>
#include <utility>

#include "burn/tensor/ops.hpp"

namespace burn::ops::detail {

/// "f32 [2, 3] on cpu": how errors describe an operand.
std::string describe(const TensorAny& t);
/// Throws if t is not one of the accepted dtypes for op.
void check_float(const TensorAny& t, const char* op);
void check_numeric(const TensorAny& t, const char* op);
void check_int(const TensorAny& t, const char* op, const char* what);
void check_bool(const TensorAny& t, const char* op, const char* what);
void check_same_dtype(const TensorAny& a, const TensorAny& b, const char* op);
void check_defined(const TensorAny& t, const char* op);
/// Makes an OpCall.
OpCall call(OpId op, DType dtype, const Dims& shape, std::vector<int64_t> ints = {}, double s0 = 0, double s1 = 0);
/// An op's inputs, moved into a TensorRefs: run1(c, refs(std::move(a), std::move(b))). Prefer it to a
/// braced list: {std::move(a).ref()} copies each handle out of its std::initializer_list, so the
/// backend sees a second reference and cannot reuse a temporary's buffer in place.
template <class... Ts>
TensorRefs refs(Ts&&... xs) {
    TensorRefs v;
    v.reserve(sizeof...(Ts));
    (v.push_back(std::forward<Ts>(xs).ref()), ...);
    return v;
}
/// Broadcasts t to shape through an expand view (no copy); returns t itself when already that shape.
TensorAny broadcast_to(TensorAny t, const Dims& shape, const char* op);

}  // namespace burn::ops::detail
