#pragma once
// Reading torch.save files into tensor entries: the zip format (data.pkl + data/<key> storages,
// through libzip), the legacy stream (magic, protocol, sys_info, object, storage keys, storages) and
// the tar format of PyTorch before 0.1.10 (src/store/pytorch_tar.cpp).
// No tensors or devices here, so the reader can be fuzzed alone.
#include <memory>
#include <string>
#include <vector>

#include "burn/store/record.hpp"
#include "burn/store/tensor_entry.hpp"
#include "store/format.hpp"

namespace burn::store::detail {

/// The tensors of a torch.save file, flattened into dotted names (nested dicts, lists). With a
/// non-empty top_level_key, only that sub-dictionary ("state_dict", or "a.b" for nesting). source names
/// the file in the tar format's errors (its path; "" for bytes).
std::vector<TensorEntry> read_pytorch(const ByteView& bytes, const std::string& top_level_key,
                                      const Limits& limits, const std::string& source = "");

bool pytorch_zip_supported();

}  // namespace burn::store::detail

namespace burn::store::pickle {
struct Value;
struct Unpickled;
}  // namespace burn::store::pickle

namespace burn::store::detail {

/// The unpickled object of a torch.save file, or its value under top_level_key (as read_pytorch
/// selects it); keep owns the values.
const pickle::Value* read_pytorch_object(const ByteView& bytes, const std::string& top_level_key,
                                         const Limits& limits, std::shared_ptr<pickle::Unpickled>& keep,
                                         const std::string& source = "");

}  // namespace burn::store::detail
