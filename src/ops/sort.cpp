// Frontend of sort, argsort and topk: one op (OpId::sort) with outputs {values, indices (i32)}.
// attrs::Sort{dim, descending} sorts the whole dim; topk sets k and gets the first k of the descending
// order (a partial sort on the CPU backend).
#include <climits>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

int sort_dim(const TensorAny& x, int64_t dim, const char* op) {
    check_defined(x, op);
    BURN_CHECK_KIND(x.rank() >= 1, shape, "[", op, "] needs a tensor of rank >= 1, got ", describe(x));
    const int d = normalize_dim(dim, x.rank(), op);
    BURN_CHECK_KIND(x.shape()[d] <= INT32_MAX, shape, "[", op, "] dim ", d, " of ", describe(x),
                    " is too long for i32 indices");
    return d;
}

std::pair<TensorAny, TensorAny> run_sort(TensorAny x, const attrs::Sort& a) {
    auto c = make(OpId::sort, a, metas(x));
    auto outs = run(c, {std::move(x).ref()});
    return {TensorAny(std::move(outs[0])), TensorAny(std::move(outs[1]))};
}

/// The sort of the k largest along dim, checked under the caller's name.
attrs::Sort topk_attrs(const TensorAny& x, int64_t k, int64_t dim, const char* op) {
    const int d = sort_dim(x, dim, op);
    const int64_t n = x.shape()[d];
    BURN_CHECK_KIND(k >= 0 && k <= n, index, "[", op, "] k = ", k, " is out of range for dim ", d,
                    " of size ", n, " (", describe(x), "); k must be between 0 and ", n);
    return attrs::Sort{d, true, k};
}

}  // namespace

std::pair<TensorAny, TensorAny> sort_with_indices(TensorAny x, int64_t dim, bool descending) {
    const int d = sort_dim(x, dim, "sort");
    return run_sort(std::move(x), attrs::Sort{d, descending, -1});
}

std::pair<TensorAny, TensorAny> topk_with_indices(TensorAny x, int64_t k, int64_t dim) {
    const attrs::Sort a = topk_attrs(x, k, dim, "topk");
    return run_sort(std::move(x), a);
}

TensorAny argtopk(TensorAny x, int64_t k, int64_t dim) {
    const attrs::Sort a = topk_attrs(x, k, dim, "argtopk");
    return run_sort(std::move(x), a).second;
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of sort

namespace burn::op_infer {

Outs infer_sort(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const TensorMeta& x = in[0];
    const auto a = c.attrs<attrs::Sort>();
    BURN_CHECK_KIND(x.shape.rank() >= 1, shape, "[sort] needs a tensor of rank >= 1, got ", describe(x));
    const int d = check_dim(c, a.dim, x.shape.rank());
    const int64_t n = x.shape[d];
    BURN_CHECK_KIND(n <= INT32_MAX, shape, "[sort] dim ", d, " of ", describe(x),
                    " is too long for i32 indices");
    Dims shape = x.shape;
    if (a.k >= 0) {
        BURN_CHECK_KIND(a.k <= n, index, "[sort] k = ", a.k, " is out of range for dim ", d, " of size ", n,
                        " (", describe(x), "); k must be between 0 and ", n);
        shape[d] = a.k;
    }
    return {{x.dtype, shape}, {DType::i32, shape}};
}

}  // namespace burn::op_infer
