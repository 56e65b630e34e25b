#pragma once
/// Connected-component labelling of a bool image (burn-vision's ConnectedComponents trait, OpenCV's
/// connectedComponents): every set pixel gets the label of its component, 1, 2, ... in the raster
/// order of each component's first pixel; unset pixels are 0. Computed on the host (union-find).
///
///     auto [labels, stats] = vision::connected_components_with_stats(mask, vision::Connectivity::eight);
///     stats.area;  // [max_label + 1]: pixels per label (index 0, the background, is 0)
#include <cstdint>
#include <utility>

#include "burn/tensor/tensor.hpp"

namespace burn::vision {

/// four: neighbours share an edge; eight: an edge or a corner.
enum class Connectivity { four, eight };

/// Which statistics to collect (burn's ConnectedStatsOptions; this CPU implementation computes all of
/// them and always labels compactly, so the flags only say what the caller needs).
struct ConnectedStatsOptions {
    bool bounds_enabled = true;
    bool max_label_enabled = true;
    bool compact_labels = true;
    static ConnectedStatsOptions all() { return {}; }
    static ConnectedStatsOptions none() { return {false, false, false}; }
};

/// Per-label statistics: each is [max_label + 1] (i32), indexed by label; entry 0 (the background) is 0.
struct ConnectedStats {
    Tensor<1, Int> area;       // pixel count
    Tensor<1, Int> top;        // smallest row
    Tensor<1, Int> left;       // smallest column
    Tensor<1, Int> right;      // largest column
    Tensor<1, Int> bottom;     // largest row
    Tensor<1, Int> max_label;  // [1]: the number of components
};

/// image [H, W] bool -> labels [H, W] i32.
Tensor<2, Int> connected_components(const Tensor<2, Bool>& image,
                                    Connectivity connectivity = Connectivity::eight);
/// The labels and each component's area and bounding box.
std::pair<Tensor<2, Int>, ConnectedStats> connected_components_with_stats(
    const Tensor<2, Bool>& image, Connectivity connectivity = Connectivity::eight,
    const ConnectedStatsOptions& options = {});

}  // namespace burn::vision
