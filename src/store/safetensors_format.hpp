#pragma once
// The SafeTensors byte layout: u64 little-endian header length N, N bytes of JSON
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {str: str}}, then the data
// section (offsets relative to it). Parsing validates every field; no tensors or devices here.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "burn/store/record.hpp"
#include "burn/store/tensor_entry.hpp"

namespace burn::store::detail {

struct SafetensorsTensor {
    std::string name;
    DType dtype = DType::f32;
    Dims shape;
    uint64_t start = 0;  // absolute byte offsets in the file
    uint64_t end = 0;
    std::string unsupported;  // a SafeTensors dtype the project lacks (U16, F8_E4M3, ...)
};

struct SafetensorsContents {
    std::vector<SafetensorsTensor> tensors;  // in data order
    std::map<std::string, std::string> metadata;
};

SafetensorsContents parse_safetensors(const uint8_t* data, std::size_t size, const Limits& limits);
/// The same from the first `size` bytes of a file of file_size bytes (enough to hold the header).
SafetensorsContents parse_safetensors(const uint8_t* data, std::size_t size, const Limits& limits,
                                      uint64_t file_size);
std::string write_safetensors(const std::vector<TensorEntry>& entries,
                              const std::map<std::string, std::string>& metadata);

}  // namespace burn::store::detail
