// The scan rows (family scan in ops.def): cumsum, a primitive, and cumprod, a derived row. Each row's
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

namespace detail {

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

}  // namespace burn::op_infer
