// ONNX losses: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_loss_ops(OpTable&) {}

}  // namespace burn::onnx::detail
