// Gradient rules of the structural ops (ops.def), written with frontend ops so they run on any
// device. Broadcasting reaches the graph as an explicit expand whose rule sums back; no other rule
// deals with it.
#include <array>

#include "autodiff/graph.hpp"
#include "autodiff/rules.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/fft_factored.hpp"

namespace burn::autodiff {

using namespace ops;
using Grads = std::vector<TensorAny>;

TensorAny zeros_as(const TensorAny& t) {
    return full(t.shape(), 0.0, t.dtype(), t.device());
}

TensorAny sum_to(TensorAny g, const Dims& shape) {
    const int lead = g.rank() - shape.rank();
    for (int i = 0; i < lead; ++i) g = squeeze_dim(sum_dim(std::move(g), 0), 0);
    for (int i = 0; i < shape.rank(); ++i)
        if (shape[i] == 1 && g.shape()[i] != 1) g = sum_dim(std::move(g), i);
    return g;
}

namespace {

std::vector<SliceArg> ranges_of(const OpCall& call) {
    std::vector<SliceArg> r;
    for (const auto& g : call.attrs<attrs::Slice>().ranges) r.emplace_back(g.start, g.end, g.step);
    return r;
}

/// The dim of a row with attrs::Dim.
int64_t dim_of(const OpCall& call) {
    return call.attrs<attrs::Dim>().dim;
}

Grads copy_rule(const VjpContext& c) {
    return {c.g[0]};
}
Grads cast_rule(const VjpContext& c) {
    if (!is_float(c.x[0].dtype())) return {TensorAny()};
    return {cast(c.g[0], c.x[0].dtype())};
}
Grads reshape_rule(const VjpContext& c) {
    return {reshape(c.g[0], c.x[0].shape())};
}
Grads permute_rule(const VjpContext& c) {
    const auto axes = c.call.attrs<attrs::Permute>().axes;
    Dims inv = Dims::filled(static_cast<int>(axes.size()), 0);
    for (std::size_t i = 0; i < axes.size(); ++i) inv[static_cast<int>(axes[i])] = static_cast<int64_t>(i);
    return {permute(c.g[0], inv)};
}
Grads expand_rule(const VjpContext& c) {
    return {sum_to(c.g[0], c.x[0].shape())};
}
Grads slice_rule(const VjpContext& c) {
    return {slice_assign(zeros_as(c.x[0]), ranges_of(c.call), c.g[0])};
}
Grads slice_assign_rule(const VjpContext& c) {
    auto r = ranges_of(c.call);
    Grads out(2);
    if (c.needs[0]) out[0] = slice_assign(c.g[0], r, zeros_as(c.x[1]));
    if (c.needs[1]) out[1] = contiguous(slice(c.g[0], r));
    return out;
}
Grads cat_rule(const VjpContext& c) {
    const int64_t dim = dim_of(c.call);
    Grads out(c.x.size());
    int64_t start = 0;
    for (std::size_t i = 0; i < c.x.size(); ++i) {
        int64_t n = c.x[i].shape()[static_cast<int>(dim)];
        if (c.needs[i]) out[i] = narrow(c.g[0], dim, start, n);
        start += n;
    }
    return out;
}
Grads gather_rule(const VjpContext& c) {
    return {scatter(zeros_as(c.x[0]), dim_of(c.call), c.x[1], c.g[0]), TensorAny()};
}
Grads scatter_add_rule(const VjpContext& c) {
    Grads out(3);
    if (c.needs[0]) out[0] = c.g[0];
    if (c.needs[2]) out[2] = gather(c.g[0], dim_of(c.call), c.x[1]);
    return out;
}
/// The region of v (scatter's values) that indices address: v itself when the shapes agree.
std::vector<SliceArg> index_region(const TensorAny& idx) {
    std::vector<SliceArg> r;
    for (int k = 0; k < idx.rank(); ++k) r.emplace_back(0, idx.shape()[k]);
    return r;
}
TensorAny used_values(const TensorAny& v, const TensorAny& idx) {
    return v.shape() == idx.shape() ? v : contiguous(slice(v, index_region(idx)));
}
/// A gradient of indices' shape as one of v's shape (zero past the addressed region).
TensorAny to_values_shape(TensorAny grad, const TensorAny& v, const TensorAny& idx) {
    return v.shape() == idx.shape() ? grad : slice_assign(zeros_as(v), index_region(idx), std::move(grad));
}
/// scatter_reduce, torch.scatter_reduce's rules: assign zeroes g at the covered elements and sends it
/// to the value written last (torch's scatter sends it to every duplicate); min and max share g evenly
/// among the element and the values equal to the result; mul gives g y / x and g y / v (inputs that
/// are exactly 0 give NaN or inf here, where torch recomputes the products without them).
Grads scatter_reduce_rule(const VjpContext& c) {
    const auto a = c.call.attrs<attrs::ScatterReduce>();
    const int64_t dim = a.dim;
    const TensorAny &x = c.x[0], &idx = c.x[1], &v = c.x[2], &y = c.y[0], &g = c.g[0];
    Grads out(3);
    if (a.mode == attrs::ScatterReduce::assign) {
        if (c.needs[0]) out[0] = scatter_reduce(g, dim, idx, zeros_as(v), IndexingUpdateOp::Assign);
        if (c.needs[2]) {
            // the value written last (the largest position along dim sent to its element) takes g
            Dims lane = Dims::filled(idx.rank(), 1);
            lane[static_cast<int>(dim)] = idx.shape()[static_cast<int>(dim)];
            TensorAny k = expand(
                reshape(arange(0, lane[static_cast<int>(dim)], 1, x.dtype(), x.device()), lane), idx.shape());
            TensorAny last = scatter_reduce(full(x.shape(), -1, x.dtype(), x.device()), dim, idx, k,
                                            IndexingUpdateOp::Max);
            TensorAny won = cast(equal(gather(last, dim, idx), k), x.dtype());
            out[2] = to_values_shape(mul(gather(g, dim, idx), won), v, idx);
        }
    } else if (a.mode == attrs::ScatterReduce::mul) {
        TensorAny gy = mul(g, y);
        if (c.needs[0]) out[0] = div(gy, x);
        if (c.needs[2]) out[2] = to_values_shape(div(gather(gy, dim, idx), used_values(v, idx)), v, idx);
    } else {
        TensorAny mx = cast(equal(x, y), x.dtype());
        TensorAny mv = cast(equal(used_values(v, idx), gather(y, dim, idx)), x.dtype());
        TensorAny share = div(g, add(mx, scatter(zeros_as(x), dim, idx, mv)));  // the count is >= 1
        if (c.needs[0]) out[0] = mul(share, mx);
        if (c.needs[2]) out[2] = to_values_shape(mul(gather(share, dim, idx), mv), v, idx);
    }
    return out;
}
Grads select_rule(const VjpContext& c) {
    return {select_assign(zeros_as(c.x[0]), dim_of(c.call), c.x[1], c.g[0]), TensorAny()};
}
Grads select_add_rule(const VjpContext& c) {
    Grads out(3);
    if (c.needs[0]) out[0] = c.g[0];
    if (c.needs[2]) out[2] = select(c.g[0], dim_of(c.call), c.x[1]);
    return out;
}
Grads sum_dim_rule(const VjpContext& c) {
    return {contiguous(expand(c.g[0], c.x[0].shape()))};
}
Grads mean_dim_rule(const VjpContext& c) {
    double n = static_cast<double>(c.x[0].shape()[static_cast<int>(dim_of(c.call))]);
    return {contiguous(expand(div_scalar(c.g[0], n), c.x[0].shape()))};
}
Grads prod_dim_rule(const VjpContext& c) {
    // d prod / d x_i = prod / x_i where x_i != 0; exact products of the others where zeros occur.
    const auto& x = c.x[0];
    const int64_t dim = dim_of(c.call);
    auto is_zero = equal_elem(x, 0.0);
    auto safe_x = where(is_zero, full(Dims::filled(x.rank(), 1), 1.0, x.dtype(), x.device()), x);
    auto prod_nonzero = prod_dim(safe_x, dim);            // product of the non-zero entries
    auto zeros = sum_dim(cast(is_zero, x.dtype()), dim);  // how many zeros per slice
    auto g = expand(c.g[0], x.shape());
    auto pn = expand(prod_nonzero, x.shape());
    auto nz = expand(zeros, x.shape());
    // no zero: prod / x; exactly one zero: at the zero, the product of the others; elsewhere 0.
    auto no_zero = div(pn, safe_x);
    auto one_zero_at = where(is_zero, pn, zeros_as(x));
    auto grad = where(equal_elem(nz, 0.0), no_zero, where(equal_elem(nz, 1.0), one_zero_at, zeros_as(x)));
    return {mul(g, grad)};
}
Grads index_route_rule(const VjpContext& c) {  // max_dim, min_dim, sort: route to the chosen indices
    if (!c.g[0].defined()) return {TensorAny()};
    const int64_t dim = c.call.op == OpId::sort ? c.call.attrs<attrs::Sort>().dim : dim_of(c.call);
    return {scatter(zeros_as(c.x[0]), dim, c.y[1], c.g[0])};
}
Grads masked_softmax_rule(const VjpContext& c) {  // no gradient for the mask
    return {softmax_backward(c.y[0], c.g[0], c.call.attrs<attrs::MaskedSoftmax>().dim, false, c.x[1]),
            TensorAny()};
}
Grads softmax_rule(const VjpContext& c) {
    return {softmax_backward(c.y[0], c.g[0], dim_of(c.call), false)};
}
Grads log_softmax_rule(const VjpContext& c) {
    return {softmax_backward(c.y[0], c.g[0], dim_of(c.call), true)};
}
/// dx = y * (g - s), s = sum(g * y) (softmax); dx = g - e * S, e = exp(y), S = sum(g) (log_softmax).
/// With h the gradient of dx: softmax: d/dg = softmax_backward(y, h) (the Jacobian diag(y) - y y^T is
/// symmetric), d/dy = h * (g - s) - g * sum(h * y); log: d/dg = h - sum(h * e), d/dy = -h * e * S.
/// With a mask (dx = 0 where it is true), h is first zeroed there.
Grads softmax_backward_rule(const VjpContext& c) {
    const auto& y = c.x[0];
    const auto& g = c.x[1];
    const bool masked = c.x.size() > 2 && c.x[2].defined();
    const auto h = masked ? where(c.x[2], zeros_as(c.g[0]), c.g[0]) : c.g[0];
    const auto a = c.call.attrs<attrs::SoftmaxBackward>();
    const int64_t dim = a.dim;
    Grads out(c.x.size());
    if (!a.log) {
        if (c.needs[0]) {
            auto s = sum_dim(mul(g, y), dim);
            out[0] = sub(mul(h, sub(g, s)), mul(g, sum_dim(mul(h, y), dim)));
        }
        if (c.needs[1]) out[1] = softmax_backward(y, h, dim, false);
    } else {
        auto e = exp(y);
        if (c.needs[0]) out[0] = neg(mul(mul(h, e), sum_dim(g, dim)));
        if (c.needs[1]) out[1] = sub(h, sum_dim(mul(h, e), dim));
    }
    return out;
}
Grads cumsum_rule(const VjpContext& c) {
    const int64_t dim = dim_of(c.call);
    Dims axis{dim};
    return {flip(cumsum(flip(c.g[0], axis), dim), axis)};
}
Grads matmul_rule(const VjpContext& c) {
    Grads out(2);
    if (c.needs[0]) out[0] = matmul(c.g[0], swap_dims(c.x[1], -2, -1));
    if (c.needs[1]) out[1] = matmul(swap_dims(c.x[0], -2, -1), c.g[0]);
    return out;
}
/// a b written in `out`: the operands' dtype (matmul), or a wider float straight from the GEMM's
/// accumulator (matmul_widen).
TensorAny adjoint_product(TensorAny a, TensorAny b, DType out) {
    if (out == a.dtype()) return matmul(std::move(a), std::move(b));
    return matmul_widen(std::move(a), std::move(b), out);
}
/// The adjoint GEMMs run in the operands' dtype (bf16 under autocast); each operand's gradient is
/// written in its own dtype, or in the float32 of the autocast cast that made it (VjpContext::widen).
Grads matmul_widen_rule(const VjpContext& c) {
    Grads out(2);
    const TensorAny g = cast(c.g[0], c.x[0].dtype());
    if (c.needs[0]) out[0] = adjoint_product(g, swap_dims(c.x[1], -2, -1), c.grad_dtype(0));
    if (c.needs[1]) out[1] = adjoint_product(swap_dims(c.x[0], -2, -1), g, c.grad_dtype(1));
    return out;
}
/// linear: y = x w^T (+ b). The adjoint GEMMs run in x's and w's dtype (bf16 under autocast) and write
/// each gradient in its operand's dtype or the float32 of the autocast cast that made it
/// (VjpContext::widen); the bias gets the column sums of the gradient in its dtype (float32 under
/// autocast), or in the float32 of its autocast cast (summed from the gradient widened).
Grads linear_rule(const VjpContext& c) {
    Grads out(c.x.size());
    const TensorAny g = cast(c.g[0], c.x[0].dtype());
    if (c.needs[0]) out[0] = adjoint_product(g, c.x[1], c.grad_dtype(0));                   // [m, n] x [n, k]
    if (c.needs[1]) out[1] = adjoint_product(swap_dims(g, 0, 1), c.x[0], c.grad_dtype(1));  // [n, m] x [m, k]
    if (c.x.size() > 2 && c.needs[2]) {
        // column sums in the bias's gradient dtype: float32 for a float32 bias that autocast's layers
        // cast to bf16 (nn::Linear::forward_in), summed from the gradient widened first
        const DType bd = c.grad_dtype(2);
        const TensorAny gb = c.g[0].dtype() == bd ? c.g[0] : cast(c.g[0], bd);
        out[2] = cast(squeeze_dim(sum_dim(gb, 0), 0), bd);
    }
    return out;
}
/// dft: linear, y = F x with F_jk = e^(-+2 pi i j k / n) symmetric, so x's gradient (as a complex
/// re + i im) is F^H g = conj(F) g: the unscaled DFT of the other sign of the outputs' gradients. A
/// missing output gradient is zero.
Grads dft_rule(const VjpContext& c) {
    Grads out(2);
    if (!c.needs[0] && !c.needs[1]) return out;
    const bool inverse = c.call.attrs<attrs::Dft>().inverse;
    const bool g0 = c.g[0].defined(), g1 = c.g.size() > 1 && c.g[1].defined();
    if (!g0 && !g1) return out;
    auto [gr, gi] = fft_impl::dft(g0 ? c.g[0] : zeros_as(c.y[0]), g1 ? c.g[1] : zeros_as(c.y[1]), !inverse);
    if (c.needs[0]) out[0] = std::move(gr);
    if (c.needs[1]) out[1] = std::move(gi);
    return out;
}
Grads where_rule(const VjpContext& c) {
    Grads out(3);
    auto z = full(Dims::filled(c.g[0].rank(), 1), 0.0, c.g[0].dtype(), c.g[0].device());
    if (c.needs[1]) out[1] = where(c.x[0], c.g[0], z);
    if (c.needs[2]) out[2] = where(c.x[0], z, c.g[0]);
    return out;
}

}  // namespace

void register_structural_rules(RuleTable& t) {
    t[static_cast<std::size_t>(OpId::copy)] = &copy_rule;
    t[static_cast<std::size_t>(OpId::cast)] = &cast_rule;
    t[static_cast<std::size_t>(OpId::reshape)] = &reshape_rule;
    t[static_cast<std::size_t>(OpId::permute)] = &permute_rule;
    t[static_cast<std::size_t>(OpId::expand)] = &expand_rule;
    t[static_cast<std::size_t>(OpId::slice)] = &slice_rule;
    t[static_cast<std::size_t>(OpId::slice_assign)] = &slice_assign_rule;
    t[static_cast<std::size_t>(OpId::cat)] = &cat_rule;
    t[static_cast<std::size_t>(OpId::gather)] = &gather_rule;
    t[static_cast<std::size_t>(OpId::scatter_add)] = &scatter_add_rule;
    t[static_cast<std::size_t>(OpId::scatter_reduce)] = &scatter_reduce_rule;
    t[static_cast<std::size_t>(OpId::select)] = &select_rule;
    t[static_cast<std::size_t>(OpId::select_add)] = &select_add_rule;
    t[static_cast<std::size_t>(OpId::sum_dim)] = &sum_dim_rule;
    t[static_cast<std::size_t>(OpId::mean_dim)] = &mean_dim_rule;
    t[static_cast<std::size_t>(OpId::prod_dim)] = &prod_dim_rule;
    t[static_cast<std::size_t>(OpId::max_dim)] = &index_route_rule;
    t[static_cast<std::size_t>(OpId::min_dim)] = &index_route_rule;
    t[static_cast<std::size_t>(OpId::sort)] = &index_route_rule;
    t[static_cast<std::size_t>(OpId::softmax)] = &softmax_rule;
    t[static_cast<std::size_t>(OpId::log_softmax)] = &log_softmax_rule;
    t[static_cast<std::size_t>(OpId::softmax_backward)] = &softmax_backward_rule;
    t[static_cast<std::size_t>(OpId::masked_softmax)] = &masked_softmax_rule;
    t[static_cast<std::size_t>(OpId::cumsum)] = &cumsum_rule;
    t[static_cast<std::size_t>(OpId::matmul)] = &matmul_rule;
    t[static_cast<std::size_t>(OpId::matmul_widen)] = &matmul_widen_rule;
    t[static_cast<std::size_t>(OpId::linear)] = &linear_rule;
    t[static_cast<std::size_t>(OpId::dft)] = &dft_rule;
    t[static_cast<std::size_t>(OpId::where)] = &where_rule;
}

}  // namespace burn::autodiff
