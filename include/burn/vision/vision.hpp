#pragma once
/// burn::vision (Rust's burn-vision): image ops on tensors. The ops are part of burn_core (any
/// build); save_tensor_as_image is part of burn_data (it encodes PNG). docs/vision.md.
#include "burn/vision/color.hpp"
#include "burn/vision/connected_components.hpp"
#include "burn/vision/filter.hpp"
#include "burn/vision/morphology.hpp"
#include "burn/vision/nms.hpp"
#include "burn/vision/save.hpp"
#include "burn/vision/transform2d.hpp"
