// IDX files: the header is 0x00 0x00 <type> <rank>, then rank big-endian u32 dimensions, then the
// elements, big-endian, row-major.
#include "burn/data/idx.hpp"

#include <bit>
#include <cstring>

#include "platform/files.hpp"

namespace burn::data {

namespace {

bool valid_idx_type(uint8_t code) {
    return code == 0x08 || code == 0x09 || code == 0x0B || code == 0x0C || code == 0x0D || code == 0x0E;
}

uint32_t read_be32(const unsigned char* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Reverses the bytes of each element in place (big-endian file <-> little-endian host).
void idx_swap_elements(unsigned char* data, std::size_t count, std::size_t size) {
    if (size == 1 || std::endian::native == std::endian::big) return;
    for (std::size_t i = 0; i < count; ++i, data += size)
        for (std::size_t a = 0, b = size - 1; a < b; ++a, --b) std::swap(data[a], data[b]);
}

}  // namespace

std::size_t idx_type_size(IdxType type) {
    switch (type) {
        case IdxType::u8:
        case IdxType::i8:
            return 1;
        case IdxType::i16:
            return 2;
        case IdxType::i32:
        case IdxType::f32:
            return 4;
        case IdxType::f64:
            return 8;
    }
    return 1;
}

const char* idx_type_name(IdxType type) {
    switch (type) {
        case IdxType::u8:
            return "u8";
        case IdxType::i8:
            return "i8";
        case IdxType::i16:
            return "i16";
        case IdxType::i32:
            return "i32";
        case IdxType::f32:
            return "f32";
        case IdxType::f64:
            return "f64";
    }
    return "?";
}

std::size_t IdxArray::count() const {
    std::size_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

double IdxArray::value(std::size_t i) const {
    BURN_CHECK_KIND(i < count(), index, "[IdxArray::value] index ", i, " is out of range for ", count(),
                    " elements");
    const unsigned char* p = bytes.data() + i * idx_type_size(type);
    switch (type) {
        case IdxType::u8:
            return *p;
        case IdxType::i8:
            return static_cast<int8_t>(*p);
        case IdxType::i16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case IdxType::i32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case IdxType::f32: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case IdxType::f64: {
            double v;
            std::memcpy(&v, p, 8);
            return v;
        }
    }
    return 0;
}

void IdxArray::check_type(int code, std::size_t size) const {
    BURN_CHECK_KIND(code == static_cast<int>(type) && size == idx_type_size(type), dtype,
                    "[IdxArray::as] the array holds ", idx_type_name(type),
                    " elements; read them as the matching type (uint8_t, int8_t, int16_t, int32_t, float, "
                    "double) or through value(i)");
}

IdxArray parse_idx(std::string_view bytes, std::string_view name) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    BURN_CHECK_KIND(bytes.size() >= 4, io, "[read_idx] '", name, "' is not an IDX file: ", bytes.size(),
                    " bytes, fewer than the 4 of the header's magic number");
    BURN_CHECK_KIND(p[0] == 0 && p[1] == 0 && valid_idx_type(p[2]), io, "[read_idx] '", name,
                    "' is not an IDX file: it starts with bytes ", int{p[0]}, " ", int{p[1]}, " ", int{p[2]},
                    " where IDX has 0 0 and a type code (8, 9, 11, 12, 13 or 14); a compressed file needs a "
                    "name ending in .gz");
    IdxArray out;
    out.type = static_cast<IdxType>(p[2]);
    const std::size_t rank = p[3];
    const std::size_t header = 4 + 4 * rank;
    BURN_CHECK_KIND(bytes.size() >= header, io, "[read_idx] '", name, "' is truncated: its header names ",
                    rank, " dimensions but the file has only ", bytes.size(), " bytes");
    const std::size_t size = idx_type_size(out.type);
    std::size_t count = 1;
    bool huge = false;  // more elements than the file could hold (and than size_t may count)
    for (std::size_t d = 0; d < rank; ++d) {
        out.shape.push_back(read_be32(p + 4 + 4 * d));
        if (out.shape.back() != 0 && count > bytes.size() / size / out.shape.back()) huge = true;
        count *= out.shape.back();
    }
    BURN_CHECK_KIND(!huge || count == 0, io, "[read_idx] '", name,
                    "' is truncated: its header's dimensions need more ", "elements than its ", bytes.size(),
                    " bytes hold (download it again)");
    const std::size_t expected = header + count * size;
    BURN_CHECK_KIND(bytes.size() == expected, io, "[read_idx] '", name, "' has ", bytes.size(),
                    " bytes where its header (", idx_type_name(out.type), ", ", count, " elements) needs ",
                    expected,
                    bytes.size() < expected ? ": the file is truncated (download it again)"
                                            : ": unexpected bytes after the elements");
    out.bytes.assign(p + header, p + expected);
    idx_swap_elements(out.bytes.data(), count, size);
    return out;
}

IdxArray read_idx(const std::filesystem::path& path) {
    std::string raw = platform::read_file(path, "read_idx");
    const std::string name = path.string();
    if (path.extension() == ".gz") return parse_idx(gunzip(raw, name), name);
    return parse_idx(raw, name);
}

std::string write_idx(const IdxArray& array) {
    BURN_CHECK(array.shape.size() <= 255, "[write_idx] IDX allows at most 255 dimensions, got ",
               array.shape.size());
    const std::size_t size = idx_type_size(array.type);
    BURN_CHECK(array.bytes.size() == array.count() * size, "[write_idx] ", array.bytes.size(),
               " bytes of elements where the shape needs ", array.count() * size);
    std::string out = {'\0', '\0', static_cast<char>(array.type), static_cast<char>(array.shape.size())};
    for (auto d : array.shape) {
        BURN_CHECK(d <= 0xFFFFFFFFu, "[write_idx] dimension ", d, " does not fit IDX's u32");
        const auto v = static_cast<uint32_t>(d);
        out += {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                static_cast<char>(v)};
    }
    std::size_t at = out.size();
    out.append(reinterpret_cast<const char*>(array.bytes.data()), array.bytes.size());
    idx_swap_elements(reinterpret_cast<unsigned char*>(out.data() + at), array.count(), size);
    return out;
}

}  // namespace burn::data
