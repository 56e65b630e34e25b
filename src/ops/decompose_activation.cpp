// Decompositions of the derived activation rows of elementwise.def (relu, leaky_relu, sigmoid, silu,
// gelu, gelu_tanh, softplus, clamp, powi_scalar and the fused gradients relu_backward and
// gelu_backward), following the row bodies of elementwise.def and burn::bm (scalar_math.hpp) term by
// term; float chains compute f16/bf16 in f32 like the kernels.
#include <cmath>
#include <optional>

#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;

constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;
constexpr double kSqrt2OverPi = 0.79788456080286535588;

/// Split by sign so exp never overflows (bm::sigmoid).
TensorAny sigmoid_of(const TensorAny& x) {
    TensorAny e = exp(x);
    TensorAny neg_branch = div(e, add(scalar(x, 1), e));
    TensorAny pos_branch = div(scalar(x, 1), add(scalar(x, 1), exp(negate(x))));
    return where(less(x, scalar(x, 0)), neg_branch, pos_branch);
}

/// Phi(x) = 0.5 (1 + erf(x / sqrt 2)).
TensorAny normal_cdf(const TensorAny& x) {
    return mul(scalar(x, 0.5), add(scalar(x, 1), erf(mul(x, scalar(x, kSqrtHalf)))));
}

/// The smallest and largest value of an integer dtype, exactly (long double holds int64).
void int_range(DType dt, long double& lo, long double& hi) {
    const int bits = static_cast<int>(size_of(dt)) * 8;
    if (dt == DType::u8) {
        lo = 0;
        hi = 255;
        return;
    }
    lo = -std::ldexp(1.0L, bits - 1);
    hi = std::ldexp(1.0L, bits - 1) - 1;
}

/// Integer clamp as bm::clamp does it: compared in double, so x < lo means x < ceil(lo) and the
/// result is lo truncated; bounds beyond the dtype's range clamp nothing.
TensorAny clamp_int(const TensorAny& x, double lo, double hi) {
    long double tmin = 0, tmax = 0;
    int_range(x.dtype(), tmin, tmax);
    TensorAny r = x;
    const long double above = std::floor(static_cast<long double>(hi));
    if (!std::isnan(hi) && above < tmax) {
        TensorAny hit = above < tmin ? scalar(x, 1, DType::boolean) : greater(x, scalar(x, double(above)));
        r = where(hit, scalar(x, std::trunc(hi)), r);
    }
    const long double below = std::ceil(static_cast<long double>(lo));
    if (!std::isnan(lo) && below > tmin) {
        TensorAny hit = below > tmax ? scalar(x, 1, DType::boolean) : less(x, scalar(x, double(below)));
        r = where(hit, scalar(x, std::trunc(lo)), r);
    }
    return r;
}

/// x^n with wrapping integer products (any product order gives the same residue) and bm::powi's
/// rule for negative n: 1 for x = 1, +-1 for x = -1, 0 otherwise.
TensorAny powi_int(const TensorAny& x, int n) {
    if (n < 0) {
        const double minus_one = x.dtype() == DType::u8 ? 255 : -1;
        TensorAny r = where(equal(x, scalar(x, minus_one)), scalar(x, n % 2 ? minus_one : 1), scalar(x, 0));
        return where(equal(x, scalar(x, 1)), scalar(x, 1), r);
    }
    std::optional<TensorAny> r;
    TensorAny b = x;
    while (n) {
        if (n & 1) r = r ? mul(*r, b) : b;
        n >>= 1;
        if (n) b = mul(b, b);
    }
    return r ? *r : full(x.shape(), 1, x.dtype(), x.device());
}

}  // namespace

void add_activation_decompositions(DecompositionTable& t) {
    t.set(OpId::relu, [](const OpCall&, const Inputs& in) -> Outputs {
        const TensorAny& x = in[0];
        return {where(less(x, scalar(x, 0)), scalar(x, 0), x)};
    });
    t.set(OpId::relu_backward, [](const OpCall&, const Inputs& in) -> Outputs {
        const TensorAny &x = in[0], &g = in[1];
        return {where(greater(x, scalar(x, 0)), g, scalar(g, 0))};
    });
    t.set(OpId::leaky_relu, [](const OpCall& c, const Inputs& in) {
        const double slope = c.attrs<attrs::LeakyRelu>().slope;
        return unary_f(c, in, [slope](const TensorAny& x) {
            return where(greater(x, scalar(x, 0)), x, mul(x, scalar(x, slope)));
        });
    });
    t.set(OpId::sigmoid, [](const OpCall& c, const Inputs& in) { return unary_f(c, in, sigmoid_of); });
    t.set(OpId::silu, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) { return mul(x, sigmoid_of(x)); });
    });
    t.set(OpId::gelu, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) {
            return mul(mul(scalar(x, 0.5), x), add(scalar(x, 1), erf(mul(x, scalar(x, kSqrtHalf)))));
        });
    });
    t.set(OpId::gelu_backward, [](const OpCall& c, const Inputs& in) -> Outputs {
        // g * (Phi(x) + x phi(x)), phi(x) = exp(-x^2 / 2) / sqrt(2 pi)
        TensorAny x = up(in[0]), g = up(in[1]);
        TensorAny pdf = mul(scalar(x, kInvSqrt2Pi), exp(mul(mul(scalar(x, -0.5), x), x)));
        return {down(mul(g, add(normal_cdf(x), mul(x, pdf))), c.dtype)};
    });
    t.set(OpId::gelu_tanh, [](const OpCall& c, const Inputs& in) {
        return unary_f(c, in, [](const TensorAny& x) {
            TensorAny cube = mul(mul(mul(scalar(x, 0.044715), x), x), x);
            TensorAny inner = mul(scalar(x, kSqrt2OverPi), add(x, cube));
            return mul(mul(scalar(x, 0.5), x), add(scalar(x, 1), tanh_of(inner)));
        });
    });
    t.set(OpId::softplus, [](const OpCall& c, const Inputs& in) {
        // log(1 + exp(beta x)) / beta, and x where beta x > threshold
        const auto a = c.attrs<attrs::Softplus>();
        const double beta = a.beta, threshold = a.threshold;
        return unary_f(c, in, [beta, threshold](const TensorAny& x) {
            TensorAny bx = mul(scalar(x, beta), x);
            TensorAny soft = div(log1p_of(exp(bx)), scalar(x, beta));
            return where(greater(bx, scalar(x, threshold)), x, soft);
        });
    });
    t.set(OpId::clamp, [](const OpCall& c, const Inputs& in) -> Outputs {
        const auto a = c.attrs<attrs::Clamp>();
        const double lo = a.min, hi = a.max;
        if (!is_float(c.dtype)) return {clamp_int(in[0], lo, hi)};
        // NaN stays NaN: both comparisons are false for it.
        return unary_f(c, in, [lo, hi](const TensorAny& x) {
            TensorAny r = where(greater(x, scalar(x, hi)), scalar(x, hi), x);
            return where(less(x, scalar(x, lo)), scalar(x, lo), r);
        });
    });
    t.set(OpId::powi_scalar, [](const OpCall& c, const Inputs& in) -> Outputs {
        const int n = static_cast<int>(c.attrs<attrs::Powi>().exponent);
        if (!is_float(c.dtype)) return {powi_int(in[0], n)};
        return unary_f(c, in, [n](const TensorAny& x) { return powf(x, scalar(x, n)); });
    });
}

}  // namespace burn::ops::detail
