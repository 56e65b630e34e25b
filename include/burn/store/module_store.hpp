#pragma once
/// The interface between modules and stores: a module hands a store snapshots of its tensors
/// (save_into) or asks it to fill slots (load_from). Stores (Burnpack, SafeTensors, PyTorch) implement it.
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "burn/tensor/tensor_any.hpp"

namespace burn::store {

/// One tensor of a module, as saved.
struct TensorSnapshot {
    std::string path;  // "encoder.layers.0.weight"
    TensorAny tensor;  // on the module's device
    uint64_t param_id = 0;
    bool is_buffer = false;
    /// The BURN_MODULE type holding the tensor ("Linear"), empty at the top level: layout rules that
    /// depend on the layer (Rust burn's [in, out] Linear weight) read it.
    std::string module_type;
};

/// One tensor a module can receive.
struct TensorSlot {
    std::string path;
    Dims shape;
    DType dtype;
    Device device;
    uint64_t param_id = 0;
    bool is_buffer = false;
    std::string module_type;  // as TensorSnapshot's
};

struct ApplyError {
    std::string path;
    std::string message;
};

/// What a load did: nothing is silent. `applied` tensors were written; `skipped` were filtered out;
/// `missing` are module paths the store had nothing for; `unused` are store entries that matched no
/// module path; `errors` are mismatches (shape, dtype) and adapter or read failures.
struct ApplyResult {
    std::vector<std::string> applied;
    std::vector<std::string> skipped;
    std::vector<std::string> missing;
    std::vector<std::string> unused;
    std::vector<ApplyError> errors;

    bool is_success() const { return errors.empty() && missing.empty(); }
    /// A readable report, with "did you mean" suggestions for near-miss names.
    std::string summary() const;
};
std::ostream& operator<<(std::ostream& os, const ApplyResult& r);

/// A tensor a load applies to slot `slot` (already of the slot's shape, dtype and device), with the
/// parameter id the file saved for it, if any (Burnpack files keep ids; load_from restores them).
struct LoadedTensor {
    std::size_t slot = 0;
    TensorAny tensor;
    std::optional<uint64_t> param_id;
};

/// What a store implements.
class ModuleStore {
  public:
    virtual ~ModuleStore() = default;
    /// Writes the snapshots (the whole module). Must not leave a half-written file behind.
    virtual void save(const std::vector<TensorSnapshot>& snapshots) = 0;
    /// Reads tensors for the slots. Returns the report and the tensors to apply (by slot index).
    /// Applying is the module's job, and it applies nothing unless the load succeeded (or partial
    /// loads are allowed).
    virtual std::pair<ApplyResult, std::vector<LoadedTensor>> load(const std::vector<TensorSlot>& slots) = 0;
    /// Whether missing tensors are acceptable (allow_partial(true)).
    virtual bool partial_allowed() const { return false; }
};

}  // namespace burn::store
