// Image transforms on HWC u8 images: resize (bilinear), crops, flips, normalisation.
#include "burn/data/image_transform.hpp"

#include <algorithm>
#include <cmath>

#include "burn/core/error.hpp"

namespace burn::data {

Image resize(const Image& image, int height, int width) {
    BURN_CHECK_KIND(height > 0 && width > 0, shape, "[resize] the target size ", height, " x ", width,
                    " must be positive");
    BURN_CHECK_KIND(image.height > 0 && image.width > 0, shape, "[resize] the image is empty (", image.height,
                    " x ", image.width, ")");
    Image out(height, width, image.channels);
    const double sy = static_cast<double>(image.height) / height,
                 sx = static_cast<double>(image.width) / width;
    // Source coordinate of each output column: (x + 0.5) * scale - 0.5, clamped at 0.
    std::vector<int> x0(static_cast<std::size_t>(width)), x1(x0.size());
    std::vector<double> wx(x0.size());
    for (int x = 0; x < width; ++x) {
        const double src = std::max(0.0, (x + 0.5) * sx - 0.5);
        const int i = std::min(static_cast<int>(src), image.width - 1);
        x0[x] = i;
        x1[x] = std::min(i + 1, image.width - 1);
        wx[x] = src - i;
    }
    const int c = image.channels;
    for (int y = 0; y < height; ++y) {
        const double src = std::max(0.0, (y + 0.5) * sy - 0.5);
        const int y0 = std::min(static_cast<int>(src), image.height - 1);
        const int y1 = std::min(y0 + 1, image.height - 1);
        const double wy = src - y0;
        for (int x = 0; x < width; ++x)
            for (int k = 0; k < c; ++k) {
                const double top = image.at(y0, x0[x], k) * (1 - wx[x]) + image.at(y0, x1[x], k) * wx[x];
                const double bottom = image.at(y1, x0[x], k) * (1 - wx[x]) + image.at(y1, x1[x], k) * wx[x];
                const double v = top * (1 - wy) + bottom * wy;
                out.at(y, x, k) = static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
            }
    }
    return out;
}

Image crop(const Image& image, int top, int left, int height, int width) {
    BURN_CHECK_KIND(top >= 0 && left >= 0 && height >= 0 && width >= 0 && top + height <= image.height &&
                        left + width <= image.width,
                    shape, "[crop] the window at (", top, ", ", left, ") of ", height, " x ", width,
                    " does not fit the ", image.height, " x ", image.width,
                    " image; resize the image first or crop a smaller window");
    Image out(height, width, image.channels);
    const std::size_t row = static_cast<std::size_t>(width) * image.channels;
    for (int y = 0; y < height; ++y) {
        const uint8_t* src =
            &image.pixels[(static_cast<std::size_t>(top + y) * image.width + left) * image.channels];
        std::copy_n(src, row, out.pixels.data() + y * row);
    }
    return out;
}

Image center_crop(const Image& image, int height, int width) {
    BURN_CHECK_KIND(height <= image.height && width <= image.width, shape, "[center_crop] a ", height, " x ",
                    width, " window does not fit the ", image.height, " x ", image.width,
                    " image; resize it first (resize(image, h, w))");
    const int top = static_cast<int>(std::nearbyint((image.height - height) / 2.0));
    const int left = static_cast<int>(std::nearbyint((image.width - width) / 2.0));
    return crop(image, top, left, height, width);
}

Image random_crop(const Image& image, int height, int width, Rng& rng) {
    BURN_CHECK_KIND(height <= image.height && width <= image.width, shape, "[random_crop] a ", height, " x ",
                    width, " window does not fit the ", image.height, " x ", image.width,
                    " image; resize it first (resize(image, h, w))");
    const int top = static_cast<int>(rng.below(static_cast<uint64_t>(image.height - height + 1)));
    const int left = static_cast<int>(rng.below(static_cast<uint64_t>(image.width - width + 1)));
    return crop(image, top, left, height, width);
}

Image hflip(const Image& image) {
    Image out(image.height, image.width, image.channels);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            for (int k = 0; k < image.channels; ++k) out.at(y, image.width - 1 - x, k) = image.at(y, x, k);
    return out;
}

Image random_hflip(const Image& image, Rng& rng, double p) {
    return rng.uniform() < p ? hflip(image) : image;
}

std::vector<float> normalize(const Image& image, const std::vector<float>& mean,
                             const std::vector<float>& std, bool channels_first) {
    const int c = image.channels;
    auto fits = [c](const std::vector<float>& v) {
        return v.size() == 1 || v.size() == static_cast<std::size_t>(c);
    };
    BURN_CHECK_KIND(fits(mean) && fits(std), shape, "[normalize] mean has ", mean.size(), " values and std ",
                    std.size(), " for a ", c, "-channel image; give one value per channel, or one for all");
    for (float s : std)
        BURN_CHECK(s != 0.0f, "[normalize] a std of 0 divides by zero; use 1 to leave a channel unscaled");
    const std::size_t hw = static_cast<std::size_t>(image.height) * static_cast<std::size_t>(image.width);
    std::vector<float> out(hw * c);
    for (int k = 0; k < c; ++k) {
        const float m = mean[mean.size() == 1 ? 0 : k], s = std[std.size() == 1 ? 0 : k];
        for (std::size_t i = 0; i < hw; ++i) {
            const float v = (image.pixels[i * c + k] / 255.0f - m) / s;
            out[channels_first ? k * hw + i : i * c + k] = v;
        }
    }
    return out;
}

}  // namespace burn::data
