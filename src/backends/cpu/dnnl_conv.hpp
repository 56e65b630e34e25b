#pragma once
// f32 convolution forward through oneDNN (Debian: libdnnl-dev) when the build found it (BURN_DNNL,
// see docs/building.md); conv.cpp falls back to im2col + GEMM when dnnl_conv_forward returns false.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

/// y = conv(x, w) + b for f32 x [N, C, spatial...] (contiguous or channels-last:
/// CpuTensor::is_channels_last), contiguous w [O, C / groups, kernel...] and b [O] or null. A 2-D
/// convolution's y is channels-last (but for a 1x1 of a contiguous x), other ranks' contiguous. Null
/// (nothing computed) when oneDNN is not built in, is turned off (BURN_CPU_DNNL=0) or cannot run this
/// geometry; then the caller computes y itself.
/// What conv_fused adds after the convolution: + residual (the output's shape, any layout), then a
/// clamp to [lo, hi] (oneDNN post-ops: sum, then relu or clip).
struct ConvEpilogue {
    const CpuTensor* residual = nullptr;
    double lo = 0, hi = 0;
};

std::shared_ptr<CpuTensor> dnnl_conv_forward(const attrs::Conv& a, const CpuTensor& x, const CpuTensor& w,
                                             const CpuTensor* b, const Dims& y_shape,
                                             const ConvEpilogue* epilogue = nullptr);

/// Whether this build has the oneDNN path and it is on (see set_dnnl_conv_enabled).
bool dnnl_conv_available();
/// Turns the oneDNN path on or off for this process (default: on unless BURN_CPU_DNNL=0). For tests
/// and benchmarks that compare it with im2col + GEMM.
void set_dnnl_conv_enabled(bool on);
/// Turns oneDNN's Winograd kernels for 3x3 stride-1 convolutions on or off (default: on unless
/// BURN_CPU_WINOGRAD=0; the same switch as winograd::set_enabled), for tests and benchmarks that compare
/// the two.
void set_dnnl_winograd_enabled(bool on);
/// oneDNN's name of the kernel of each cached primitive ("jit_wino_4x3:avx512_core", "brgconv:..."): for
/// tests that check which kernel a geometry reached.
std::vector<std::string> dnnl_conv_kernels();

}  // namespace burn::cpu
