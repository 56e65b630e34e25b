#pragma once
// The autocast guard's per-thread state, read by dispatch (src/ops/dispatch.cpp) on every op: one byte,
// 0 outside autocast, so the check costs a load and a branch.
#include <cstdint>
#include <optional>

#include "burn/backend/op.hpp"
#include "burn/backend/tensor_impl.hpp"
#include "platform/sync.hpp"

namespace burn::autocast::detail {

/// 0: off; otherwise 1 + the DType to cast to. Set by Guard; cleared while an autocast call runs (its
/// casts and the re-typed call are not cast again).
extern constinit BURN_THREAD_LOCAL uint8_t g_state;

/// Dispatch's hook: the call run under this thread's guard, or nullopt when it needs no cast.
std::optional<TensorRefs> guard_run(const OpCall& call, const TensorRefs& inputs);

}  // namespace burn::autocast::detail
