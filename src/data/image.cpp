// Images: the HWC u8 type, format detection and channel conversion (no codec library here: the
// decoders are src/data/codecs/png.cpp and jpeg.cpp, or their *_missing.cpp).
#include "burn/data/image.hpp"

#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::data {

Image::Image(int h, int w, int c, std::vector<uint8_t> data)
    : height(h), width(w), channels(c), pixels(std::move(data)) {
    BURN_CHECK_KIND(h >= 0 && w >= 0 && c >= 1 && c <= 4, shape, "[Image] height ", h, ", width ", w,
                    " and channels ", c, ": sizes are non-negative and channels 1 to 4");
    const std::size_t n =
        static_cast<std::size_t>(h) * static_cast<std::size_t>(w) * static_cast<std::size_t>(c);
    if (pixels.empty()) pixels.assign(n, 0);
    BURN_CHECK_KIND(pixels.size() == n, shape, "[Image] ", pixels.size(), " pixel bytes where ", h, " x ", w,
                    " x ", c, " needs ", n);
}

Image read_image(const std::filesystem::path& path, ImageMode mode) {
    const std::string bytes = platform::read_file(path, "read_image");
    const std::string name = path.string();
    if (bytes.size() >= 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0)
        return decode_png(bytes, name, mode);
    if (bytes.size() >= 3 && bytes.compare(0, 3, "\xFF\xD8\xFF", 3) == 0)
        return decode_jpeg(bytes, name, mode);
    BURN_THROW_KIND(
        io, "[read_image] '", name,
        "' is neither PNG nor JPEG (its first bytes are not either format's signature); convert it "
        "to PNG or JPEG, or remove it from the folder");
}

void write_png(const std::filesystem::path& path, const Image& image) {
    platform::write_file_atomic(path, encode_png(image), "write_png");
}

Image convert_image(const Image& image, ImageMode mode) {
    const int c = image.channels;
    if (mode == ImageMode::keep || (mode == ImageMode::grey && c == 1) || (mode == ImageMode::rgb && c == 3))
        return image;
    const int out_c = mode == ImageMode::grey ? 1 : 3;
    Image out(image.height, image.width, out_c);
    const std::size_t n = static_cast<std::size_t>(image.height) * static_cast<std::size_t>(image.width);
    for (std::size_t i = 0; i < n; ++i) {
        const uint8_t* p = image.pixels.data() + i * c;
        uint8_t* q = out.pixels.data() + i * out_c;
        if (c <= 2) {  // grey (+ alpha)
            for (int k = 0; k < out_c; ++k) q[k] = p[0];
        } else if (out_c == 3) {
            q[0] = p[0], q[1] = p[1], q[2] = p[2];
        } else {  // ITU-R 601-2 luma, as PIL's convert("L") rounds it
            q[0] = static_cast<uint8_t>((p[0] * 19595u + p[1] * 38470u + p[2] * 7471u + 0x8000u) >> 16);
        }
    }
    return out;
}

}  // namespace burn::data
