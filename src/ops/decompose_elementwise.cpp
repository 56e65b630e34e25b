// Decompositions of the derived elementwise rows of elementwise.def (arithmetic, rounding,
// trigonometry, hyperbolic inverses, comparison and logic) in the primitives add, sub, mul, div,
// remainder, exp, log, sqrt, sin, atan2, floor, equal, greater and where. Chains of float ops compute
// f16/bf16 in f32 like the kernels' bodies; single exact ops (negation, rounding, comparison) run in the
// input's dtype.
#include <limits>

#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;

TensorAny ceil_of(const TensorAny& x) {
    return negate(floor(negate(x)));
}

/// 1 - 2 sin^2(x / 2): accurate to an ulp of 1 for any x (a shifted sin would lose x's low bits).
TensorAny cos_of(const TensorAny& x) {
    TensorAny s = sin(mul(x, scalar(x, 0.5)));
    return sub(scalar(x, 1), mul(mul(s, s), scalar(x, 2)));
}

/// sqrt(1 - x^2) as sqrt((1 - x)(1 + x)), exact near |x| = 1.
TensorAny cosine_leg(const TensorAny& x) {
    return sqrt(mul(sub(scalar(x, 1), x), add(scalar(x, 1), x)));
}

/// Half to even: floor, then up when the fraction (exact: x - floor(x)) is above 1/2, or is 1/2 and
/// the floor is odd. Integers, infinities and NaN fall through as floor(x).
TensorAny round_even(const TensorAny& x) {
    TensorAny f = floor(x);
    TensorAny frac = sub(x, f);
    TensorAny up1 = add(f, scalar(x, 1));
    TensorAny odd = equal(sub(f, mul(floor(mul(f, scalar(x, 0.5))), scalar(x, 2))), scalar(x, 1));
    TensorAny r = where(greater(frac, scalar(x, 0.5)), up1, f);
    return where(equal(frac, scalar(x, 0.5)), where(odd, up1, f), r);
}

/// Past |x| = 20, e^-|x| is below half an ulp of e^|x| in f64: sinh and cosh are e^|x| / 2, computed
/// as (h / 2) * h with h = e^(|x| / 2) so that it overflows where e^|x| / 2 does, not where e^|x| does.
constexpr double kLarge = 20;
TensorAny half_exp(const TensorAny& a) {
    TensorAny h = exp(mul(a, scalar(a, 0.5)));
    return mul(mul(h, scalar(a, 0.5)), h);
}

/// Past 2^28, asinh|x| and acosh(x) are log(2|x|) to well under an ulp (the next term is 1 / (4 x^2)),
/// and squaring x could overflow.
constexpr double kHuge = 268435456.0;
constexpr double kLn2 = 0.69314718055994530942;
TensorAny log_twice(const TensorAny& a) {
    return add(log(a), scalar(a, kLn2));
}

/// asinh|x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))): no cancellation near 0.
TensorAny asinh_of(const TensorAny& x) {
    TensorAny a = absolute(x);
    TensorAny s = mul(a, a);
    TensorAny t = add(a, div(s, add(scalar(x, 1), sqrt(add(scalar(x, 1), s)))));
    return with_sign_of(x, where(greater(a, scalar(x, kHuge)), log_twice(a), log1p_of(t)));
}

/// acosh(x) = log1p(t + sqrt(t (t + 2))) with t = x - 1: accurate near 1; NaN below 1 (set explicitly:
/// far below -1 the argument rounds to -1 and would give -inf).
TensorAny acosh_of(const TensorAny& x) {
    TensorAny t = sub(x, scalar(x, 1));
    TensorAny r = log1p_of(add(t, sqrt(mul(t, add(t, scalar(x, 2))))));
    r = where(less(x, scalar(x, 1)), scalar(x, std::numeric_limits<double>::quiet_NaN()),
              r);  // t (t + 2) > 0 below -1
    return where(greater(x, scalar(x, kHuge)), log_twice(x), r);
}

/// hypot(a, b) = m sqrt(1 + (n / m)^2) with m = max(|a|, |b|), n = min: no overflow; an infinite
/// operand gives inf even beside a NaN (C's rule), two zeros give 0.
TensorAny hypot_of(const TensorAny& x, const TensorAny& y) {
    TensorAny a = absolute(x), b = absolute(y);
    TensorAny big = greater(a, b);
    TensorAny m = where(big, a, b), n = where(big, b, a);
    TensorAny q = div(n, m);
    TensorAny r = mul(m, sqrt(add(scalar(m, 1), mul(q, q))));
    r = where(equal(add(a, b), scalar(m, 0)), scalar(m, 0), r);
    TensorAny inf = scalar(m, kInf);
    return where(equal(a, inf), inf, where(equal(b, inf), inf, r));
}

/// fmod: the dividend's sign. Floats: remainder of the magnitudes (exact, no sign fix-up to round);
/// integers: a - trunc(a / b) b, 0 for a zero divisor as the kernel gives.
TensorAny fmod_of(const TensorAny& a, const TensorAny& b) {
    if (is_float(a.dtype())) return with_sign_of(a, remainder(absolute(a), absolute(b)));
    TensorAny r = sub(a, mul(div(a, b), b));
    return where(equal(b, scalar(b, 0)), scalar(a, 0), r);
}

TensorAny nan_to(const TensorAny& r, const TensorAny& a, const TensorAny& b) {
    if (!is_float(r.dtype())) return r;
    return where(nan_mask(b), b, where(nan_mask(a), a, r));
}

}  // namespace

void add_elementwise_decompositions(DecompositionTable& t) {
    // ---- arithmetic
    t.set(OpId::neg, [](const OpCall&, const Inputs& in) -> Outputs { return {negate(in[0])}; });
    t.set(OpId::abs, [](const OpCall&, const Inputs& in) -> Outputs {
        if (in[0].dtype() == DType::u8) return {in[0]};
        return {absolute(in[0])};
    });
    t.set(OpId::sign, [](const OpCall& c, const Inputs& in) -> Outputs {
        const TensorAny& x = in[0];
        return {sub(cast(greater(x, scalar(x, 0)), c.dtype), cast(less(x, scalar(x, 0)), c.dtype))};
    });
    t.set(OpId::recip, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return div(scalar(x, 1), x); });
    });
    t.set(OpId::square, [](const OpCall&, const Inputs& in) -> Outputs { return {mul(in[0], in[0])}; });
    t.set(OpId::log1p, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, decomp::log1p_of); });
    t.set(OpId::expm1, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, decomp::expm1_of); });
    t.set(OpId::log2, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return mul(log(x), scalar(x, 1.0 / kLn2)); });
    });
    t.set(OpId::rsqrt, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return div(scalar(x, 1), sqrt(x)); });
    });
    t.set(OpId::deg2rad, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return mul(x, scalar(x, 0.017453292519943295)); });
    });
    t.set(OpId::rad2deg, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return mul(x, scalar(x, 57.29577951308232)); });
    });
    t.set(OpId::hypot, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {down(hypot_of(up(in[0]), up(in[1])), c.dtype)};
    });
    t.set(OpId::fmod, [](const OpCall&, const Inputs& in) -> Outputs { return {fmod_of(in[0], in[1])}; });

    // ---- bit operations (ints; add, sub and mul wrap, so these identities hold modulo 2^bits)
    t.set(OpId::bitwise_not, [](const OpCall&, const Inputs& in) -> Outputs {  // ~x = -1 - x (255 - x)
        return {sub(scalar(in[0], in[0].dtype() == DType::u8 ? 255 : -1), in[0])};
    });
    t.set(OpId::bitwise_or, [](const OpCall&, const Inputs& in) -> Outputs {  // a | b = a + b - (a & b)
        return {sub(add(in[0], in[1]), bitwise_and(in[0], in[1]))};
    });
    t.set(OpId::bitwise_xor, [](const OpCall&, const Inputs& in) -> Outputs {  // a ^ b = a + b - 2 (a & b)
        return {sub(add(in[0], in[1]), mul(scalar(in[0], 2), bitwise_and(in[0], in[1])))};
    });

    // ---- trigonometric and hyperbolic
    t.set(OpId::cos, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, cos_of); });
    t.set(OpId::tan, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return div(sin(x), cos_of(x)); });
    });
    t.set(OpId::tanh, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, decomp::tanh_of); });
    t.set(OpId::sinh, [](const OpCall& c, const Inputs& in) {
        // sinh|x| = (e + e / (e + 1)) / 2 with e = expm1|x|: no cancellation near 0
        return unary_f(c, in, [](const TensorAny& x) {
            TensorAny a = absolute(x);
            TensorAny e = expm1_of(a);
            TensorAny r = mul(add(e, div(e, add(e, scalar(x, 1)))), scalar(x, 0.5));
            return with_sign_of(x, where(greater(a, scalar(x, kLarge)), half_exp(a), r));
        });
    });
    t.set(OpId::cosh, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) {
            TensorAny a = absolute(x);
            TensorAny e = exp(a);
            TensorAny r = add(mul(e, scalar(x, 0.5)), div(scalar(x, 0.5), e));
            return where(greater(a, scalar(x, kLarge)), half_exp(a), r);
        });
    });
    t.set(OpId::asin, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return atan2(x, cosine_leg(x)); });
    });
    t.set(OpId::acos, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return atan2(cosine_leg(x), x); });
    });
    t.set(OpId::asinh, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, asinh_of); });
    t.set(OpId::acosh, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, acosh_of); });
    t.set(OpId::atanh, [](const OpCall& c, const Inputs& in) {
        // atanh(x) = log1p(2x / (1 - x)) / 2: +-inf at +-1, NaN beyond
        return unary_f(c, in, [](const TensorAny& x) {
            TensorAny u = div(mul(x, scalar(x, 2)), sub(scalar(x, 1), x));
            return mul(log1p_of(u), scalar(x, 0.5));
        });
    });
    t.set(OpId::atan, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return atan2(x, scalar(x, 1)); });
    });

    // ---- rounding (exact in any float dtype)
    t.set(OpId::ceil, [](const OpCall&, const Inputs& in) -> Outputs { return {ceil_of(in[0])}; });
    t.set(OpId::round, [](const OpCall&, const Inputs& in) -> Outputs { return {round_even(in[0])}; });
    t.set(OpId::trunc, [](const OpCall&, const Inputs& in) -> Outputs {
        const TensorAny& x = in[0];
        return {where(less(x, scalar(x, 0)), ceil_of(x), floor(x))};
    });

    // ---- predicates, comparison and logic
    t.set(OpId::is_nan, [](const OpCall&, const Inputs& in) -> Outputs { return {nan_mask(in[0])}; });
    t.set(OpId::is_finite, [](const OpCall&, const Inputs& in) -> Outputs {
        // x - x is 0 for finite x (and every integer), NaN for inf and NaN
        return {equal(sub(in[0], in[0]), scalar(in[0], 0))};
    });
    t.set(OpId::is_inf, [](const OpCall&, const Inputs& in) -> Outputs {
        return {equal(absolute(in[0]), scalar(in[0], kInf))};
    });
    t.set(OpId::bool_not, [](const OpCall&, const Inputs& in) -> Outputs { return {logical_not(in[0])}; });
    t.set(OpId::bool_and,
          [](const OpCall&, const Inputs& in) -> Outputs { return {where(in[0], in[1], scalar(in[0], 0))}; });
    t.set(OpId::bool_or,
          [](const OpCall&, const Inputs& in) -> Outputs { return {where(in[0], scalar(in[0], 1), in[1])}; });
    t.set(OpId::bool_xor,
          [](const OpCall&, const Inputs& in) -> Outputs { return {logical_not(equal(in[0], in[1]))}; });
    t.set(OpId::not_equal,
          [](const OpCall&, const Inputs& in) -> Outputs { return {logical_not(equal(in[0], in[1]))}; });
    t.set(OpId::lower, [](const OpCall&, const Inputs& in) -> Outputs { return {less(in[0], in[1])}; });
    t.set(OpId::greater_equal,
          [](const OpCall&, const Inputs& in) -> Outputs { return {greater_eq(in[0], in[1])}; });
    t.set(OpId::lower_equal,
          [](const OpCall&, const Inputs& in) -> Outputs { return {greater_eq(in[1], in[0])}; });
    // max/min that propagate NaN (the kernels' max_nan/min_nan); ties keep b, as `a > b ? a : b` does.
    t.set(OpId::max_pair, [](const OpCall&, const Inputs& in) -> Outputs {
        const TensorAny &a = in[0], &b = in[1];
        return {nan_to(where(greater(a, b), a, b), a, b)};
    });
    t.set(OpId::min_pair, [](const OpCall&, const Inputs& in) -> Outputs {
        const TensorAny &a = in[0], &b = in[1];
        return {nan_to(where(less(a, b), a, b), a, b)};
    });
}

}  // namespace burn::ops::detail
