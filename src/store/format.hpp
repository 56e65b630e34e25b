#pragma once
// Helpers shared by the file formats (Burnpack, SafeTensors, PyTorch): byte views that keep their
// memory alive, little-endian reads, overflow-checked sizes. Nothing here touches tensors or devices,
// so the parsers can be fuzzed on their own.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"
#include "burn/store/record.hpp"
#include "burn/tensor/data.hpp"

namespace burn::store::detail {

/// Bytes of a source with whatever keeps them alive (a memory map, a vector, nothing for static data).
struct ByteView {
    const uint8_t* data = nullptr;
    std::size_t size = 0;
    std::shared_ptr<const void> owner;
};

/// The whole file memory-mapped (the store's mmap(true): the file must not shrink meanwhile).
ByteView view_file(const std::filesystem::path& path, std::string_view op);
/// The whole file read into memory with ordinary reads (a copy: safe against truncation).
ByteView read_whole_file(const std::filesystem::path& path, std::string_view op);
ByteView view_vector(std::shared_ptr<const std::vector<uint8_t>> bytes);
/// The file as memory-mapped bytes (mmap) or read into memory (!mmap).
ByteView file_bytes(const std::filesystem::path& path, std::string_view op, bool mmap);

/// Where Burnpack and SafeTensors stores read from: bytes in memory (given bytes, static data, a
/// memory map) or a file read with positioned reads, tensor by tensor (the default for paths: a file
/// truncated meanwhile gives a burn::Error instead of SIGBUS).
class ByteSource {
  public:
    ByteSource() = default;
    explicit ByteSource(ByteView memory) : memory_(std::move(memory)) {}
    /// path memory-mapped (mmap) or opened for positioned reads.
    static ByteSource open(const std::filesystem::path& path, std::string_view op, bool mmap);

    uint64_t size() const;
    /// n bytes at offset (throws burn::IoError when the file shrank).
    std::vector<uint8_t> read(uint64_t offset, std::size_t n) const;
    /// The tensor stored in bytes [start, end) (bool bytes normalised to 0/1), read straight into its
    /// buffer.
    TensorData tensor(uint64_t start, uint64_t end, DType dtype, const Dims& shape) const;
    /// The first min(n, size()) bytes: a view of the memory, or a copy read from the file (kept in
    /// holder).
    const uint8_t* prefix(std::size_t n, std::vector<uint8_t>& holder) const;

  private:
    ByteView memory_;
    std::shared_ptr<const void> file_;  // a platform::FileReader
};

template <class T>
T read_le(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));  // the formats are little-endian, as is every supported host
    return v;
}
template <class T>
void append_le(std::string& out, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

/// a * b, or false when it overflows uint64.
inline bool mul_ok(uint64_t a, uint64_t b, uint64_t& out) {
    return !__builtin_mul_overflow(a, b, &out);
}

/// The byte count of a tensor of shape and dtype; throws "[op] tensor 'name': ..." when a dimension is
/// negative, the rank exceeds kMaxRank, or the size overflows or exceeds limits.max_tensor_bytes.
uint64_t tensor_nbytes(const Dims& shape, DType dtype, const Limits& limits, std::string_view op,
                       const std::string& name);
/// A shape from a list of dimensions, checking rank and signs.
Dims shape_from(const std::vector<int64_t>& dims, std::string_view op, const std::string& name);

/// A TensorData from raw bytes (bool bytes are normalised to 0/1).
TensorData data_from_bytes(const uint8_t* p, std::size_t n, DType dtype, const Dims& shape);

/// Rounds up to a multiple of align (a power of two).
inline uint64_t align_up(uint64_t x, uint64_t align) {
    return (x + align - 1) & ~(align - 1);
}

}  // namespace burn::store::detail
