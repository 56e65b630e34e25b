// Frontend of the elementwise ops, generated from elementwise.def: validation, broadcasting through
// explicit expand views, then one OpCall.
#include <limits>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

void check_kinds(const TensorAny& x, char kinds, const char* op) {
    check_defined(x, op);
    switch (kinds) {
        case 'F':
            check_float(x, op);
            break;
        case 'N':
            check_numeric(x, op);
            break;
        case 'B':
            check_bool(x, op, "the input");
            break;
        case 'I':
            check_int(x, op, "the input (a bit operation)");
            break;
        default:
            break;
    }
}

TensorAny unary(OpId op, char kinds, TensorAny x, double p0, double p1) {
    const OpInfo& info = op_info(op);
    check_kinds(x, kinds, info.name.data());
    const DType dtype = info.cls == OpClass::unary_pred ? DType::boolean : x.dtype();
    auto c = make_prechecked(op, attrs::Scalars{p0, p1}, dtype, x.shape(), x);
    return run1(c, take(std::move(x)));
}

TensorAny scalar_like(const TensorAny& x, double s) {
    return full(Dims::filled(x.rank(), 1), s, x.dtype(), x.device());
}

TensorAny binary(OpId op, char kinds, TensorAny a, TensorAny b) {
    const OpInfo& info = op_info(op);
    const char* name = info.name.data();
    check_kinds(a, kinds, name);
    check_same_dtype(a, b, name);
    Dims shape = broadcast_shapes(a.shape(), b.shape(), name);
    a = broadcast_to(std::move(a), shape, name);
    b = broadcast_to(std::move(b), shape, name);
    const DType dtype = info.cls == OpClass::compare ? DType::boolean : a.dtype();
    auto c = make_prechecked(op, attrs::None{}, dtype, shape, a, b);
    return run1(c, take(std::move(a), std::move(b)));
}

}  // namespace

#define BURN_UNARY(name, kinds, body, vjp, domain)                 \
    TensorAny name(TensorAny x, double p0, double p1) {            \
        return unary(OpId::name, #kinds[0], std::move(x), p0, p1); \
    }
#define BURN_UNARY_PRED(name, kinds, body, domain)                                         \
    TensorAny name(TensorAny x) {                                                          \
        check_defined(x, #name);                                                           \
        if (#kinds[0] == 'F' && !is_float(x.dtype()))                                      \
            return full(x.shape(), 0.0, DType::boolean, x.device()); /* ints are finite */ \
        return unary(OpId::name, #kinds[0], std::move(x), 0, 0);                           \
    }
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain)              \
    TensorAny name(TensorAny a, TensorAny b) {                            \
        return binary(OpId::name, #kinds[0], std::move(a), std::move(b)); \
    }                                                                     \
    TensorAny name##_scalar(TensorAny a, double s) {                      \
        check_kinds(a, #kinds[0], #name "_scalar");                       \
        TensorAny b = scalar_like(a, s);                                  \
        return binary(OpId::name, #kinds[0], std::move(a), std::move(b)); \
    }
#define BURN_COMPARE(name, kinds, body, domain)                           \
    TensorAny name(TensorAny a, TensorAny b) {                            \
        return binary(OpId::name, #kinds[0], std::move(a), std::move(b)); \
    }                                                                     \
    TensorAny name##_elem(TensorAny a, double s) {                        \
        check_kinds(a, #kinds[0], #name "_elem");                         \
        TensorAny b = scalar_like(a, s);                                  \
        return binary(OpId::name, #kinds[0], std::move(a), std::move(b)); \
    }
#include "burn/backend/elementwise.def"

TensorAny where(TensorAny c, TensorAny a, TensorAny b) {
    check_bool(c, "mask_where", "the mask");
    check_same_dtype(a, b, "mask_where");
    Dims shape =
        broadcast_shapes(broadcast_shapes(c.shape(), a.shape(), "mask_where"), b.shape(), "mask_where");
    c = broadcast_to(std::move(c), shape, "mask_where");
    a = broadcast_to(std::move(a), shape, "mask_where");
    b = broadcast_to(std::move(b), shape, "mask_where");
    auto k = make(OpId::where, attrs::None{}, metas(c, a, b));
    return run1(k, take(std::move(c), std::move(a), std::move(b)));
}

TensorAny mask_fill(TensorAny x, TensorAny mask, double value) {
    check_defined(x, "mask_fill");
    TensorAny v = scalar_like(x, value);
    return where(std::move(mask), std::move(v), std::move(x));
}

TensorAny rsub_scalar(TensorAny x, double s) {
    check_numeric(x, "sub_scalar");
    TensorAny a = scalar_like(x, s);
    return sub(std::move(a), std::move(x));
}

TensorAny rdiv_scalar(TensorAny x, double s) {
    check_numeric(x, "div_scalar");
    TensorAny a = scalar_like(x, s);
    return div(std::move(a), std::move(x));
}

TensorAny powi(TensorAny x, TensorAny exponent) {
    check_numeric(x, "powi");
    check_int(exponent, "powi", "the exponent");
    if (is_float(x.dtype())) {
        const DType dt = x.dtype();  // read before x is moved: argument evaluation order is unspecified
        return powf(std::move(x), cast(std::move(exponent), dt));
    }
    // Integer base: compute in f64 (exact for results below 2^53) and cast back.
    DType dt = x.dtype();
    return cast(powf(cast(std::move(x), DType::f64), cast(std::move(exponent), DType::f64)), dt);
}

TensorAny cast(TensorAny x, DType dtype) {
    check_defined(x, "cast");
    if (x.dtype() == dtype) return x;
    auto c = make(OpId::cast, attrs::Cast{dtype}, metas(x));
    return run1(c, take(std::move(x)));
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of cast

namespace burn::op_infer {

Outs infer_cast(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    return {{c.attrs<attrs::Cast>().dtype, in[0].shape}};
}

}  // namespace burn::op_infer
