#pragma once
// The per-row infer functions of ops.def (infer_<name>, each defined beside its row's frontend in
// src/ops/<file>.cpp) and the checks they share. burn::infer (infer.cpp) dispatches to them through a
// table generated from the .def files.
#include <array>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "burn/backend/op_attrs.hpp"
#include "burn/core/error.hpp"

namespace burn::op_infer {

using Metas = std::span<const TensorMeta>;
/// An infer function's result: at most kMaxOutputs metas, stored inline, so that inferring a call (every
/// op the frontend runs) allocates nothing. Only the first size() slots are constructed (TensorMeta is
/// trivially copyable and destructible: copying an Outs copies its bytes).
class Outs {
  public:
    static constexpr std::size_t kMaxOutputs = 4;
    Outs() {}
    Outs(std::initializer_list<TensorMeta> metas) : n_(metas.size()) {
        if (metas.size() > kMaxOutputs) [[unlikely]]
            throw_too_many(metas.size());
        std::uninitialized_copy(metas.begin(), metas.end(), v_);
    }
    std::size_t size() const { return n_; }
    TensorMeta& operator[](std::size_t i) { return v_[i]; }
    const TensorMeta& operator[](std::size_t i) const { return v_[i]; }
    const TensorMeta* begin() const { return v_; }
    const TensorMeta* end() const { return v_ + n_; }

  private:
    [[noreturn]] static void throw_too_many(std::size_t n);
    static_assert(std::is_trivially_copyable_v<TensorMeta> && std::is_trivially_destructible_v<TensorMeta>);
    union {
        TensorMeta v_[kMaxOutputs];
    };
    std::size_t n_ = 0;
};

#define BURN_OP(name, family, outputs, A) Outs infer_##name(const OpCall& c, Metas in);
#include "burn/backend/ops.def"

/// "f32 [2, 3]": how infer's errors describe an operand.
std::string describe(const TensorMeta& m);
/// Throws unless the call has between lo and hi inputs.
[[noreturn]] void throw_arity(const OpCall& c, Metas in, std::size_t lo, std::size_t hi);
inline void check_arity(const OpCall& c, Metas in, std::size_t lo, std::size_t hi) {
    if (in.size() < lo || in.size() > hi) [[unlikely]]
        throw_arity(c, in, lo, hi);
}
/// Throws unless 0 <= dim < rank; returns dim as an int.
int check_dim(const OpCall& c, int64_t dim, int rank);
/// The frontends' dtype rules, on metas.
void check_float(const OpCall& c, const TensorMeta& m, const char* what = "");
void check_numeric(const OpCall& c, const TensorMeta& m);
void check_int(const OpCall& c, const TensorMeta& m, const char* what);
void check_bool(const OpCall& c, const TensorMeta& m, const char* what);
void check_same_dtype(const OpCall& c, const TensorMeta& a, const TensorMeta& b);
/// The dim of a one-input op along a dim (reductions, scans): checks what check_along_dim checks
/// (kAllowBool: Bool too; kNonEmpty: the dim must not be empty) and that attrs::Dim is in range.
enum AlongDim : unsigned { kAllowBool = 1, kNonEmpty = 2 };
int along_dim(const OpCall& c, Metas in, unsigned flags = 0);
/// Throws unless m has the given rank (`what` names it).
void check_rank(const OpCall& c, const TensorMeta& m, int rank, const char* what);
/// Throws unless shape (an attribute: output 0's shape) has the given rank and no negative dim.
void check_extent(const OpCall& c, const Dims& shape, int rank, const char* what);
/// Throws unless a and b have one shape (broadcasting is an explicit expand before the call).
void check_same_shape(const OpCall& c, const TensorMeta& a, const char* what_a, const TensorMeta& b,
                      const char* what_b);
/// scatter's shape rules (scatter, scatter_add, scatter_reduce): one rank for the three, indices no
/// larger than values on every dim, and no larger than x but on dim d. `op` names the op in the message,
/// `suffix` is appended to it.
void check_scatter_shapes(const char* op, const Dims& x, const Dims& indices, const Dims& values, int d,
                          const char* suffix = "");
/// check_scatter_shapes' rank rule alone (before the dim is normalised).
void check_scatter_ranks(const char* op, const Dims& x, const Dims& indices, const Dims& values,
                         const char* suffix = "");

}  // namespace burn::op_infer
