// argwhere, nonzero and mask_select (composites, no rows of their own): the positions of the non-zero
// (true) elements, and the elements of a tensor where a mask is true. Their output size depends on the
// values, so x is read on the host (waiting for its device, like into_data) and the positions come back as a
// new Int tensor on x's device, as ONNX's NonZero in src/onnx. argwhere and nonzero are not differentiable
// (the output is Int); mask_select is, through select.
#include <climits>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace argwhere_impl {  // named, not anonymous: unity builds merge anonymous namespaces

/// The flat positions of x's non-zero elements, in row-major order.
std::vector<int64_t> nonzero_positions(const TensorAny& x) {
    TensorAny nz = is_bool(x.dtype()) ? x : not_equal_elem(x, 0);
    const std::vector<bool> flags = into_data(std::move(nz)).to_vec<bool>();
    std::vector<int64_t> hits;
    for (std::size_t i = 0; i < flags.size(); ++i)
        if (flags[i]) hits.push_back(static_cast<int64_t>(i));
    return hits;
}

DType position_dtype(const TensorAny& x) {
    for (int64_t d : x.shape())
        if (d > INT32_MAX) return DType::i64;
    return DType::i32;
}

}  // namespace argwhere_impl

using namespace argwhere_impl;

TensorAny argwhere(TensorAny x) {
    check_defined(x, "argwhere");
    const std::vector<int64_t> hits = nonzero_positions(x);
    const int r = x.rank();
    const auto n = static_cast<int64_t>(hits.size());
    std::vector<int64_t> out(static_cast<std::size_t>(n * r));
    for (int64_t j = 0; j < n; ++j) {
        int64_t rest = hits[static_cast<std::size_t>(j)];
        for (int d = r - 1; d >= 0; --d) {
            out[static_cast<std::size_t>(j * r + d)] = rest % x.shape()[d];
            rest /= x.shape()[d];
        }
    }
    return from_data(TensorData(out, Dims{n, r}).convert(position_dtype(x)), x.device());
}

TensorAny mask_select(TensorAny x, TensorAny mask) {
    check_defined(x, "mask_select");
    check_defined(mask, "mask_select");
    check_bool(mask, "mask_select", "mask");
    BURN_CHECK_KIND(x.device() == mask.device(), device, "[mask_select] the tensor is on ", x.device(),
                    ", the mask on ", mask.device());
    BURN_CHECK_KIND(mask.rank() == x.rank(), shape, "[mask_select] the mask ", describe(mask),
                    " must have the tensor's rank (", describe(x), "); unsqueeze it first");
    const Dims shape = broadcast_shapes(x.shape(), mask.shape(), "mask_select");
    const std::vector<int64_t> hits = nonzero_positions(expand(std::move(mask), shape));
    const auto n = static_cast<int64_t>(hits.size());
    TensorAny idx = from_data(TensorData(hits, Dims{n}).convert(DType::i64), x.device());
    return select(reshape(expand(std::move(x), shape), Dims{shape.numel()}), 0, std::move(idx));
}

std::vector<TensorAny> nonzero(TensorAny x) {
    check_defined(x, "nonzero");
    TensorAny w = argwhere(x);  // [n, rank]
    std::vector<TensorAny> out;
    for (int d = 0; d < x.rank(); ++d) out.push_back(reshape(narrow(w, 1, d, 1), Dims{w.shape()[0]}));
    return out;
}

}  // namespace burn::ops
