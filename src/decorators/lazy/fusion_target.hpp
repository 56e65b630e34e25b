#pragma once
// What the lazy decorator needs from the device below it to fuse (docs/fusion.md): the layout of its
// tensors, allocation and views, which rows it has fused code for, and running a fused pass. A
// backend offers one through its registry entry (BackendEntry::fusion); over a backend without one
// the decorator only forwards. The CPU's runs the pass over cache-sized blocks (fused_kernels.cpp),
// CUDA's generates one kernel per pass and compiles it with NVRTC (backends/cuda/fused_target.cpp).
#include <cstdint>
#include <string>

#include "backends/common/strided_tensor.hpp"
#include "burn/backend/backend.hpp"

namespace burn::lazy {

struct Program;

/// A tensor of the device below as the builder sees it: its strides and who else shares its buffer.
struct Layout {
    Dims strides;
    int64_t offset = 0;
    bool contiguous = false;  // row-major (any offset)
    bool dense = false;       // one run of numel() elements in some order of the dims
    bool sole_owner = false;  // the buffer is this tensor's alone (no view, not borrowed memory)
    bool same_layout(const Layout& o, const Dims& shape) const {
        for (int d = 0; d < shape.rank(); ++d)
            if (shape[d] != 1 && strides[d] != o.strides[d]) return false;
        return true;
    }
};

/// The Layout of a strided tensor (strided_tensor.hpp: the CPU's and CUDA's tensors are ones).
template <class StridedTensor>
Layout layout_of(const StridedTensor& t) {
    Layout l;
    l.strides = t.strides;
    l.offset = t.offset;
    l.contiguous = t.is_contiguous();
    l.dense = t.is_dense();
    l.sole_owner = t.storage.use_count() == 1;
    if constexpr (requires { t.storage->borrowed; })  // memory the CPU tensor only borrows (a map)
        l.sole_owner = l.sole_owner && !t.storage->borrowed;
    return l;
}

class FusionTarget {
  public:
    virtual ~FusionTarget() = default;
    /// Whether the elementwise row `op` has a fused form here.
    virtual bool fuses(OpId op) const = 0;
    /// The longest row a reduction tail (sum_dim over the last axis) may sum; 0: no tails.
    virtual int64_t max_row() const = 0;
    virtual Layout layout(const TensorRef& t) const = 0;
    /// A new tensor of the device below (uninitialised), row-major.
    virtual TensorRef alloc(const Dims& shape, DType dtype, const Device& below) = 0;
    /// A view of t's buffer with other strides (t dense, strides a dense layout of shape).
    virtual TensorRef view(const TensorRef& t, const Dims& shape, const Dims& strides) = 0;
    /// A row-major copy of t (t itself when it is one).
    virtual TensorRef contiguous(const TensorRef& t) = 0;
    /// Runs the pass, writing every output.
    virtual void run(const Program& p) = 0;
    /// Whether a pass of one op over computed inputs runs the device's own kernel instead: where a fused
    /// pass costs more host time than an eager launch (generating a kernel's arguments, CUDA) and one
    /// op saves no memory traffic.
    virtual bool eager_single_ops() const { return false; }
    /// How the pass runs, for the listing's first line ("16384 block(s) of 1024").
    virtual std::string describe(const Program& p) const = 0;
};

/// The CPU's (fused_kernels.cpp).
FusionTarget& cpu_target();

}  // namespace burn::lazy
