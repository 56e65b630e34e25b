#pragma once
/// Resampling layers: Interpolate1d and Interpolate2d (nearest, nearest-exact, (bi)linear, (bi)cubic
/// resize), PixelShuffle and its inverse
/// PixelUnshuffle.
#include <array>
#include <optional>

#include "burn/module/module.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn::nn {

/// Resizes [batch, channels, length] to output_size, or to floor(length * scale_factor) (burn's
/// Interpolate1d). align_corners defaults to true as in burn.
struct Interpolate1d {
    std::optional<std::size_t> output_size;
    std::optional<float> scale_factor;
    InterpolateMode mode = InterpolateMode::nearest;
    bool align_corners = true;

    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Interpolate1d, output_size, scale_factor, mode, align_corners)
};

struct Interpolate1dConfig {
    std::optional<std::size_t> output_size;
    std::optional<float> scale_factor;
    InterpolateMode mode = InterpolateMode::nearest;
    bool align_corners = true;

    Interpolate1d init() const;

    BURN_CONFIG(Interpolate1dConfig, output_size, scale_factor, mode, align_corners)
};

/// Resizes [batch, channels, height, width] to output_size, or to floor(size * scale_factor) when no
/// output_size is given. align_corners defaults to true as in burn (PyTorch's F.interpolate: false).
struct Interpolate2d {
    std::optional<std::array<std::size_t, 2>> output_size;
    std::optional<std::array<float, 2>> scale_factor;
    InterpolateMode mode = InterpolateMode::nearest;
    bool align_corners = true;

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(Interpolate2d, output_size, scale_factor, mode, align_corners)
};

struct Interpolate2dConfig {
    std::optional<std::array<std::size_t, 2>> output_size;
    std::optional<std::array<float, 2>> scale_factor;
    InterpolateMode mode = InterpolateMode::nearest;
    bool align_corners = true;

    Interpolate2d init() const;

    BURN_CONFIG(Interpolate2dConfig, output_size, scale_factor, mode, align_corners)
};

/// [batch, channels * r * r, height, width] -> [batch, channels, height * r, width * r].
struct PixelShuffle {
    std::size_t upscale_factor = 1;

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(PixelShuffle, upscale_factor)
};

struct PixelShuffleConfig {
    std::size_t upscale_factor = 0;
    PixelShuffle init() const;
    BURN_CONFIG(PixelShuffleConfig, upscale_factor)
};

/// The inverse of PixelShuffle (PyTorch's PixelUnshuffle, burn's PixelUnshuffle):
/// [batch, channels, height * r, width * r] -> [batch, channels * r * r, height, width], a reshape and a
/// permute (no new autodiff rule).
struct PixelUnshuffle {
    std::size_t downscale_factor = 1;

    Tensor<4> forward(const Tensor<4>& input) const { return Tensor<4>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(PixelUnshuffle, downscale_factor)
};

struct PixelUnshuffleConfig {
    std::size_t downscale_factor = 0;
    PixelUnshuffle init() const;
    BURN_CONFIG(PixelUnshuffleConfig, downscale_factor)
};

}  // namespace burn::nn
