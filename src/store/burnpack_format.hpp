#pragma once
// The Burnpack byte layout (docs/storage.md): parsing with every check a hostile file needs, and
// writing. No tensors or devices here, so the parser can be fuzzed alone.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "burn/store/record.hpp"
#include "burn/store/tensor_entry.hpp"

namespace burn::store::detail {

struct BurnpackTensor {
    std::string name;
    DType dtype = DType::f32;
    Dims shape;
    std::optional<uint64_t> param_id;
    uint64_t start = 0;  // absolute byte offsets in the file
    uint64_t end = 0;
};

struct BurnpackContents {
    std::vector<BurnpackTensor> tensors;  // in file order
    std::map<std::string, std::string> metadata;
    std::map<std::string, Scalar> scalars;
};

/// Parses and validates a whole Burnpack file; throws burn::Error "[BurnpackStore] ..." on anything
/// malformed (magic, version, lengths, limits, CBOR, dtypes, shapes, ranges, overlaps, alignment).
BurnpackContents parse_burnpack(const uint8_t* data, std::size_t size, const Limits& limits);
/// The same from the first `size` bytes of a file of file_size bytes (enough to hold the header).
BurnpackContents parse_burnpack(const uint8_t* data, std::size_t size, const Limits& limits,
                                uint64_t file_size);

/// The bytes of a Burnpack file holding entries (read one at a time), scalars and metadata.
std::string write_burnpack(const std::vector<TensorEntry>& entries,
                           const std::map<std::string, Scalar>& scalars,
                           const std::map<std::string, std::string>& metadata);

}  // namespace burn::store::detail
