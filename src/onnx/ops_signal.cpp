// ONNX signal processing: HannWindow, HammingWindow, BlackmanWindow, DFT, STFT, MelWeightMatrix.
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

void add_signal_ops(OpTable& t) {
    (void)t;
}

}  // namespace burn::onnx::detail
