// Helpers shared by the op entries (op_util.hpp).
#include "onnx/op_util.hpp"

#include <algorithm>

namespace burn::onnx::detail {

TensorAny to_rank(TensorAny x, int64_t r) {
    if (x.rank() >= r) return x;
    Dims shape = Dims::filled(static_cast<int>(r), 1);
    const int64_t lead = r - x.rank();
    for (int i = 0; i < x.rank(); ++i) shape[static_cast<int>(lead) + i] = x.shape()[i];
    return ops::reshape(std::move(x), shape);
}

std::pair<TensorAny, TensorAny> align(TensorAny a, TensorAny b) {
    const int64_t r = std::max<int64_t>(a.rank(), b.rank());
    return {to_rank(std::move(a), r), to_rank(std::move(b), r)};
}

std::vector<TensorAny> align_all(std::vector<TensorAny> xs) {
    int64_t r = 0;
    for (const TensorAny& x : xs) r = std::max<int64_t>(r, x.rank());
    for (TensorAny& x : xs) x = to_rank(std::move(x), r);
    return xs;
}

TensorAny scalar_like(const TensorAny& x, double value) {
    return ops::full(Dims::filled(x.rank(), 1), value, x.dtype(), x.device());
}

void check_same_dtype(const OpContext& c, const TensorAny& a, const TensorAny& b) {
    c.check(a.dtype() == b.dtype(), "inputs must have one element type, got ", a.dtype(), " ", a.shape(),
            " and ", b.dtype(), " ", b.shape());
}

TensorAny as_2d(const OpContext& c, const TensorAny& x, int64_t axis) {
    const int64_t r = x.rank();
    c.check(axis >= -r && axis <= r, "axis ", axis, " is out of range for rank ", r);
    if (axis < 0) axis += r;
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < r; ++i) (i < axis ? outer : inner) *= x.shape()[static_cast<int>(i)];
    return ops::reshape(x, Dims{outer, inner});
}

Dims dims_of(const std::vector<int64_t>& v) {
    BURN_CHECK_KIND(v.size() <= static_cast<std::size_t>(kMaxRank), shape, "[onnx] a shape of rank ",
                    v.size(), " (burn holds tensors of rank at most ", kMaxRank, ")");
    return Dims::from(v.data(), static_cast<int>(v.size()));
}

}  // namespace burn::onnx::detail
