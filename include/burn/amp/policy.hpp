#pragma once
/// The autocast policy of every op row (docs/mixed_precision.md), in one table (src/amp/policy.cpp):
/// a row gets its family's default unless the table names it. Backend-level (it names OpId): the
/// autocast guard and decorator read it, and tests print it.
#include <cstddef>
#include <optional>

#include "burn/backend/op.hpp"
#include "burn/backend/tensor_impl.hpp"
#include "burn/core/dtype.hpp"

namespace burn::autocast {

enum class Policy : uint8_t {
    low,          // float32 inputs run in the autocast dtype (bf16/f16), float32 accumulation
    float32,      // f16/bf16 inputs run in float32
    passthrough,  // runs in the dtype it was called with (views, copies, indexing, exact ops)
};

const char* policy_name(Policy p);
/// The policy of op's row.
Policy policy(OpId op);

/// The dtype an input of `policy` runs in under autocast to `low`: its own dtype unless it is a float
/// the policy moves (float32 -> low for `low`; f16/bf16 -> float32 for `float32`).
DType compute_dtype(Policy policy, DType input, DType low);

/// Whether input `input` of op's row is a statistic that stays float32 under a `low` policy (the lse
/// of attention_backward): the table's exceptions, by row name.
bool keeps_float32(OpId op, std::size_t input);

/// Runs call under the policy with low as the autocast dtype: inputs cast where compute_dtype says,
/// the call re-inferred for the cast inputs and run through dispatch on the inputs' device, its outputs
/// cast back to the dtypes the call records. Nullopt when nothing needs a cast (the caller runs the
/// call as it is).
std::optional<TensorRefs> run_autocast(const OpCall& call, const TensorRefs& inputs, DType low);

}  // namespace burn::autocast
