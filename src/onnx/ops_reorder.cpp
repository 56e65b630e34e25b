// ONNX reordering and set ops: ReverseSequence, Unique.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_reorder_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
