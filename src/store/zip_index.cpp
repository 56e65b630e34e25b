#include "store/zip_index.hpp"

#include "burn/core/error.hpp"

#ifdef BURN_HAVE_ZIP  // zlib comes with libzip
#include <zlib.h>
#endif

#include <algorithm>

namespace burn::store::detail {

namespace {

uint64_t le(const uint8_t* p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

constexpr uint32_t kEocd = 0x06054b50, kZip64Locator = 0x07064b50, kZip64Eocd = 0x06064b50;
constexpr uint32_t kCentral = 0x02014b50, kLocal = 0x04034b50;

}  // namespace

ZipIndex::ZipIndex(const uint8_t* data, std::size_t size) : data_(data), size_(size) {
    if (size < 22) return;
    // The end-of-central-directory record: the last 22 bytes plus a comment of up to 65,535.
    std::size_t eocd = size - 22, stop = size > 22 + 65535 ? size - 22 - 65535 : 0;
    while (le(data + eocd, 4) != kEocd) {
        if (eocd == stop) return;
        --eocd;
    }
    uint64_t count = le(data + eocd + 10, 2), cd_size = le(data + eocd + 12, 4), cd = le(data + eocd + 16, 4);
    if ((count == 0xFFFF || cd == 0xFFFFFFFF || cd_size == 0xFFFFFFFF) && eocd >= 20 &&
        le(data + eocd - 20, 4) == kZip64Locator) {
        const uint64_t z = le(data + eocd - 20 + 8, 8);
        if (z > size || size - z < 56 || le(data + z, 4) != kZip64Eocd) return;
        count = le(data + z + 32, 8);
        cd_size = le(data + z + 40, 8);
        cd = le(data + z + 48, 8);
    }
    if (cd > size || cd_size > size - cd) return;
    const uint64_t end = cd + cd_size;
    uint64_t p = cd;
    for (uint64_t i = 0; i < count; ++i) {
        if (end - p < 46 || le(data + p, 4) != kCentral) return;
        Central c;
        c.method = static_cast<uint16_t>(le(data + p + 10, 2));
        c.crc = static_cast<uint32_t>(le(data + p + 16, 4));
        c.comp = le(data + p + 20, 4);
        c.size = le(data + p + 24, 4);
        const uint64_t name_len = le(data + p + 28, 2), extra_len = le(data + p + 30, 2),
                       comment_len = le(data + p + 32, 2);
        c.local = le(data + p + 42, 4);
        if (end - p - 46 < name_len + extra_len + comment_len) return;
        std::string name(reinterpret_cast<const char*>(data + p + 46), name_len);
        // Zip64 extended information: the 64-bit values of the fields saturated above, in order.
        const uint8_t* x = data + p + 46 + name_len;
        for (uint64_t q = 0; q + 4 <= extra_len;) {
            const uint64_t id = le(x + q, 2), len = le(x + q + 2, 2);
            if (q + 4 + len > extra_len) return;
            if (id == 0x0001) {
                uint64_t f = q + 4;
                auto take = [&](uint64_t& field) {
                    if (field != 0xFFFFFFFF) return true;
                    if (f + 8 > q + 4 + len) return false;
                    field = le(x + f, 8);
                    f += 8;
                    return true;
                };
                if (!take(c.size) || !take(c.comp) || !take(c.local)) return;
            }
            q += 4 + len;
        }
        entries_.emplace(std::move(name), c);
        p += 46 + name_len + extra_len + comment_len;
    }
}

bool ZipIndex::stored(const std::string& name, ZipEntryData& out) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) return false;
    const Central& c = it->second;
    if (c.method != 0 || c.comp != c.size) return false;  // compressed: libzip inflates it
    if (c.local > size_ || size_ - c.local < 30 || le(data_ + c.local, 4) != kLocal) return false;
    const uint64_t begin = c.local + 30 + le(data_ + c.local + 26, 2) + le(data_ + c.local + 28, 2);
    if (begin > size_ || c.size > size_ - begin) return false;
    out = ZipEntryData{begin, c.size, c.crc};
    return true;
}

std::vector<std::string> ZipIndex::names() const {
    std::vector<std::string> v;
    for (const auto& [name, c] : entries_) v.push_back(name);
    return v;
}

uint32_t zip_crc32(const uint8_t* data, std::size_t size) {
#ifndef BURN_HAVE_ZIP
    (void)data;
    (void)size;
    BURN_THROW("[PytorchStore] built without libzip and zlib: no CRC-32 of zip entries");
#else
    uLong crc = crc32(0L, Z_NULL, 0);
    while (size > 0) {  // zlib takes 32-bit lengths
        const uInt n = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
        crc = crc32(crc, data, n);
        data += n;
        size -= n;
    }
    return static_cast<uint32_t>(crc);
#endif
}

}  // namespace burn::store::detail
