#pragma once
// Internal entry points of the module ops (conv.cpp, pool.cpp): the general forms the public functions,
// the nn layers and the gradient rules share. Each validates its inputs and names `op` in errors.
#include <optional>
#include <utility>
#include <vector>

#include "burn/tensor/module_ops.hpp"
#include "ops/common.hpp"

namespace burn::ops::detail {

/// The spatial output size of a convolution: (in + pb + pe - dilation * (k - 1) - 1) / stride + 1
/// (may be <= 0 when the kernel does not fit).
int64_t conv_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, int64_t dilation);

/// Convolution with full validation (conv1d/2d/3d and the Conv layers).
TensorAny conv_nd(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                  const char* op);
/// Transposed convolution: the adjoint of conv_nd with the same weight, plus bias.
TensorAny conv_transpose_nd(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                            const int64_t* padding_out, const char* op);

// The ops.def rows with an explicit output shape (gradient rules, op database). They check ranks,
// dtypes and channel counts; any output extent is valid (positions outside the input read as zero).
// spec.shape is not read: the shape argument is output 0's (conv_nd and conv_transpose_nd compute it).
TensorAny conv_call(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                    const Dims& out_shape);
TensorAny conv_backward_input(TensorAny g, TensorAny w, const attrs::Conv& spec, const Dims& x_shape);
/// The conv_fused row (ops.def): clamp(conv(x, w) + b + residual, lo, hi); residual has the output's
/// meta. ONNX's FusedConv (src/onnx/fuse.cpp) runs through it; a backend without its kernel decomposes it.
TensorAny conv_fused(TensorAny x, TensorAny w, std::optional<TensorAny> b, std::optional<TensorAny> residual,
                     const attrs::Conv& spec, const Dims& out_shape, double lo, double hi);
TensorAny conv_backward_weight(TensorAny x, TensorAny g, const attrs::Conv& spec, const Dims& w_shape);

/// A 2-D pool's geometry (1-D pools use height 1).
struct PoolSpec {
    int64_t kernel[2] = {1, 1};
    int64_t stride[2] = {1, 1};
    int64_t pad_begin[2] = {0, 0};
    int64_t pad_end[2] = {0, 0};
    int64_t dilation[2] = {1, 1};
    bool ceil_mode = false;
    bool count_include_pad = true;
};

/// PyTorch's pooling output size (with ceil_mode's rule that the last window starts inside the input).
int64_t pool_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, int64_t dilation,
                      bool ceil_mode);

std::pair<TensorAny, TensorAny> max_pool2d_nd(TensorAny x, const PoolSpec& spec, const char* op);
TensorAny avg_pool2d_nd(TensorAny x, const PoolSpec& spec, const char* op);

// ops.def rows with explicit shapes, for rules and the op database.
// The attribute structs carry the output shape (a.shape: for the *_backward rows, x's shape).
std::pair<TensorAny, TensorAny> max_pool2d_call(TensorAny x, const attrs::MaxPool2d& a);
/// a.window: the forward's when known (a hint for backends: disjoint windows need no accumulation).
TensorAny max_pool2d_backward(TensorAny g, TensorAny indices, const attrs::MaxPool2dBackward& a);
TensorAny avg_pool2d_call(TensorAny x, const attrs::AvgPool2d& a);
TensorAny avg_pool2d_backward(TensorAny g, const attrs::AvgPool2d& a);
TensorAny adaptive_avg_pool2d_call(TensorAny x, const Dims& out_shape, const char* op);
TensorAny adaptive_avg_pool2d_backward(TensorAny g, const Dims& x_shape);
TensorAny interpolate_call(TensorAny x, const attrs::Interpolate& a, const char* op);
TensorAny interpolate_backward(TensorAny g, const attrs::Interpolate& a);

}  // namespace burn::ops::detail
