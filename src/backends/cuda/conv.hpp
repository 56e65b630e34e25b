#pragma once
// The CUDA convolutions (conv, conv_backward_input, conv_backward_weight): cuDNN when it loads
// (cudnn_conv.cpp, any spatial rank), else im2col + cuBLAS (conv.cu, 1-D and 2-D).
#include <memory>

#include "backends/cuda/cuda_internal.hpp"

namespace burn::cuda {

void register_conv(KernelTable& t);  // conv.cu, called by register_nn

namespace cudnn {

enum class Dir { forward, backward_data, backward_filter };

/// Whether this convolution goes through cuDNN: enabled (BURN_CUDA_CUDNN, set_use_cudnn), built with
/// cudnn.h, libcudnn.so.9 loaded (at the first call), a float dtype, and not a small f32/f64 1-D/2-D
/// one (fewer multiply-adds than cudnn_min_macs(): those stay on im2col).
bool handles(const OpCall& call, const TensorRefs& in);
/// Convolution `dir` of `call` through cuDNN (inputs as the ops.def rows); null when cuDNN has no
/// algorithm for this geometry (the caller falls back to im2col).
std::shared_ptr<CudaTensor> run(Dir dir, const OpCall& call, TensorRefs& in);

// Helpers in conv.cu for the cuDNN path.
/// dst[n, c, p...] = src[n, c, p + off...] inside src, else 0 (both contiguous, same rank 3 to 5).
void window_copy(DType d, const void* src, const Dims& src_shape, void* dst, const Dims& dst_shape,
                 const int64_t* off);
/// y[n, o, ...] += bias[o] for contiguous y of `total` elements, `l` per channel.
void add_bias(DType d, void* y, const void* bias, int64_t o, int64_t l, int64_t total);

}  // namespace cudnn

}  // namespace burn::cuda
