#include "ops/common.hpp"

namespace burn::ops::detail {

std::string describe(const TensorAny& t) {
    ::burn::detail::Text os;
    os << t.dtype() << ' ' << t.shape() << " on " << t.device();
    return os.str();
}

namespace {
constexpr const char* kUndefined =
    "the tensor is undefined (default-constructed): give it a value first (an op's result, zeros, "
    "from_data, ...); a module's parameters are undefined until the module is built with its config's "
    "init(device) or loaded";
}  // namespace

void check_defined(const TensorAny& t, const char* op) {
    BURN_CHECK(t.defined(), "[", op, "] ", kUndefined);
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

int check_along_dim(const TensorAny& x, int64_t dim, const char* op, bool allow_bool) {
    check_defined(x, op);
    if (!allow_bool) {
        BURN_CHECK_KIND(!is_bool(x.dtype()), dtype, "[", op, "] is not defined for Bool tensors, got ",
                        describe(x), "; convert with .int_() first");
    }
    BURN_CHECK_KIND(x.rank() > 0, shape, "[", op, "] needs a tensor of rank >= 1, got ", describe(x));
    return normalize_dim(dim, x.rank(), op);
}

void check_int(const TensorAny& t, const char* op, const char* what) {
    check_defined(t, op);
    BURN_CHECK_KIND(is_int(t.dtype()), dtype, "[", op, "] ", what, " must be an Int tensor, got ",
                    describe(t));
}

void check_bool(const TensorAny& t, const char* op, const char* what) {
    check_defined(t, op);
    BURN_CHECK_KIND(is_bool(t.dtype()), dtype, "[", op, "] ", what, " must be a Bool tensor, got ",
                    describe(t));
}

void check_same_dtype(const TensorAny& a, const TensorAny& b, const char* op) {
    check_defined(a, op);
    check_defined(b, op);
    BURN_CHECK_KIND(a.dtype() == b.dtype(), dtype, "[", op, "] dtype mismatch: lhs ", describe(a), " vs rhs ",
                    describe(b), "; cast one with .cast(DType::", a.dtype(), ")");
}

int64_t fit_size(wide v, const char* op, const char* what) {
    BURN_CHECK_KIND(v <= INT64_MAX && v >= INT64_MIN, shape, "[", op, "] ", what, " overflows int64 (",
                    static_cast<long double>(v), ")");
    return static_cast<int64_t>(v);
}

TensorAny broadcast_to(TensorAny t, const Dims& shape, const char* op) {
    if (t.shape() == shape) return t;
    return expand(std::move(t), shape);
    (void)op;
}

}  // namespace burn::ops::detail

namespace burn {
TensorAny TensorAny::to_device(const Device& device) const {
    return ops::to_device(*this, device);
}
TensorAny TensorAny::set_require_grad(bool on) const {
    return ops::require_grad(*this, on);
}
}  // namespace burn

namespace burn::detail {
[[noreturn]] void throw_undefined_tensor() {
    BURN_THROW("[Tensor] ", ::burn::ops::detail::kUndefined);
}
}  // namespace burn::detail
