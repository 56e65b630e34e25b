// Frontend of matmul: [..., m, k] x [..., k, n] -> [..., m, n]. Batch dims broadcast through expand
// views (no copies); the backend receives operands whose batch dims are equal.
#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

TensorAny matmul(TensorAny a, TensorAny b) {
    check_defined(a, "matmul");
    check_defined(b, "matmul");
    BURN_CHECK_KIND(!is_bool(a.dtype()) && !is_bool(b.dtype()), dtype,
                    "[matmul] needs float or int tensors, got lhs ", describe(a), " and rhs ", describe(b),
                    "; convert bool tensors with .int_() or .float_()");
    check_same_dtype(a, b, "matmul");
    BURN_CHECK_KIND(a.rank() >= 2 && b.rank() >= 2, shape, "[matmul] needs tensors of rank >= 2, got lhs ",
                    a.shape(), " and rhs ", b.shape(), "; add a dim with unsqueeze");
    BURN_CHECK_KIND(a.rank() == b.rank(), shape, "[matmul] rank mismatch: lhs ", a.shape(), " vs rhs ",
                    b.shape(), "; unsqueeze the lower-rank operand");
    BURN_CHECK_KIND(a.device() == b.device(), device, "[matmul] inputs are on different devices: lhs ",
                    describe(a), ", rhs ", describe(b), "; move them with .to_device(device) first");
    const int r = a.rank();
    const int64_t k = a.shape()[r - 1];
    BURN_CHECK_KIND(k == b.shape()[r - 2], shape, "[matmul] inner dims differ: lhs ", a.shape(), " vs rhs ",
                    b.shape(), " (lhs's last dim ", k, " must equal rhs's second-to-last dim ",
                    b.shape()[r - 2], ")");
    Dims a_target = a.shape(), b_target = b.shape();
    for (int d = 0; d < r - 2; ++d) {
        const int64_t da = a.shape()[d], db = b.shape()[d];
        BURN_CHECK_KIND(da == db || da == 1 || db == 1, shape, "[matmul] batch dims do not broadcast: lhs ",
                        a.shape(), " vs rhs ", b.shape(), " (dim ", d, ": ", da, " vs ", db, ")");
        const int64_t size = da == 1 ? db : da;
        a_target[d] = b_target[d] = size;
    }
    a = broadcast_to(std::move(a), a_target, "matmul");
    b = broadcast_to(std::move(b), b_target, "matmul");
    auto c = make(OpId::matmul, attrs::None{}, metas(a, b));
    return run1(c, {std::move(a).ref(), std::move(b).ref()});
}

TensorAny matmul_widen(TensorAny a, TensorAny b, DType out) {
    check_defined(a, "matmul_widen");
    check_defined(b, "matmul_widen");
    auto c = make(OpId::matmul_widen, attrs::Cast{out}, metas(a, b));
    return run1(c, {std::move(a).ref(), std::move(b).ref()});
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of matmul

namespace burn::op_infer {

Outs infer_matmul(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    (void)c.attrs<attrs::None>();
    const TensorMeta &a = in[0], &b = in[1];
    BURN_CHECK_KIND(!is_bool(a.dtype) && !is_bool(b.dtype), dtype,
                    "[matmul] needs float or int tensors, got lhs ", describe(a), " and rhs ", describe(b),
                    "; convert bool tensors with .int_() or .float_()");
    check_same_dtype(c, a, b);
    const int r = a.shape.rank();
    BURN_CHECK_KIND(r >= 2 && b.shape.rank() >= 2, shape, "[matmul] needs tensors of rank >= 2, got lhs ",
                    a.shape, " and rhs ", b.shape, "; add a dim with unsqueeze");
    BURN_CHECK_KIND(r == b.shape.rank(), shape, "[matmul] rank mismatch: lhs ", a.shape, " vs rhs ", b.shape,
                    "; unsqueeze the lower-rank operand");
    const int64_t k = a.shape[r - 1];
    BURN_CHECK_KIND(k == b.shape[r - 2], shape, "[matmul] inner dims differ: lhs ", a.shape, " vs rhs ",
                    b.shape, " (lhs's last dim ", k, " must equal rhs's second-to-last dim ", b.shape[r - 2],
                    ")");
    Dims out = a.shape;
    for (int d = 0; d < r - 2; ++d) {
        BURN_CHECK_KIND(a.shape[d] == b.shape[d], shape, "[matmul] the row's batch dims must be equal: lhs ",
                        a.shape, " vs rhs ", b.shape, " (dim ", d, "); broadcast them with expand first");
    }
    out[r - 1] = b.shape[r - 1];
    return {{a.dtype, out}};
}

Outs infer_matmul_widen(const OpCall& c, Metas in) {
    const DType out = c.attrs<attrs::Cast>().dtype;
    check_arity(c, in, 2, 2);
    BURN_CHECK_KIND(is_float(in[0].dtype) && is_float(out), dtype, "[matmul_widen] multiplies float operands",
                    " into a float dtype, got lhs ", describe(in[0]), " and output ", out,
                    "; use matmul for integers");
    OpCall m = c;
    m.op = OpId::matmul;
    m.dtype = in[0].dtype;
    Outs o = infer_matmul(m, in);
    o[0].dtype = out;
    return o;
}

}  // namespace burn::op_infer
