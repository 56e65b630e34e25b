// decode_png in a build without libpng (png.cpp is compiled instead when CMake finds it).
#include "burn/core/error.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

bool png_available() {
    return false;
}

Image decode_png(std::string_view, std::string_view name, ImageMode) {
    BURN_THROW("[decode_png] cannot decode '", name,
               "': this build of burn has no PNG support. Install libpng (apt-get install libpng-dev) and "
               "configure again (BURN_PNG=AUTO or ON)");
}

std::string encode_png(const Image&) {
    BURN_THROW(
        "[encode_png] this build of burn has no PNG support. Install libpng (apt-get install libpng-dev) "
        "and configure again (BURN_PNG=AUTO or ON)");
}

}  // namespace burn::data
