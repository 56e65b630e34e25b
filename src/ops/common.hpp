#pragma once
// Helpers shared by the frontend op files (validation and OpCall construction).
#include <array>
#include <span>
#include <string>
#include <utility>

#include "burn/backend/backend.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/ops.hpp"
#include "core/int128.hpp"

namespace burn::ops::detail {

/// Runs call on the inputs' device (checking that all inputs share it) and returns the outputs.
TensorRefs run(const OpCall& call, TensorRefs inputs);
/// One-output form.
TensorAny run1(const OpCall& call, TensorRefs inputs);
/// Runs an op without inputs (creation) on device. output_checked: the frontend has already checked the
/// call's output shape with check_shape (under its own name), so dispatch does not check it again.
TensorAny run_on(const Device& device, const OpCall& call, bool output_checked = false);

/// "f32 [2, 3] on cpu": how errors describe an operand.
std::string describe(const TensorAny& t);
/// Throws if t is not one of the accepted dtypes for op.
void check_float(const TensorAny& t, const char* op);
void check_numeric(const TensorAny& t, const char* op);
void check_int(const TensorAny& t, const char* op, const char* what);
void check_bool(const TensorAny& t, const char* op, const char* what);
void check_same_dtype(const TensorAny& a, const TensorAny& b, const char* op);
void check_defined(const TensorAny& t, const char* op);
/// Validates an op along one dim of x (reductions, scans): rank >= 1, not Bool unless allow_bool.
/// Returns the normalised dim.
int check_along_dim(const TensorAny& x, int64_t dim, const char* op, bool allow_bool = false);
/// Moves the handles into a TensorRefs. (A braced list `{std::move(x).ref()}` would copy them out of
/// the initializer_list, which keeps a second reference alive during the call and so defeats the
/// backend's in-place reuse of uniquely owned inputs.)
template <class... Ts>
TensorRefs take(Ts&&... ts) {
    TensorRefs refs;
    refs.reserve(sizeof...(ts));
    (refs.push_back(std::move(ts).ref()), ...);
    return refs;
}
/// A size computed in 128-bit arithmetic (its int64 terms may overflow int64 when combined), checked
/// to fit int64: a ShapeError "[op] <what> ... overflows int64" otherwise.
int64_t fit_size(wide v, const char* op, const char* what);
/// t's dtype and shape.
inline TensorMeta meta(const TensorAny& t) {
    return {t.dtype(), t.shape()};
}
/// The metas of a call's inputs, inline (no allocation per op call).
template <class... Ts>
std::array<TensorMeta, sizeof...(Ts)> metas(const Ts&... ts) {
    return {meta(ts)...};
}
/// The call of op with attributes a, its outputs' metas recorded from infer on the inputs' metas (which
/// also validates the call: the frontends check only what their own arguments add, such as devices,
/// undefined tensors and dims before normalisation).
template <class A>
OpCall make(OpId op, const A& a, std::span<const TensorMeta> in = {}) {
    OpCall c = make_call(op, a);
    infer_call(c, in);
    return c;
}
/// The call of a one-output row whose frontend has already checked everything the row's infer checks
/// (elementwise rows: the inputs' kinds, one dtype, one shape after broadcasting; fill and expand: the
/// target shape), given that output's dtype and shape: recorded without make's check_attrs and infer,
/// which every op of a tensor expression would otherwise pay a second time. Builds without NDEBUG
/// compare it with make's call on the inputs.
template <class A, class... Ts>
OpCall make_prechecked(OpId op, const A& a, DType dtype, const Dims& shape, const Ts&... inputs) {
    OpCall c{op, dtype, shape, {}, {0, 0}, {}};
    a.encode(c);  // a row whose attributes hold the output's dtype or shape (fill, expand) writes the same
#ifndef NDEBUG
    BURN_CHECK(c == make(op, a, metas(inputs...)), "[", op,
               "] the frontend's call differs from the one infer records");
#else
    ((void)inputs, ...);
#endif
    return c;
}
/// Broadcasts t to shape through an expand view (no copy); returns t itself when already that shape.
TensorAny broadcast_to(TensorAny t, const Dims& shape, const char* op);

}  // namespace burn::ops::detail
