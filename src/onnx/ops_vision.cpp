// ONNX detection and sampling: NonMaxSuppression, RoiAlign, GridSample, MaxUnpool.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_vision_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
