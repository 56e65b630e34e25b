#pragma once
/// Non-maximum suppression (burn-vision's Nms trait, torchvision.ops.nms): boxes are visited in
/// descending score order and each kept box suppresses every later box whose IoU with it exceeds the
/// threshold. Computed on the host.
///
///     Tensor<1, Int> keep = vision::nms(boxes, scores, {.iou_threshold = 0.5f});
#include <cstdint>

#include "burn/tensor/tensor.hpp"

namespace burn::vision {

struct NmsOptions {
    /// A box whose IoU with a kept, higher-scoring box is above this is dropped.
    float iou_threshold = 0.5f;
    /// Boxes scoring below this are dropped first.
    float score_threshold = 0.0f;
    /// At most this many boxes are kept (0: no limit).
    int64_t max_output_boxes = 0;
};

/// boxes [N, 4] as (x1, y1, x2, y2) with x1 <= x2, y1 <= y2; scores [N]. Returns the kept boxes'
/// indices [M] (i32), highest score first (ties keep the lower index first).
Tensor<1, Int> nms(const Tensor<2>& boxes, const Tensor<1>& scores, const NmsOptions& options = {});

}  // namespace burn::vision
