#pragma once
/// NumPy .npy files: one array per file (what np.save writes and np.load reads), as TensorData.
/// Reads format versions 1.0, 2.0 and 3.0 with the dtypes '<f4' '<f8' '<f2' '<i8' '<i4' '<i2' '|i1'
/// '|u1' '|b1' (any byte order mark; '>' big-endian data is byte-swapped), C or Fortran order (a
/// Fortran-order array is transposed into row-major). Shape () is a rank-0 scalar. Anything else
/// (structured or complex dtypes, object arrays, a damaged header, data shorter or longer than the
/// shape needs) is refused with a burn::Error naming the file, the problem and the fix.
///
/// Writes version 1.0 exactly as np.save does: little-endian, 'fortran_order': False, the data on a
/// 64-byte boundary. bf16 has no NumPy dtype: it is written as '<f4' (exact; reads back as f32).
/// Files are written atomically (temporary file + rename).
///
///   burn::write_npy("x.npy", TensorData(std::vector<float>{1, 2, 3, 4, 5, 6}, Dims{2, 3}));
///   TensorData x = burn::read_npy("x.npy");  // f32 [2, 3]
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "burn/tensor/data.hpp"

namespace burn {

/// Reads a .npy file. Throws burn::IoError when it cannot be read or is malformed (magic, version,
/// header, data length), burn::DTypeError for a dtype that has no DType, burn::ShapeError for a bad
/// shape (negative dims, more than 8, element or byte counts that overflow int64).
TensorData read_npy(const std::string& path);
/// Parses the bytes of a .npy file; `what` names them in errors (the path, say).
TensorData parse_npy(std::span<const uint8_t> bytes, const std::string& what);

/// Writes data to path as a .npy file (version 1.0; bf16 as '<f4'), atomically.
void write_npy(const std::string& path, const TensorData& data);
/// The bytes write_npy writes.
std::vector<uint8_t> encode_npy(const TensorData& data);

}  // namespace burn
