#pragma once
/// TensorEntry: one tensor of a file (or of a module being saved), described by name, dtype and shape,
/// with its bytes read only when asked. Stores, adapters and remappers pass entries along; only the
/// tensors that a load applies are ever read.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"
#include "burn/tensor/data.hpp"

namespace burn::store {

struct TensorEntry {
    std::string name;
    DType dtype = DType::f32;
    Dims shape;
    std::optional<uint64_t> param_id;
    /// The contiguous row-major bytes (dtype and shape as above). Throws burn::Error when the file is
    /// corrupt; may be called more than once.
    std::function<TensorData()> read;
    /// Non-empty when the file holds this tensor in a form the project cannot represent (a complex or
    /// quantized dtype, say): loading it is an error with this message, leaving it alone is not.
    std::string unsupported;
};

/// Reads rows [row_begin, row_end) of dim 0 of a contiguous entry (used to split fused weights).
TensorData slice_rows(const TensorData& data, int64_t row_begin, int64_t row_end);
/// The [c, r] transpose of a [r, c] entry's data (Rust burn's Linear layout and this project's).
TensorData transpose_2d(const TensorData& data);
/// e with its shape swapped and its data transposed when read.
TensorEntry transposed(TensorEntry e);
/// The concatenation along dim 0 of parts (one dtype, equal trailing dims; read when read), named name.
TensorEntry concat_rows(std::string name, const std::vector<TensorEntry>& parts);

}  // namespace burn::store
