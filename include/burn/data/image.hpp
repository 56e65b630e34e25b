#pragma once
/// Images for datasets: 8-bit pixels in HWC order (row by row, the channels of each pixel together),
/// decoded from PNG (libpng) or JPEG (libjpeg-turbo). The codecs are optional parts of burn_data
/// (BURN_PNG, BURN_JPEG in CMake, on when the libraries are found): without one, decoding that
/// format throws a burn::Error naming the package to install. The transforms of image_transform.hpp
/// work on this type and need no library.
///
///     data::Image img = data::read_image("cat.jpg");   // PNG or JPEG, told apart by their bytes
///     img.height; img.width; img.channels;             // channels: 1 (grey), 3 (RGB) or 4 (RGBA)
///     img.at(y, x, c);                                 // a u8
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace burn::data {

struct Image {
    int height = 0;
    int width = 0;
    int channels = 0;
    std::vector<uint8_t> pixels;  // height * width * channels, HWC

    Image() = default;
    Image(int h, int w, int c, std::vector<uint8_t> data = {});
    uint8_t& at(int y, int x, int c) {
        return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
    }
    uint8_t at(int y, int x, int c) const {
        return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
    }
    bool operator==(const Image&) const = default;
};

/// How decoded images come out.
enum class ImageMode {
    keep,  // as stored: grey (1), grey + alpha (2, PNG), RGB (3) or RGBA (4)
    grey,  // 1 channel
    rgb,   // 3 channels (alpha dropped)
};

/// Decodes a PNG or JPEG file (told apart by the first bytes, not the name). Throws burn::IoError
/// naming the file when it is missing, damaged or neither format; burn::Error when this build lacks
/// the codec (the message names the package and the CMake option).
Image read_image(const std::filesystem::path& path, ImageMode mode = ImageMode::keep);
/// Decodes PNG bytes (any bit depth, palette, grey, with alpha: all come out as 8-bit samples;
/// 16-bit ones scaled with rounding, v * 255 / 65535, without gamma conversion).
Image decode_png(std::string_view bytes, std::string_view name = "<memory>",
                 ImageMode mode = ImageMode::keep);
/// Decodes JPEG bytes (baseline or progressive; grey or colour).
Image decode_jpeg(std::string_view bytes, std::string_view name = "<memory>",
                  ImageMode mode = ImageMode::keep);
/// The image as PNG bytes (8-bit grey, grey + alpha, RGB or RGBA by its channel count; no
/// interlacing, default compression). Needs libpng like decode_png.
std::string encode_png(const Image& image);
/// encode_png written to path (atomically: a temporary file renamed over it). Throws burn::IoError
/// when it cannot be written.
void write_png(const std::filesystem::path& path, const Image& image);
/// Whether this build decodes PNG (libpng) and JPEG (libjpeg-turbo).
bool png_available();
bool jpeg_available();
/// The image with mode's channels (grey: ITU-R 601 luma, rounded; rgb: grey replicated, alpha dropped).
Image convert_image(const Image& image, ImageMode mode);

}  // namespace burn::data
