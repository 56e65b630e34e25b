// gather_nd and scatter_nd (burn's, composites): indices [..., K] address the leading K dims of x, so
// x is seen as [P, rest...] (P the product of those dims), each index tuple becomes one position in P,
// and select / select_assign do the rest (every device runs them; gradients come from their rules).
// The tuples are range-checked on the host (a tuple outside x would otherwise alias a valid position),
// which waits for the indices' device.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace index_nd_impl {  // named, not anonymous: unity builds merge anonymous namespaces

struct NdView {
    TensorAny flat_x;     // [P, rest...]
    TensorAny positions;  // [B] i64, one per index tuple
    Dims batch;           // indices.shape[0..M-1]
    Dims rest;            // x.shape[K..D]
};

NdView nd_view(const TensorAny& x, const TensorAny& indices, const char* op) {
    check_defined(x, op);
    check_int(indices, op, "indices");
    BURN_CHECK_KIND(x.device() == indices.device(), device, "[", op,
                    "] inputs are on different devices: ", describe(x), " vs ", describe(indices),
                    "; move them with .to_device(device) first");
    BURN_CHECK_KIND(indices.rank() >= 1, shape, "[", op, "] indices must be [..., K], got ",
                    describe(indices));
    const int k = static_cast<int>(indices.shape()[indices.rank() - 1]);
    BURN_CHECK_KIND(k >= 1 && k <= x.rank(), shape, "[", op, "] index tuples of length ", k, " (indices ",
                    describe(indices), ") must address between 1 and ", x.rank(), " leading dims of ",
                    describe(x));
    NdView v;
    for (int d = 0; d < indices.rank() - 1; ++d) v.batch.push_back(indices.shape()[d]);
    for (int d = k; d < x.rank(); ++d) v.rest.push_back(x.shape()[d]);
    const int64_t b = v.batch.numel();
    const std::vector<int64_t> idx = into_data(indices).convert(DType::i64).to_vec<int64_t>();
    std::vector<int64_t> pos(static_cast<std::size_t>(b), 0);
    for (int64_t t = 0; t < b; ++t)
        for (int j = 0; j < k; ++j) {
            const int64_t i = idx[static_cast<std::size_t>(t * k + j)], n = x.shape()[j];
            BURN_CHECK_KIND(i >= 0 && i < n, index, "[", op, "] index ", i, " at position ", j, " of tuple ",
                            t, " is out of range for dim ", j, " of ", describe(x), " (size ", n, ")");
            pos[static_cast<std::size_t>(t)] = pos[static_cast<std::size_t>(t)] * n + i;
        }
    int64_t p = 1;
    for (int d = 0; d < k; ++d) p *= x.shape()[d];
    Dims flat{p};
    for (int64_t r : v.rest) flat.push_back(r);
    v.flat_x = reshape(x, flat);
    v.positions = from_data(TensorData(pos, Dims{b}), x.device());
    return v;
}

Dims joined(const Dims& a, const Dims& b) {
    Dims out = a;
    for (int64_t d : b) out.push_back(d);
    return out;
}

}  // namespace index_nd_impl

using namespace index_nd_impl;

TensorAny gather_nd(TensorAny x, TensorAny indices) {
    NdView v = nd_view(x, indices, "gather_nd");
    BURN_CHECK_KIND(v.batch.rank() + v.rest.rank() >= 1, shape, "[gather_nd] the result of ", describe(x),
                    " indexed by ", describe(indices),
                    " would have rank 0; give indices a batch dim ([1, K])");
    TensorAny out = select(std::move(v.flat_x), 0, std::move(v.positions));
    return reshape(std::move(out), joined(v.batch, v.rest));
}

TensorAny scatter_nd(TensorAny x, TensorAny indices, TensorAny values, IndexingUpdateOp op) {
    NdView v = nd_view(x, indices, "scatter_nd");
    check_defined(values, "scatter_nd");
    const Dims want = joined(v.batch, v.rest);
    BURN_CHECK_KIND(values.shape() == want || (want.rank() == 0 && values.numel() == 1), shape,
                    "[scatter_nd] values must have shape ", want,
                    " (the indices' batch dims, then the dims of ", describe(x),
                    " past the indexed ones), got ", values.shape());
    const Dims shape = x.shape();
    TensorAny vals = reshape(std::move(values), joined(Dims{v.batch.numel()}, v.rest));
    TensorAny out = select_assign_reduce(std::move(v.flat_x), 0, std::move(v.positions), std::move(vals), op);
    return reshape(std::move(out), shape);
}

}  // namespace burn::ops
