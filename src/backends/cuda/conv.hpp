#pragma once
// The CUDA convolutions (conv, conv_backward_input, conv_backward_weight, conv_fused): depthwise ones
// forward by a direct kernel (conv_direct.cu), others through cuDNN when it loads (cudnn_conv.cpp, any
// spatial rank), else im2col + cuBLAS (conv.cu, 1-D and 2-D; a 1x1 stride-1 one is a batched GEMM on x).
// conv_fused adds its epilogue (bias, residual, clamp) in the depthwise kernel or in one pass after.
#include <limits>
#include <memory>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

void register_conv(KernelTable& t);  // conv.cu, called by register_nn

namespace direct {

/// What conv_fused adds after the convolution's sum, in order: bias [O] (also the plain conv row's), the
/// residual (the output's shape), then the clamp to [lo, hi] (infinite bounds: none). Contiguous tensors
/// of the output's dtype.
struct Epilogue {
    TensorRef bias, residual;
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    bool clamp() const;
};

/// A 2-D depthwise convolution (groups == input channels, weight [O, 1, kh, kw]) the direct kernel takes
/// (BURN_CUDA_DEPTHWISE unset or not 0).
bool depthwise_handles(const attrs::Conv& a, const Dims& x, const Dims& w);
/// The depthwise convolution of x by w with the epilogue; a new contiguous tensor of out_shape.
TensorRef depthwise(const Dims& out_shape, DType dt, const attrs::Conv& a, const TensorRef& x,
                    const TensorRef& w, const Epilogue& e);
/// y = epilogue(y) in place, y contiguous [N, O, ...] (the bias indexed by dim 1).
void apply_epilogue(const TensorRef& y, const Epilogue& e);

}  // namespace direct

namespace cudnn {

enum class Dir { forward, backward_data, backward_filter };

/// Whether this convolution goes through cuDNN: enabled (BURN_CUDA_CUDNN, set_use_cudnn), built with
/// cudnn.h, libcudnn.so.9 loaded (at the first call), a float dtype, and not a small f32/f64 1-D/2-D
/// one (fewer multiply-adds than cudnn_min_macs(): those stay on im2col).
bool handles(const OpCall& call, const TensorRefs& in);
/// Convolution `dir` of `call` through cuDNN (inputs as the ops.def rows); null when cuDNN has no
/// algorithm for this geometry (the caller falls back to im2col).
std::shared_ptr<CudaTensor> run(Dir dir, const OpCall& call, TensorRefs& in);

/// A 2-D convolution that is a GEMM on x itself: 1x1 kernel, stride 1, no padding, groups 1.
bool pointwise(const attrs::Conv& a, const Dims& x, const Dims& w, const Dims& y);

// Helpers in conv.cu for the cuDNN path.
/// dst[n, c, p...] = src[n, c, p + off...] inside src, else 0 (both contiguous, same rank 3 to 5).
void window_copy(DType d, const void* src, const Dims& src_shape, void* dst, const Dims& dst_shape,
                 const int64_t* off);
/// y[n, o, ...] += bias[o] for contiguous y of `total` elements, `l` per channel.
void add_bias(DType d, void* y, const void* bias, int64_t o, int64_t l, int64_t total);

}  // namespace cudnn

}  // namespace burn::cuda
