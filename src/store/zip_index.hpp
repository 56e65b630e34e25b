#pragma once
// Where the data of the entries of a zip archive held in memory start, read from its central
// directory and local headers. libzip reads entries only through copies (zip_fread); torch.save
// stores its tensors uncompressed, so PytorchStore views them in place (memory-mapped, no copy) and
// checks their CRC-32 itself. Every field is bounds-checked: a malformed archive yields "not found"
// (the caller then reads through libzip, which reports the damage).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burn::store::detail {

struct ZipEntryData {
    uint64_t offset = 0;  // of the first data byte in the archive
    uint64_t size = 0;    // stored (= uncompressed) bytes
    uint32_t crc = 0;
};

class ZipIndex {
  public:
    /// Parses the central directory; an archive it cannot read leaves the index empty.
    ZipIndex(const uint8_t* data, std::size_t size);
    /// The data range of a stored (uncompressed) entry, or false (absent, compressed or malformed).
    bool stored(const std::string& name, ZipEntryData& out) const;
    std::size_t size() const { return entries_.size(); }
    std::vector<std::string> names() const;

  private:
    struct Central {
        uint64_t local = 0, comp = 0, size = 0;
        uint32_t crc = 0;
        uint16_t method = 0;
    };
    const uint8_t* data_;
    std::size_t size_;
    std::map<std::string, Central> entries_;
};

/// CRC-32 (zlib's) of a byte range.
uint32_t zip_crc32(const uint8_t* data, std::size_t size);

}  // namespace burn::store::detail
