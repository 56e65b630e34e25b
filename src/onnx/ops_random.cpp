// ONNX random generators: RandomUniform(Like), RandomNormal(Like), Bernoulli, Multinomial.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_random_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
