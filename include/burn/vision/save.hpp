#pragma once
/// Saving a tensor as a PNG image (burn-vision's utils::save, save_tensor_as_image): the values are
/// scaled to [0, 1] by the tensor's minimum and maximum, laid out as [N, C, H, W] by dim_order,
/// resampled (nearest) to width_out x height_out and drawn as RGB. Part of burn_data; PNG encoding
/// needs libpng (BURN_PNG), else the call throws a burn::Error naming the package.
///
///     vision::save_tensor_as_image(heatmap, {.dim_order = vision::ImageDimOrder::hw,
///                                            .color = vision::ColorDisplay::monochrome({0, 0, 0}, {1, 0,
///                                            0})},
///                                  "out/heatmap.png");
#include <array>
#include <cstdint>
#include <filesystem>

#include "burn/tensor/tensor.hpp"

namespace burn::vision {

/// How the tensor's dims are read: h(eight), w(idth), c(hannels), n (batch).
enum class ImageDimOrder { hw, chw, hwc, nhw, nchw, nhwc };

/// How channel values become colours: rgb maps channels 0, 1, 2 to red, green, blue (1 to 3
/// channels; missing ones are 0); monochrome blends from min to max by the sum of the channels.
struct ColorDisplay {
    enum class Kind { rgb, monochrome };
    Kind kind = Kind::rgb;
    std::array<float, 3> min{0, 0, 0};
    std::array<float, 3> max{1, 1, 1};
    static ColorDisplay rgb() { return {}; }
    static ColorDisplay monochrome(std::array<float, 3> min, std::array<float, 3> max) {
        return {Kind::monochrome, min, max};
    }
};

/// Several images of a batch: aggregated draws them all on one image (each over the last, burn's
/// default); tiled stacks them top to bottom (height_out * N rows).
enum class BatchDisplay { aggregated, tiled };

struct TensorDisplayOptions {
    ImageDimOrder dim_order = ImageDimOrder::nchw;
    ColorDisplay color = ColorDisplay::rgb();
    BatchDisplay batch = BatchDisplay::aggregated;
    /// The output size in pixels; 0 keeps the tensor's width / height.
    int64_t width_out = 0;
    int64_t height_out = 0;
};

/// Writes the tensor (a float tensor of the rank dim_order names) to path as an 8-bit RGB PNG; the
/// parent directories are created. A pixel's 8-bit value is floor(255 * v), v in [0, 1]. Throws
/// burn::ShapeError for a rank or channel count that does not fit, burn::IoError when the file
/// cannot be written.
void save_tensor_as_image(const TensorAny& tensor, const TensorDisplayOptions& options,
                          const std::filesystem::path& path);
template <std::size_t D, TensorKind K>
void save_tensor_as_image(const Tensor<D, K>& tensor, const TensorDisplayOptions& options,
                          const std::filesystem::path& path) {
    save_tensor_as_image(tensor.handle(), options, path);
}

}  // namespace burn::vision
