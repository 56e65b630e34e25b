#pragma once
// A restricted unpickler for torch.save files. It interprets pickle opcodes into plain values and
// executes nothing: the only callables it knows are the few that rebuild tensors and containers
// (collections.OrderedDict, torch._utils._rebuild_tensor_v2 and friends), evaluated here in C++.
// Any other global is refused when it is named, before anything could use it.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"
#include "burn/store/record.hpp"

namespace burn::store::pickle {

enum class Kind : uint8_t {
    none,
    boolean,
    integer,
    bigint,
    floating,
    string,
    bytes,
    list,
    tuple,
    dict,
    global,
    storage,
    tensor
};

/// The kinds of globals the unpickler accepts.
enum class Global : uint8_t {
    ordered_dict,
    rebuild_tensor_v2,
    rebuild_tensor,
    rebuild_parameter,
    codecs_encode,
    torch_size,
    storage_type,
    tensor_type  // torch.FloatTensor, ...: only named (UnpickleOptions::tensor_types), never called
};

struct Value;

/// A storage reference (persistent id ('storage', type, key, location, numel[, view])).
struct StorageRef {
    std::string key;
    DType dtype = DType::f32;
    std::string type_name;  // "FloatStorage"
    bool supported = true;
    uint64_t elem_size = 4;
    uint64_t numel = 0;        // as declared by the pickle
    uint64_t view_offset = 0;  // legacy storage views: element offset into the root storage
};

/// A tensor rebuilt from a storage: element offset, sizes and strides (in elements).
struct TensorRef {
    const Value* storage = nullptr;
    uint64_t offset = 0;
    Dims size;
    Dims stride;
};

struct Value {
    Kind kind = Kind::none;
    int64_t i = 0;  // integer, boolean, Global for globals
    double f = 0;
    std::string s;  // string, bytes, bigint (little-endian two's complement), global "module.name"
    std::vector<Value*> items;  // list, tuple; dict as key, value, key, value, ...
    std::unique_ptr<StorageRef> storage;
    std::unique_ptr<TensorRef> tensor;
};

/// The result of one pickle: every value lives in the arena (cycles cannot leak or recurse).
struct Unpickled {
    std::vector<std::unique_ptr<Value>> arena;
    Value* root = nullptr;
    std::size_t consumed = 0;  // bytes up to and including STOP
};

/// The most container items the unpickler copies and the flattener walks (shared containers make
/// both cost more than the file's size suggests): 8 per allowed tensor plus 2^22 (5 million by
/// default, 40 MB of references at most).
inline uint64_t max_items(const Limits& limits) {
    return 8 * limits.max_tensors + (uint64_t{1} << 22);
}

/// Makes a value in the unpickler's arena (for UnpickleOptions::persistent_key).
using MakeValue = std::function<Value*(Kind)>;

/// What the tar format of torch.save (PyTorch before 0.1.10, src/store/pytorch_tar.cpp) needs beyond
/// the other formats. The defaults read those.
struct UnpickleOptions {
    /// Resolves a persistent id that is not a tuple (the tar format names tensors and storages by plain
    /// keys, str(key)) into a storage or tensor value made with make; unset, such ids are errors.
    std::function<Value*(const Value& pid, const MakeValue& make)> persistent_key;
    /// Accepts the tensor type names torch.FloatTensor, torch.cuda.LongTensor, ... as globals (the tar
    /// format's tensor records name them); calling one is an error.
    bool tensor_types = false;
};

/// Unpickles one object from data (stopping at its STOP opcode). Throws burn::Error
/// "[PytorchStore] ..." for malformed input, unsupported opcodes and refused globals.
Unpickled unpickle(const uint8_t* data, std::size_t size, const Limits& limits,
                   const UnpickleOptions& options = {});

}  // namespace burn::store::pickle
