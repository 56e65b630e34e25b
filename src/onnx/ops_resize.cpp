// ONNX resampling and space/depth moves: Resize, Upsample, DepthToSpace, SpaceToDepth.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_resize_ops(OpTable&) {}

}  // namespace burn::onnx::detail
