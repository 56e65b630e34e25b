// The scan rows (family scan in ops.def): cumsum, a primitive, and cumprod, cummax and cummin, derived
// rows. Each row's
// frontend, infer and, for a derived row, decomposition live here together, so a new scan is one
// .def row, its declarations (ops.hpp, tensor.hpp), this file and an op-db entry.
#include "ops/common.hpp"
#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

/// A scan of x along dim as the row op: x must be a float or int tensor of rank >= 1.
TensorAny scan_op(OpId op, TensorAny x, int64_t dim, const char* name) {
    const int d = check_along_dim(x, dim, name);
    auto c = make(op, attrs::Dim{d}, metas(x));
    return run1(c, {std::move(x).ref()});
}

}  // namespace

TensorAny cumsum(TensorAny x, int64_t dim) {
    return scan_op(OpId::cumsum, std::move(x), dim, "cumsum");
}

TensorAny cumprod(TensorAny x, int64_t dim) {
    return scan_op(OpId::cumprod, std::move(x), dim, "cumprod");
}

TensorAny cummax(TensorAny x, int64_t dim) {
    return scan_op(OpId::cummax, std::move(x), dim, "cummax");
}

TensorAny cummin(TensorAny x, int64_t dim) {
    return scan_op(OpId::cummin, std::move(x), dim, "cummin");
}

namespace detail {

/// The running maximum (max) or minimum along d in log2(n) rounds of slice, where and cat, written with
/// primitives (max_pair's rule): the later operand wins ties, so a tie's gradient goes to the later
/// element (torch.cummax's index), and a NaN in either operand propagates.
TensorAny extreme_scan_of(TensorAny y, int d, bool max) {
    const int64_t n = y.shape()[d];
    for (int64_t s = 1; s < n; s *= 2) {
        TensorAny later = decomp::narrow_dim(y, d, s, n - s), earlier = decomp::narrow_dim(y, d, 0, n - s);
        TensorAny take =
            max ? decomp::greater_eq(later, earlier) : decomp::logical_not(greater(later, earlier));
        TensorAny tail = where(std::move(take), later, earlier);
        if (is_float(y.dtype()))
            tail = where(decomp::nan_mask(earlier), earlier,
                         where(decomp::nan_mask(later), later, std::move(tail)));
        y = cat({decomp::narrow_dim(y, d, 0, s), std::move(tail)}, d);
    }
    return y;
}

/// cumprod as log2(n) rounds of slice, mul and cat (Hillis and Steele's scan): after the round of
/// stride s, element i holds the product of elements max(0, i - 2s + 1)..i. Products of exact zeros
/// and signs stay exact, and the gradient through it is exact where x has zeros (a log-domain scan
/// would give NaN there).
void add_scan_decompositions(DecompositionTable& t) {
    t.set(OpId::cumprod, [](const OpCall& c, const std::vector<TensorAny>& in) -> std::vector<TensorAny> {
        const int d = static_cast<int>(c.attrs<attrs::Dim>().dim);
        const int64_t n = in[0].shape()[d];
        TensorAny y = decomp::up(in[0]);  // f16/bf16 multiply in f32, as the kernels do
        for (int64_t s = 1; s < n; s *= 2) {
            TensorAny tail = mul(decomp::narrow_dim(y, d, s, n - s), decomp::narrow_dim(y, d, 0, n - s));
            y = cat({decomp::narrow_dim(y, d, 0, s), std::move(tail)}, d);
        }
        return {decomp::down(std::move(y), c.dtype)};
    });
    // cummax and cummin: the same rounds with max_pair's and min_pair's rule, NaN propagating.
    t.set(OpId::cummax, [](const OpCall& c, const std::vector<TensorAny>& in) -> std::vector<TensorAny> {
        return {extreme_scan_of(in[0], static_cast<int>(c.attrs<attrs::Dim>().dim), true)};
    });
    t.set(OpId::cummin, [](const OpCall& c, const std::vector<TensorAny>& in) -> std::vector<TensorAny> {
        return {extreme_scan_of(in[0], static_cast<int>(c.attrs<attrs::Dim>().dim), false)};
    });
}

}  // namespace detail

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): a scan keeps x's meta.

namespace burn::op_infer {

namespace {

Outs infer_scan(const OpCall& c, Metas in) {
    (void)along_dim(c, in);
    return {in[0]};
}

}  // namespace

Outs infer_cumsum(const OpCall& c, Metas in) {
    return infer_scan(c, in);
}

Outs infer_cumprod(const OpCall& c, Metas in) {
    return infer_scan(c, in);
}

Outs infer_cummax(const OpCall& c, Metas in) {
    return infer_scan(c, in);
}

Outs infer_cummin(const OpCall& c, Metas in) {
    return infer_scan(c, in);
}

}  // namespace burn::op_infer
