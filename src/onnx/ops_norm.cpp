// ONNX normalisations beyond the nn family: LRN, MeanVarianceNormalization.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_norm_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
