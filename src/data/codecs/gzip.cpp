// gzip decompression with zlib (compiled only when CMake finds zlib; gzip_missing.cpp otherwise).
#include <zlib.h>

#include "burn/data/idx.hpp"

namespace burn::data {

bool gzip_available() {
    return true;
}

std::string gunzip(std::string_view compressed, std::string_view name) {
    std::string out;
    z_stream zs{};
    // 15 + 32: a zlib or gzip header, detected automatically.
    BURN_CHECK_KIND(inflateInit2(&zs, 15 + 32) == Z_OK, io, "[gunzip] zlib could not start (out of memory?)");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    char buffer[1 << 16];
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef*>(buffer);
        zs.avail_out = sizeof(buffer);
        const int rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer, sizeof(buffer) - zs.avail_out);
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0) break;
            inflateReset(&zs);  // another gzip member follows
            continue;
        }
        if (rc != Z_OK) {
            const std::string why =
                zs.msg ? zs.msg : (rc == Z_BUF_ERROR ? "the data ends early" : "damaged data");
            inflateEnd(&zs);
            BURN_THROW_KIND(io, "[gunzip] '", name, "' is not valid gzip data (", why,
                            "): download it again, or give the uncompressed file");
        }
    }
    inflateEnd(&zs);
    return out;
}

}  // namespace burn::data
