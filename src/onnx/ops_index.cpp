// ONNX indexing: ScatterElements, Scatter, ScatterND, GatherND, Compress, NonZero, EyeLike, Hardmax.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_index_ops(OpTable&) {}

}  // namespace burn::onnx::detail
