// PNG decoding with libpng (compiled only when CMake finds libpng: BURN_PNG). The classic API with
// transforms to 8 bits per sample, so that the samples are the file's (the simplified API would
// treat 16-bit files as linear light and re-encode them). libpng reports errors by longjmp to the
// setjmp in png_decode_rows; the error is thrown after it returns.
#include <png.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

namespace {

struct PngSource {
    const unsigned char* data;
    std::size_t size, at;
    char message[256];
};

void png_read_source(png_structp png, png_bytep out, png_size_t n) {
    auto* src = static_cast<PngSource*>(png_get_io_ptr(png));
    if (n > src->size - src->at) png_error(png, "the file ends early (truncated)");
    std::memcpy(out, src->data + src->at, n);
    src->at += n;
}

void png_error_jump(png_structp png, png_const_charp message) {
    auto* src = static_cast<PngSource*>(png_get_error_ptr(png));
    std::snprintf(src->message, sizeof(src->message), "%s", message);
    png_longjmp(png, 1);
}

void png_warning_quiet(png_structp, png_const_charp) {}

struct PngSink {
    std::string* out;
    char message[256];
};

void png_write_sink(png_structp png, png_bytep data, png_size_t n) {
    auto* sink = static_cast<PngSink*>(png_get_io_ptr(png));
    sink->out->append(reinterpret_cast<const char*>(data), n);
}

void png_flush_none(png_structp) {}

void png_error_jump_sink(png_structp png, png_const_charp message) {
    auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
    std::snprintf(sink->message, sizeof(sink->message), "%s", message);
    png_longjmp(png, 1);
}

// Encodes image into sink.out; false with sink.message set on error (only plain data crosses setjmp).
bool png_encode_rows(png_structp png, png_infop info, PngSink& sink, const Image& image,
                     std::vector<png_bytep>& rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    static const int kTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                 PNG_COLOR_TYPE_RGB_ALPHA};
    png_set_write_fn(png, &sink, png_write_sink, png_flush_none);
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
                 kTypes[image.channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows.data());
    png_write_end(png, nullptr);
    return true;
}

// Decodes into out (8-bit samples, 1 to 4 channels as stored); false with src.message set on error.
// Only plain data crosses the setjmp: nothing here needs a destructor when libpng jumps back.
bool png_decode_rows(png_structp png, png_infop info, PngSource& src, Image& out,
                     std::vector<png_bytep>& rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_read_fn(png, &src, png_read_source);
    png_read_info(png, info);
    const int depth = png_get_bit_depth(png, info);
    const int type = png_get_color_type(png, info);
    if (depth == 16) png_set_scale_16(png);  // rounded: v * 255 / 65535
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const int channels = png_get_channels(png, info);
    const png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (width > 0x7FFFFFFFu || height > 0x7FFFFFFFu || channels < 1 || channels > 4)
        png_error(png, "unsupported size or channel count");
    out = Image(static_cast<int>(height), static_cast<int>(width), channels);
    rows.resize(height);
    for (png_uint_32 y = 0; y < height; ++y) rows[y] = out.pixels.data() + std::size_t{y} * width * channels;
    png_read_image(png, rows.data());
    png_read_end(png, nullptr);
    return true;
}

}  // namespace

bool png_available() {
    return true;
}

Image decode_png(std::string_view bytes, std::string_view name, ImageMode mode) {
    PngSource src{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), 0, {}};
    BURN_CHECK_KIND(
        bytes.size() >= 8 && png_sig_cmp(src.data, 0, 8) == 0, io, "[decode_png] '", name,
        "' is not a PNG file (no PNG signature); convert it to PNG or remove it from the dataset");
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_error_jump, png_warning_quiet);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    BURN_CHECK_KIND(png && info, io, "[decode_png] libpng could not start (out of memory?)");
    Image out;
    std::vector<png_bytep> rows;
    const bool ok = png_decode_rows(png, info, src, out, rows);
    png_destroy_read_struct(&png, &info, nullptr);
    BURN_CHECK_KIND(ok, io, "[decode_png] '", name, "' could not be decoded (libpng: ", src.message,
                    "); the file is damaged or truncated: replace it or remove it from the dataset");
    return convert_image(out, mode);
}

std::string encode_png(const Image& image) {
    BURN_CHECK_KIND(
        image.height > 0 && image.width > 0 && image.channels >= 1 && image.channels <= 4 &&
            image.pixels.size() == static_cast<std::size_t>(image.height) * image.width * image.channels,
        shape, "[encode_png] the image is ", image.height, " x ", image.width, " x ", image.channels,
        " with ", image.pixels.size(),
        " bytes; PNG needs a non-empty image of 1 to 4 channels and height * width * channels bytes");
    std::string out;
    PngSink sink{&out, {}};
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, png_error_jump_sink, png_warning_quiet);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    BURN_CHECK_KIND(png && info, io, "[encode_png] libpng could not start (out of memory?)");
    std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
    const std::size_t stride = static_cast<std::size_t>(image.width) * image.channels;
    for (std::size_t y = 0; y < rows.size(); ++y)
        rows[y] = const_cast<png_bytep>(image.pixels.data() + y * stride);  // libpng only reads them
    const bool ok = png_encode_rows(png, info, sink, image, rows);
    png_destroy_write_struct(&png, &info);
    BURN_CHECK_KIND(ok, io, "[encode_png] libpng failed: ", sink.message);
    return out;
}

}  // namespace burn::data
