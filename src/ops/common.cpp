#include "ops/common.hpp"

#include <sstream>

namespace burn::ops::detail {

std::string describe(const TensorAny& t) {
    std::ostringstream os;
    os << t.dtype() << ' ' << t.shape() << " on " << t.device();
    return os.str();
}

void check_defined(const TensorAny& t, const char* op) {
    BURN_CHECK(t.defined(), "[", op, "] called on an undefined tensor (a default-constructed Tensor)");
}

void check_float(const TensorAny& t, const char* op) {
    check_defined(t, op);
    BURN_CHECK_KIND(is_float(t.dtype()), dtype, "[", op, "] needs a float tensor, got ", describe(t),
                    "; convert with .float_()");
}

void check_numeric(const TensorAny& t, const char* op) {
    check_defined(t, op);
    BURN_CHECK_KIND(!is_bool(t.dtype()), dtype, "[", op, "] needs a float or int tensor, got ", describe(t),
                    "; convert with .int_() or .float_()");
}

void check_int(const TensorAny& t, const char* op, const char* what) {
    check_defined(t, op);
    BURN_CHECK_KIND(is_int(t.dtype()), dtype, "[", op, "] ", what, " must be an Int tensor, got ", describe(t));
}

void check_bool(const TensorAny& t, const char* op, const char* what) {
    check_defined(t, op);
    BURN_CHECK_KIND(is_bool(t.dtype()), dtype, "[", op, "] ", what, " must be a Bool tensor, got ", describe(t));
}

void check_same_dtype(const TensorAny& a, const TensorAny& b, const char* op) {
    check_defined(a, op);
    check_defined(b, op);
    BURN_CHECK_KIND(a.dtype() == b.dtype(), dtype, "[", op, "] dtype mismatch: lhs ", describe(a), " vs rhs ",
                    describe(b), "; cast one with .cast(DType::", a.dtype(), ")");
}

OpCall call(OpId op, DType dtype, const Dims& shape, std::vector<int64_t> ints, double s0, double s1) {
    OpCall c;
    c.op = op;
    c.dtype = dtype;
    c.shape = shape;
    c.ints = std::move(ints);
    c.scalars[0] = s0;
    c.scalars[1] = s1;
    return c;
}

TensorAny broadcast_to(TensorAny t, const Dims& shape, const char* op) {
    if (t.shape() == shape) return t;
    return expand(std::move(t), shape);
    (void)op;
}

}  // namespace burn::ops::detail
