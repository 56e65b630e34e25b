#pragma once
/// How scatter and select_assign combine a value with the element it lands on (burn's
/// IndexingUpdateOp; torch.scatter_reduce's "sum", "prod", "amin", "amax" and plain scatter).
#include <cstdint>

namespace burn {

enum class IndexingUpdateOp : uint8_t {
    Assign,  // the value replaces the element; of several values sent to one element, the last wins
    Add,     // the values are added (burn's default scatter; numeric tensors)
    Mul,     // the element is multiplied by the values (numeric tensors)
    Min,     // the smallest of the element and the values (NaN propagates; Bool: and)
    Max,     // the largest (NaN propagates; Bool: or)
};

}  // namespace burn
