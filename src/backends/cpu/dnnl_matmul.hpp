#pragma once
// bf16 matmul through oneDNN (Debian: libdnnl-dev) on CPUs with AVX512-BF16 or AMX: the products run on
// vdpbf16ps / tile instructions with float32 accumulation. matmul.cpp (rows matmul and matmul_widen)
// calls it first for bf16 operands and falls back to the built-in kernel when it returns false.
#include <cstdint>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

/// out [batches..., m, n] (contiguous, f32 or bf16) = a [..., m, k] x b [..., k, n], both bf16, each
/// matrix row- or column-major (transposed views go in as they are), batch dims already equal. False
/// (nothing written) when the build has no oneDNN, it is turned off (BURN_CPU_DNNL=0, or
/// set_dnnl_matmul_enabled), the CPU has neither AVX512-BF16 nor AMX (oneDNN would emulate bf16: slower
/// than the built-in kernel), or a layout or size does not fit.
bool dnnl_bf16_matmul(const CpuTensor& a, const CpuTensor& b, CpuTensor& out, int64_t m, int64_t n, int64_t k,
                      int64_t batches);

/// Element offsets of each batch entry's matrix in t (the last two dims are the matrix; the batch dims
/// counted as an odometer over their strides, from t.offset). Defined in matmul.cpp, shared by both.
std::vector<int64_t> matrix_batch_offsets(const CpuTensor& t, int64_t batches);

/// Whether dnnl_bf16_matmul runs here (built in, on, and the CPU has the instructions).
bool dnnl_bf16_matmul_available();
/// Turns the oneDNN bf16 matmul on or off for this process (tests and benchmarks that compare it with
/// the built-in kernel).
void set_dnnl_matmul_enabled(bool on);

}  // namespace burn::cpu
