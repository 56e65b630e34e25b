#pragma once
// Helpers the op entries share: numpy broadcasting across ranks, scalars, dtype rules, windows.
#include <vector>

#include "onnx/op_table.hpp"

namespace burn::onnx::detail {

/// x with leading size-1 dims up to rank r (numpy's broadcasting aligns shapes on the right).
TensorAny to_rank(TensorAny x, int64_t r);
/// a and b at one rank; burn's binary ops then broadcast size-1 dims.
std::pair<TensorAny, TensorAny> align(TensorAny a, TensorAny b);
/// Every tensor at the largest rank among them.
std::vector<TensorAny> align_all(std::vector<TensorAny> xs);
/// A tensor like x (dtype, device) holding value, of rank x.rank() with every dim 1.
TensorAny scalar_like(const TensorAny& x, double value);
/// Checks that a and b have one dtype (ONNX's binary ops do not promote).
void check_same_dtype(const OpContext& c, const TensorAny& a, const TensorAny& b);
/// x coerced to 2-D at axis (ONNX's rule for Flatten and the pre-13 Softmax family): [the product
/// of the dims before axis, the product of the rest]; axis in [-rank, rank].
TensorAny as_2d(const OpContext& c, const TensorAny& x, int64_t axis);
/// Dims from host ints.
Dims dims_of(const std::vector<int64_t>& v);

/// The spatial geometry of a conv or pool node: kernel, strides, dilations and the begin/end pads
/// after auto_pad.
struct Window {
    int s = 0;
    std::vector<int64_t> kernel, stride, dilation, pad_begin, pad_end;
};
/// The node's window over x [N, C, spatial...] for a kernel of the given size: strides, dilations and
/// pads (auto_pad resolved) from its attributes, checked.
Window window_of(const OpContext& c, const TensorAny& x, std::vector<int64_t> kernel);

}  // namespace burn::onnx::detail
