// PNG decoding with libpng's simplified API (compiled only when CMake finds libpng: BURN_PNG).
#include <png.h>

#include <cstring>

#include "burn/core/error.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

bool png_available() {
    return true;
}

Image decode_png(std::string_view bytes, std::string_view name, ImageMode mode) {
    png_image image;
    std::memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) {
        const std::string why = image.message;
        png_image_free(&image);
        BURN_THROW_KIND(io, "[decode_png] '", name, "' is not a readable PNG (libpng: ", why,
                        "); the file is damaged or truncated: replace it or remove it from the dataset");
    }
    const bool colour = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    const bool alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    // 8-bit output in the stored layout; convert_image then gives the mode asked for.
    image.format =
        colour ? (alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB) : (alpha ? PNG_FORMAT_GA : PNG_FORMAT_GRAY);
    const int channels = (colour ? 3 : 1) + (alpha ? 1 : 0);
    Image out(static_cast<int>(image.height), static_cast<int>(image.width), channels);
    if (!png_image_finish_read(&image, nullptr, out.pixels.data(), 0, nullptr)) {
        const std::string why = image.message;
        png_image_free(&image);
        BURN_THROW_KIND(io, "[decode_png] '", name, "' could not be decoded (libpng: ", why,
                        "); the file is damaged or truncated: replace it or remove it from the dataset");
    }
    return convert_image(out, mode);
}

}  // namespace burn::data
