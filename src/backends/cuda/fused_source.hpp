#pragma once
// The CUDA source of a fused pass (docs/fusion.md): one kernel per lazy Program, its steps the rows'
// own functors (backends/common/functors.hpp, compiled by NVRTC as nvcc compiles them for the eager
// kernels), its inputs read through their strides and converted to float32. Plain host code: the
// text depends only on the program's structure (ops, dtypes, how each input is read), every value
// (pointers, strides, sizes, constants, the rows' scalars) is an argument, so one compiled kernel
// serves every step of a training loop whose constants change.
#include <cstdint>
#include <string>
#include <vector>

#include "decorators/lazy/fused_program.hpp"

namespace burn::cuda::fused {

/// How the kernel reads an input.
enum class Read : uint8_t {
    dense,    // element i at base[i] (row-major, or the pass's own dense layout)
    scalar,   // one value for every element (rank 0, or every stride 0)
    strided,  // through the pass shape's coordinates and the input's strides
};

/// A tensor as the kernel sees it: its first element's address and its strides.
struct Operand {
    const void* data = nullptr;
    DType dtype = DType::f32;
    Dims strides;
};

/// What the generated text depends on, beyond the program's steps.
struct Shape {
    std::vector<Read> reads;  // per leaf
    bool vec4 = false;        // 4 elements per thread through 16-byte loads and stores (no strided input;
                              // every f32 dense input and output 16-byte aligned)
    bool index32 = false;     // element counts below 2^31: 32-bit index arithmetic for strided reads
    int row_threads = 0;      // > 0: the pass ends in row sums (outputs with row > 0); this many threads
                              // (32, 64, 128 or 256) per row, 256 / row_threads rows per block
};

struct Kernel {
    std::string source;          // the CUDA source: the compile cache's key
    std::vector<uint64_t> args;  // the argument block, 8-byte slots in the order the source declares
    static constexpr const char* kName = "burn_fused";
};

/// The kernel of p over `leaves` (p.leaves' tensors) writing `outputs` (p.outputs' tensors, f32 or
/// bool, in p's layout). source = false: the argument block only (for a kernel already compiled from
/// a program of the same signature).
Kernel generate(const lazy::Program& p, const Shape& shape, const std::vector<Operand>& leaves,
                const std::vector<void*>& outputs, bool source = true);

/// What the source depends on, compactly: equal signatures give equal sources (the launch's cache key,
/// cheaper than generating the text).
std::vector<int64_t> signature(const lazy::Program& p, const Shape& shape,
                               const std::vector<Operand>& leaves);

/// Whether the row has a fused form in generated kernels (every unary, predicate, binary, compare and
/// ternary row of elementwise.def).
bool has_row(OpId op);

}  // namespace burn::cuda::fused
