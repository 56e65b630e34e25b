#pragma once
// The kinds column of elementwise.def (F float, N numeric, A all, B bool, I int) and the dtypes each kind
// accepts: one definition for the op table (op_info.cpp) and the backends' dtype dispatch.
#include "burn/backend/op.hpp"
#include "burn/core/dtype.hpp"

namespace burn {

constexpr OpKinds kinds_of(char k) {
    return k == 'F'   ? OpKinds::float_only
           : k == 'N' ? OpKinds::numeric
           : k == 'A' ? OpKinds::all
           : k == 'I' ? OpKinds::int_only
                      : OpKinds::bool_only;
}
#define BURN_KIND_F 'F'
#define BURN_KIND_N 'N'
#define BURN_KIND_A 'A'
#define BURN_KIND_B 'B'
#define BURN_KIND_I 'I'

/// The number of elementwise rows: OpId lists elementwise.def's rows first, so an id below this is an
/// elementwise row (op_info(id).cls is not structural) and any other is an ops.def row.
inline constexpr int kNumElementwiseOps = 0
#define BURN_UNARY(name, kinds, body, vjp, domain) +1
#define BURN_UNARY_PRED(name, kinds, body, domain) +1
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) +1
#define BURN_COMPARE(name, kinds, body, domain) +1
#define BURN_TERNARY(name, kinds, body, domain) +1
#include "burn/backend/elementwise.def"
    ;

/// Whether a row of kinds k computes dtype d: floats for every kind but bool_only and int_only; bool for all,
/// bool_only and any; integers for numeric, all, any and int_only (which takes nothing else).
constexpr bool kinds_accept(OpKinds k, DType d) {
    if (d == DType::boolean) return k == OpKinds::all || k == OpKinds::bool_only || k == OpKinds::any;
    if (is_float(d)) return k != OpKinds::bool_only && k != OpKinds::int_only;
    return k == OpKinds::numeric || k == OpKinds::all || k == OpKinds::any || k == OpKinds::int_only;
}

}  // namespace burn
