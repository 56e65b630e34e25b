// Decompositions of the derived reduce and index rows: mean_dim, min_dim, argmax, argmin, any_dim,
// all_dim, the softmax family (softmax, log_softmax, softmax_backward, masked_softmax), select and
// select_add, over the primitives sum_dim, max_dim, gather and scatter_add; and matmul_widen (matmul,
// then cast).
#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;

int dim_of(const OpCall& c) {
    return static_cast<int>(c.attrs<attrs::Dim>().dim);
}

/// An order-reversing bijection of x's dtype that is its own inverse and never overflows: -x for
/// floats (ties and NaN keep their places), -1 - x for signed ints, 255 - x for u8. max_dim over it
/// finds the first minimum, as min_dim's kernel does.
TensorAny reversed(const TensorAny& x) {
    if (is_float(x.dtype())) return negate(x);
    return sub(scalar(x, x.dtype() == DType::u8 ? 255 : -1), x);
}

std::pair<TensorAny, TensorAny> min_with_indices(const TensorAny& x, int d) {
    auto [v, i] = max_dim_with_indices(reversed(x), d);
    return {reversed(v), i};
}

/// Whether any element along d is non-zero (NaN counts), as a bool tensor with d kept.
TensorAny any_along(const TensorAny& nonzero, int d) {
    return equal(max_dim_with_indices(cast(nonzero, DType::i32), d).first, scalar(nonzero, 1, DType::i32));
}

TensorAny nonzero(const TensorAny& x) {
    return is_bool(x.dtype()) ? x : logical_not(equal(x, scalar(x, 0)));
}

}  // namespace

void add_reduce_decompositions(DecompositionTable& t) {
    t.set(OpId::matmul_widen,
          [](const OpCall& c, const Inputs& in) -> Outputs { return {cast(matmul(in[0], in[1]), c.dtype)}; });
    t.set(OpId::mean_dim, [](const OpCall& c, const Inputs& in) -> Outputs {
        const TensorAny& x = in[0];
        const int d = dim_of(c);
        const auto n = static_cast<double>(x.shape()[d]);
        if (is_float(x.dtype())) {
            TensorAny xf = up(x);
            return {down(div(sum_dim(xf, d), scalar(xf, n)), c.dtype)};
        }
        // integers: the sum in i64 (wrapping like the kernel's accumulator), truncating division
        TensorAny s = sum_dim(cast(x, DType::i64), d);
        return {cast(div(s, scalar(s, n)), c.dtype)};
    });
    t.set(OpId::min_dim, [](const OpCall& c, const Inputs& in) -> Outputs {
        auto [v, i] = min_with_indices(in[0], dim_of(c));
        return {v, i};
    });
    t.set(OpId::argmax, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {cast(max_dim_with_indices(in[0], dim_of(c)).second, c.dtype)};
    });
    t.set(OpId::argmin, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {cast(min_with_indices(in[0], dim_of(c)).second, c.dtype)};
    });
    t.set(OpId::any_dim, [](const OpCall& c, const Inputs& in) -> Outputs {
        const int d = dim_of(c);
        if (in[0].shape()[d] == 0) return {full(c.shape, 0, DType::boolean, in[0].device())};
        return {any_along(nonzero(in[0]), d)};
    });
    t.set(OpId::all_dim, [](const OpCall& c, const Inputs& in) -> Outputs {
        const int d = dim_of(c);
        if (in[0].shape()[d] == 0) return {full(c.shape, 1, DType::boolean, in[0].device())};
        return {logical_not(any_along(logical_not(nonzero(in[0])), d))};
    });

    t.set(OpId::softmax, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {down(softmax_of(up(in[0]), dim_of(c), false), c.dtype)};
    });
    t.set(OpId::log_softmax, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {down(softmax_of(up(in[0]), dim_of(c), true), c.dtype)};
    });
    t.set(OpId::softmax_backward, [](const OpCall& c, const Inputs& in) -> Outputs {
        // softmax: y * (g - sum(g * y)); log_softmax: g - exp(y) * sum(g); 0 where the mask is true
        const auto a = c.attrs<attrs::SoftmaxBackward>();
        const int d = static_cast<int>(a.dim);
        TensorAny y = up(in[0]), g = up(in[1]);
        TensorAny dx = a.log ? sub(g, mul(exp(y), sum_dim(g, d))) : mul(y, sub(g, sum_dim(mul(g, y), d)));
        if (in.size() > 2) dx = where(in[2], scalar(dx, 0), dx);
        return {down(dx, c.dtype)};
    });
    t.set(OpId::masked_softmax, [](const OpCall& c, const Inputs& in) -> Outputs {
        // the frontend has rounded the fill value to x's dtype
        const auto a = c.attrs<attrs::MaskedSoftmax>();
        TensorAny x = up(in[0]);
        TensorAny filled = where(in[1], scalar(x, a.fill), x);
        return {down(softmax_of(filled, static_cast<int>(a.dim), false), c.dtype)};
    });

    t.set(OpId::select, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {index_select(in[0], dim_of(c), in[1])};
    });
    t.set(OpId::select_add, [](const OpCall& c, const Inputs& in) -> Outputs {
        return {index_add(in[0], dim_of(c), in[1], in[2])};
    });
}

}  // namespace burn::ops::detail
