#pragma once
// A fused pass: a small register program. Registers hold float32 (bool as 0 / 1); each step loads an
// input (converting its dtype), fills a constant or runs one elementwise row. Built from a lazy graph
// (fused_program.cpp) and run by the device below's fusion target (fusion_target.hpp): the CPU's over
// blocks of a few thousand elements in parallel (fused_kernels.cpp), CUDA's as one generated kernel;
// the intermediate values live in cache or registers, never in memory.
#include <cstdint>
#include <string>
#include <vector>

#include "burn/backend/backend.hpp"
#include "decorators/lazy/fusion_target.hpp"

namespace burn::lazy {

/// One row's loop over a block: out[i] = row(a[i], b[i], c[i]) for i < n, float32 registers.
using BlockFn = void (*)(const float* const* args, float* out, int64_t n, double p0, double p1);

/// The block loop of an elementwise row (every row of elementwise.def has one).
BlockFn block_fn(OpId op);

struct Step {
    enum class Kind : uint8_t { load, constant, op, to_bool };
    Kind kind = Kind::op;
    OpId op{};  // Kind::op: the row
    int args[3] = {-1, -1, -1};
    int nargs = 0;
    int leaf = -1;          // Kind::load: the input
    float value = 0;        // Kind::constant
    double p0 = 0, p1 = 0;  // the row's scalars
};

/// An input of the pass: a tensor of the device below, of the pass's shape (any strides), read as
/// float32 (to_bool: as 0 / 1 of `x != 0`).
struct Leaf {
    TensorRef tensor;
    bool to_bool = false;
    bool flat = false;  // read in memory order (the pass runs in a dense layout it shares)
};

struct Output {
    int slot = -1;        // the step whose value it is
    TensorRef tensor;     // allocated by the builder: of the pass's shape, or [..., 1] for a reduction
    int64_t row = 0;      // > 0: the sums of the slot's rows of this length (a reduction tail)
    bool reused = false;  // the buffer of an input: stored after the block's last step has read it
};

struct Program {
    FusionTarget* target = nullptr;  // the device below's: runs the pass
    Dims shape;
    /// Empty: the pass runs in row-major order. Else the dense strides (channels-last activations)
    /// that every input of the pass's shape shares: the pass runs in memory order and its outputs
    /// keep that layout, as the eager kernels do (a convolution after them needs no reorder).
    Dims layout;
    int64_t block = 0;  // elements per block: kBlock, or whole rows when the pass ends in a reduction
    std::vector<Leaf> leaves;
    std::vector<Step> steps;  // step i defines slot i
    std::vector<Output> outputs;
};

/// A readable listing ("%2 = mul %0 %1") for the debug dump.
std::string listing(const Program& program);

/// Elements per block: 4 KB registers, so a chain's registers and the input lines streaming past them
/// stay in L1 (4096 measured 1.5x slower on relu(x * y + z): the registers spilled to L2).
inline constexpr int64_t kBlock = 1024;

}  // namespace burn::lazy
