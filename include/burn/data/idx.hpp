#pragma once
/// IDX files (the format of MNIST, Fashion-MNIST, EMNIST, KMNIST...): a big-endian header (two zero
/// bytes, a type code, the number of dimensions, then each dimension as a u32) followed by the
/// elements in row-major order. read_idx takes any element type of the format and any rank; a file
/// whose name ends in .gz is decompressed first (needs zlib at build time, BURN_ZLIB in CMake).
///
///     auto images = data::read_idx("train-images-idx3-ubyte.gz");   // u8 [60000, 28, 28]
///     images.shape;                 // {60000, 28, 28}
///     images.as<uint8_t>()[0];      // the first pixel
///     images.value(5);              // any element as a double
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "burn/core/error.hpp"

namespace burn::data {

/// The element types of the IDX format, by their type code.
enum class IdxType : uint8_t { u8 = 0x08, i8 = 0x09, i16 = 0x0B, i32 = 0x0C, f32 = 0x0D, f64 = 0x0E };

/// Bytes per element of an IDX type.
std::size_t idx_type_size(IdxType type);
/// "u8", "i8", "i16", "i32", "f32" or "f64".
const char* idx_type_name(IdxType type);

/// An IDX array: its type, shape and elements (converted to this machine's byte order).
struct IdxArray {
    IdxType type = IdxType::u8;
    std::vector<std::size_t> shape;
    std::vector<unsigned char> bytes;  // count() elements of idx_type_size(type) bytes each

    /// The number of elements (the product of the shape; 1 for rank 0).
    std::size_t count() const;
    /// Element i as a double, whatever the type.
    double value(std::size_t i) const;
    /// The elements as T, which must match the type (uint8_t for u8, int8_t, int16_t, int32_t, float,
    /// double); throws burn::DTypeError otherwise.
    template <class T>
    std::span<const T> as() const {
        check_type(type_of<T>(), sizeof(T));
        return {reinterpret_cast<const T*>(bytes.data()), count()};
    }

  private:
    template <class T>
    static constexpr int type_of() {
        if constexpr (std::is_same_v<T, uint8_t>) return 0x08;
        if constexpr (std::is_same_v<T, int8_t>) return 0x09;
        if constexpr (std::is_same_v<T, int16_t>) return 0x0B;
        if constexpr (std::is_same_v<T, int32_t>) return 0x0C;
        if constexpr (std::is_same_v<T, float>) return 0x0D;
        if constexpr (std::is_same_v<T, double>) return 0x0E;
        return 0;
    }
    void check_type(int code, std::size_t size) const;
};

/// Parses the bytes of an IDX file; `name` (a file name) is what errors mention. Throws burn::IoError
/// naming what is wrong (magic number, type code, a size that does not match the header).
IdxArray parse_idx(std::string_view bytes, std::string_view name = "<memory>");
/// Reads an IDX file (gzip-compressed when its name ends in .gz). Throws burn::IoError.
IdxArray read_idx(const std::filesystem::path& path);
/// The bytes of an IDX array as a file (big-endian, uncompressed): the inverse of parse_idx.
std::string write_idx(const IdxArray& array);

/// Whether this build reads .gz files (it was built with zlib).
bool gzip_available();
/// The decompressed bytes of gzip data (one or more members); `name` is what errors mention. Throws
/// burn::IoError when the data is damaged, or when the build has no zlib (naming the fix).
std::string gunzip(std::string_view compressed, std::string_view name);

}  // namespace burn::data
