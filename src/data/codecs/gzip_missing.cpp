// gunzip in a build without zlib: a clear error (gzip.cpp is compiled instead when CMake finds zlib).
#include "burn/data/idx.hpp"

namespace burn::data {

bool gzip_available() {
    return false;
}

std::string gunzip(std::string_view, std::string_view name) {
    BURN_THROW_KIND(io, "[gunzip] cannot read '", name,
                    "': this build of burn has no zlib. Decompress it first (gunzip -k FILE) and give the "
                    "uncompressed file, or install zlib (apt-get install zlib1g-dev) and configure again");
}

}  // namespace burn::data
