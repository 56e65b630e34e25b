#pragma once
// Winograd F(2x2, 3x3) and F(4x4, 3x3) for f32 2-D convolutions with a 3 x 3 kernel, stride 1 and no
// dilation (conv_winograd.cpp): each M x M block of outputs from an (M + 2) x (M + 2) input tile takes
// (M + 2)^2 multiplies per channel pair instead of 9 M^2 (16 instead of 36 for M = 2, 36 instead of 144
// for M = 4), as (M + 2)^2 independent products U[xi] (og x cg) * V[xi] (cg x tiles) on the built-in
// GEMM's generic micro-kernel (the one WebAssembly, Arm and bare-metal builds run). Used by conv.cpp
// where the GEMM has no AVX2/AVX-512 variant (docs/wasm.md, "Speed in the page").
#include <cstdint>

namespace burn::cpu::winograd {

/// One image and group: x [cg, ih, iw] -> y [og, oh, ow], padding pad_h / pad_w at the top / left
/// (outputs reading past the bottom / right edge read zeros, so any end padding works); tile M (2 or 4).
struct Conv3x3 {
    int64_t cg = 0, og = 0, ih = 0, iw = 0, oh = 0, ow = 0, pad_h = 0, pad_w = 0;
    int tile = 2;
};

/// The output tile (2 or 4) conv.cpp uses for a 3 x 3 / stride 1 / undilated convolution of these sizes,
/// or 0 for im2col + GEMM: Winograd only where it measured faster (enough channels on both sides).
int tile_for(int64_t cg, int64_t og, int64_t oh, int64_t ow);
/// Turns the path on or off for this process (default: on unless BURN_CPU_WINOGRAD=0, the variable that
/// also keeps oneDNN off its Winograd kernels). For tests and benchmarks that compare it with im2col.
void set_enabled(bool on);
/// Whether the switch is on: read by conv.cpp's tile_for and by dnnl_conv.cpp, which keeps oneDNN off
/// its Winograd kernels while it is off (one BURN_CPU_WINOGRAD switch for both).
bool enabled();
/// Forces the output tile of tile_for where it picks Winograd (2 or 4; 0: its own choice). For tests.
void set_tile(int tile);

/// Floats of the transformed weights of one group (what transform_weights writes).
int64_t weights_size(int tile, int64_t og, int64_t cg);
/// The (tile + 2)^2 transformed weight matrices G w G^T of one group's w [og, cg, 3, 3], laid out as the
/// GEMM's packed A panels (u must hold weights_size(tile, og, cg) floats).
void transform_weights(const float* w, int tile, int64_t og, int64_t cg, float* u);
/// The transformed weights of w [groups * og, cg, 3, 3] (group gi at gi * weights_size(...)), valid
/// until the calling thread's next call: kept per thread for the last few weight tensors, recognised by
/// their contents (a model's layers at inference transform their weights once), else transformed into
/// the calling thread's scratch slot 3.
const float* weights(const float* w, int tile, int64_t groups, int64_t og, int64_t cg);
/// y = conv(x, w) (+ bias[o] when bias is not null) for one image and group, u from transform_weights
/// with s.tile. Uses the calling thread's scratch buffers (nn::scratch slots 0 to 2).
void conv3x3(const Conv3x3& s, const float* x, const float* u, const float* bias, float* y);

}  // namespace burn::cpu::winograd
