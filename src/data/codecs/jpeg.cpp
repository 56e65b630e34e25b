// JPEG decoding with libjpeg(-turbo) (compiled only when CMake finds it: BURN_JPEG). libjpeg reports
// errors through a callback that must not return: it longjmps back here, and the error is thrown after.
#include <csetjmp>
#include <cstddef>
#include <cstdio>
// jpeglib.h uses size_t and FILE without including their headers
#include <jpeglib.h>

#include "burn/core/error.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

namespace {

struct JpegErrorManager {
    jpeg_error_mgr pub;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void jpeg_error_exit(j_common_ptr cinfo) {
    auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

void jpeg_quiet(j_common_ptr, int) {}  // warnings (a corrupt but decodable stream) are not printed

}  // namespace

bool jpeg_available() {
    return true;
}

Image decode_jpeg(std::string_view bytes, std::string_view name, ImageMode mode) {
    jpeg_decompress_struct cinfo;
    JpegErrorManager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = jpeg_error_exit;
    err.pub.emit_message = jpeg_quiet;
    err.message[0] = '\0';
    Image out;
    bool cmyk = false;
    if (setjmp(err.jump) == 0) {
        jpeg_create_decompress(&cinfo);
        jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()),
                     static_cast<unsigned long>(bytes.size()));
        jpeg_read_header(&cinfo, TRUE);
        cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
        if (!cmyk) {
            cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
            jpeg_start_decompress(&cinfo);
            out = Image(static_cast<int>(cinfo.output_height), static_cast<int>(cinfo.output_width),
                        cinfo.output_components);
            const std::size_t stride = static_cast<std::size_t>(out.width) * out.channels;
            while (cinfo.output_scanline < cinfo.output_height) {
                JSAMPROW row = out.pixels.data() + cinfo.output_scanline * stride;
                jpeg_read_scanlines(&cinfo, &row, 1);
            }
            jpeg_finish_decompress(&cinfo);
        }
        jpeg_destroy_decompress(&cinfo);
    } else {
        jpeg_destroy_decompress(&cinfo);
        BURN_THROW_KIND(io, "[decode_jpeg] '", name, "' could not be decoded (libjpeg: ", err.message,
                        "); the file is damaged or truncated: replace it or remove it from the dataset");
    }
    BURN_CHECK_KIND(!cmyk, io, "[decode_jpeg] '", name,
                    "' is a CMYK JPEG, which burn does not convert; save it as RGB (e.g. `convert in.jpg "
                    "-colorspace sRGB out.jpg`)");
    return convert_image(out, mode);
}

}  // namespace burn::data
