#pragma once
// max_pool2d on channels-last activations (the layout 2-D convolutions return, dnnl_conv.cpp): the
// output and its indices keep the layout, so a pool between convolutions costs no reorders.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

/// y and the indices (h * W + w within each plane, as max_pool2d's) of a max pool of the f32/f64
/// channels-last x ([N, C, H, W] with CpuTensor::is_channels_last), both channels-last. Empty when x is
/// not such a tensor; then the caller pools as usual.
TensorRefs max_pool2d_channels_last(const OpCall& call, const TensorRef& x);

}  // namespace burn::cpu
