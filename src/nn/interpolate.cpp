#include "burn/nn/interpolate.hpp"

#include <cmath>

#include "ops/module_ops_internal.hpp"

namespace burn::nn {

Interpolate2d Interpolate2dConfig::init() const {
    BURN_CHECK(output_size || scale_factor, "[Interpolate2dConfig] give output_size or scale_factor");
    if (output_size)
        BURN_CHECK((*output_size)[0] > 0 && (*output_size)[1] > 0,
                   "[Interpolate2dConfig] output_size must be "
                   "positive, got ",
                   (*output_size)[0], " x ", (*output_size)[1]);
    if (scale_factor)
        BURN_CHECK((*scale_factor)[0] > 0 && (*scale_factor)[1] > 0 && std::isfinite((*scale_factor)[0]) &&
                       std::isfinite((*scale_factor)[1]),
                   "[Interpolate2dConfig] scale_factor must be positive and finite, got ", (*scale_factor)[0],
                   " x ", (*scale_factor)[1]);
    return Interpolate2d{output_size, scale_factor, mode, align_corners};
}

TensorAny Interpolate2d::forward_any(const TensorAny& input) const {
    BURN_CHECK(input.defined(), "[Interpolate2d] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == 4, shape,
                    "[Interpolate2d] expects input [batch, channels, height, width] "
                    "(rank 4), got shape ",
                    input.shape());
    BURN_CHECK(output_size || scale_factor, "[Interpolate2d] neither output_size nor scale_factor is set");
    Dims out = input.shape();
    for (int i = 0; i < 2; ++i) {
        const auto k = static_cast<std::size_t>(i);
        out[i + 2] = output_size ? static_cast<int64_t>((*output_size)[k])
                                 : static_cast<int64_t>(static_cast<double>(input.shape()[i + 2]) *
                                                        static_cast<double>((*scale_factor)[k]));
    }
    BURN_CHECK_KIND(out[2] >= 1 && out[3] >= 1, shape, "[Interpolate2d] the output size ", out[2], " x ",
                    out[3], " of input ", input.shape(), " is empty; use a larger scale_factor");
    return ops::detail::interpolate_call(
        input, attrs::Interpolate{static_cast<int64_t>(mode), align_corners, out}, "Interpolate2d");
}

Interpolate1d Interpolate1dConfig::init() const {
    BURN_CHECK(output_size || scale_factor, "[Interpolate1dConfig] give output_size or scale_factor");
    BURN_CHECK(!output_size || *output_size > 0, "[Interpolate1dConfig] output_size must be positive");
    BURN_CHECK(!scale_factor || (*scale_factor > 0 && std::isfinite(*scale_factor)),
               "[Interpolate1dConfig] scale_factor must be positive and finite, got ",
               scale_factor.value_or(0));
    return Interpolate1d{output_size, scale_factor, mode, align_corners};
}

TensorAny Interpolate1d::forward_any(const TensorAny& input) const {
    BURN_CHECK(input.defined(), "[Interpolate1d] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == 3, shape,
                    "[Interpolate1d] expects input [batch, channels, length] (rank 3), got shape ",
                    input.shape());
    BURN_CHECK(output_size || scale_factor, "[Interpolate1d] neither output_size nor scale_factor is set");
    const auto out = output_size ? static_cast<int64_t>(*output_size)
                                 : static_cast<int64_t>(static_cast<double>(input.shape()[2]) *
                                                        static_cast<double>(*scale_factor));
    BURN_CHECK_KIND(out >= 1, shape, "[Interpolate1d] the output length ", out, " of input ", input.shape(),
                    " is empty; use a larger scale_factor");
    return ops::interpolate1d(input, static_cast<std::size_t>(out), InterpolateOptions{mode, align_corners});
}

PixelShuffle PixelShuffleConfig::init() const {
    BURN_CHECK(upscale_factor > 0, "[PixelShuffleConfig] upscale_factor must be positive");
    return PixelShuffle{upscale_factor};
}

TensorAny PixelShuffle::forward_any(const TensorAny& input) const {
    BURN_CHECK(input.defined(), "[PixelShuffle] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == 4, shape,
                    "[PixelShuffle] expects input [batch, channels, height, width] "
                    "(rank 4), got shape ",
                    input.shape());
    const auto r2 = static_cast<int64_t>(upscale_factor * upscale_factor);
    BURN_CHECK_KIND(input.shape()[1] % r2 == 0, shape, "[PixelShuffle] input of shape ", input.shape(),
                    " has ", input.shape()[1], " channels, which upscale_factor^2 = ", r2,
                    " does not divide");
    return ops::pixel_shuffle(input, upscale_factor);
}

PixelUnshuffle PixelUnshuffleConfig::init() const {
    BURN_CHECK(downscale_factor > 0, "[PixelUnshuffleConfig] downscale_factor must be positive");
    return PixelUnshuffle{downscale_factor};
}

TensorAny PixelUnshuffle::forward_any(const TensorAny& input) const {
    BURN_CHECK(input.defined(), "[PixelUnshuffle] called on an undefined tensor");
    BURN_CHECK(downscale_factor > 0, "[PixelUnshuffle] downscale_factor must be positive");
    BURN_CHECK_KIND(input.rank() == 4, shape,
                    "[PixelUnshuffle] expects input [batch, channels, height, width] (rank 4), got shape ",
                    input.shape());
    const auto r = static_cast<int64_t>(downscale_factor);
    const Dims& s = input.shape();
    BURN_CHECK_KIND(s[2] % r == 0 && s[3] % r == 0, shape, "[PixelUnshuffle] input of shape ", s,
                    " has height ", s[2], " and width ", s[3], ", which downscale_factor ", r,
                    " must divide; crop or pad the input to a multiple of it");
    // [b, c, h, r, w, r] -> [b, c, r, r, h, w] -> [b, c * r * r, h, w]
    TensorAny x = ops::reshape(input, Dims{s[0], s[1], s[2] / r, r, s[3] / r, r});
    x = ops::permute(std::move(x), Dims{0, 1, 3, 5, 2, 4});
    return ops::reshape(std::move(x), Dims{s[0], s[1] * r * r, s[2] / r, s[3] / r});
}

}  // namespace burn::nn
