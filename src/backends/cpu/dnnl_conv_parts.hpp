#pragma once
// How dnnl_conv.cpp splits one convolution call over burn's threads: dense parts (ranges of images; for
// one image, ranges of output rows when channels-last (of output channels when the rows do not split
// evenly), else of output channels or of groups), each run
// by its own single-threaded oneDNN primitive.
#include <cstdint>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu::dnnl_parts {

/// One dense slice of a convolution: a range of images, or (one image) a range of output rows, output
/// channels or groups. Each slice is its own (cached) primitive, run on one thread. Offsets in elements
/// from the tensors' first elements.
struct Part {
    attrs::Conv a;  // the call's, with this part's groups and (a range of rows) top padding
    Dims xs, ws, ys;
    int64_t x_off = 0, w_off = 0, b_off = 0, y_off = 0;
    /// Non-zero for a range of the output channels of one channels-last image: y's channel count. The
    /// part then writes a dense buffer of its own shape, copied into channels [b_off, b_off + ys[1]) of
    /// y's pixels (and, for a fused residual, filled from them first).
    int64_t y_channels = 0;
};

/// The parts of a call for the thread count; y_cl: channels-last x and y.
std::vector<Part> make_parts(const attrs::Conv& a, const Dims& xs, const Dims& ws, const Dims& ys, bool y_cl);

}  // namespace burn::cpu::dnnl_parts
