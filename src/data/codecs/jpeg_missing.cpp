// decode_jpeg in a build without libjpeg (jpeg.cpp is compiled instead when CMake finds it).
#include "burn/core/error.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

bool jpeg_available() {
    return false;
}

Image decode_jpeg(std::string_view, std::string_view name, ImageMode) {
    BURN_THROW("[decode_jpeg] cannot decode '", name,
               "': this build of burn has no JPEG support. Install libjpeg-turbo (apt-get install "
               "libjpeg62-turbo-dev) and configure again (BURN_JPEG=AUTO or ON)");
}

}  // namespace burn::data
