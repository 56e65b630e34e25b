// ONNX quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul, QLinearConv.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_quant_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
