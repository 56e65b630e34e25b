#pragma once
/// Checkpoints of the managed loop: the model, the optimizer state and the scheduler state as records
/// (named tensors and scalars), plus a small JSON file with the loop's own state (epoch, iteration,
/// metric history, seeds) that is written last and so marks the checkpoint complete. Every file is
/// written atomically: a run killed at any moment leaves only complete checkpoints behind.
///
///     artifact_dir/checkpoint/model-3.bpk  optim-3.bpk  scheduler-3.bpk  training-3.json
///
/// Records go through a RecordStore; the default writes Burnpack files (store::BurnpackStore), so a
/// checkpoint's model file loads into a model with `model.load_from(store::BurnpackStore(path))`.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "burn/config/value.hpp"
#include "burn/module/module.hpp"
#include "burn/optim/optimizer.hpp"

namespace burn::train {

/// Named tensors, scalars and strings: the content of one checkpoint file.
struct CheckpointRecord {
    std::map<std::string, TensorAny> tensors;
    std::map<std::string, double> scalars;
    std::map<std::string, std::string> metadata;
};

/// A file format for records.
class RecordStore {
  public:
    virtual ~RecordStore() = default;
    /// The file extension, with its dot (".bpk").
    virtual std::string extension() const = 0;
    /// Writes record to path atomically (readers see the old file or the new one, never a mix).
    virtual void save(const std::filesystem::path& path, const CheckpointRecord& record) = 0;
    /// Reads a record; tensors are created on device. Throws burn::IoError naming the file when it is
    /// missing or damaged.
    virtual CheckpointRecord load(const std::filesystem::path& path, const Device& device) = 0;
};

/// Burnpack files (.bpk), written atomically.
std::shared_ptr<RecordStore> default_record_store();

// ------------------------------------------------------------------------- modules and optimizers

/// A ModuleStore over a CheckpointRecord: module.save_into(store) fills record(); module.load_from
/// reads tensors by path from it.
class RecordModuleStore final : public store::ModuleStore {
  public:
    RecordModuleStore() = default;
    explicit RecordModuleStore(CheckpointRecord record) : record_(std::move(record)) {}
    void save(const std::vector<store::TensorSnapshot>& snapshots) override;
    std::pair<store::ApplyResult, std::vector<store::LoadedTensor>> load(
        const std::vector<store::TensorSlot>& slots) override;
    CheckpointRecord& record() { return record_; }

  private:
    CheckpointRecord record_;
};

template <class M>
CheckpointRecord module_to_record(const M& model) {
    RecordModuleStore s;
    module::save_into(model, s);
    return std::move(s.record());
}

/// Loads every parameter and buffer of model from record (all or nothing; throws naming what is
/// missing or mismatched).
template <class M>
void module_from_record(M& model, CheckpointRecord record) {
    RecordModuleStore s(std::move(record));
    module::load_from(model, s);
}

/// Optimizer state keyed by parameter path: "<path>/<state name>" (tensors and scalars). Paths, not
/// parameter ids, so that a fresh process (whose parameters have new ids) restores it.
struct OptimizerPaths {
    std::map<uint64_t, std::string> path_of;
    std::map<std::string, uint64_t> id_of;
};
template <class M>
OptimizerPaths optimizer_paths(const M& model) {
    OptimizerPaths p;
    module::visit_params(model, [&](const std::string& path, const auto& param) {
        p.path_of[param.id().value()] = path;
        p.id_of[path] = param.id().value();
    });
    return p;
}
CheckpointRecord optimizer_to_record(const optim::Optimizer& optimizer, const OptimizerPaths& paths);
/// Replaces the optimizer's state. Throws when the record names a parameter the model does not have.
void optimizer_from_record(optim::Optimizer& optimizer, const OptimizerPaths& paths,
                           const CheckpointRecord& record);

// ------------------------------------------------------------------------- checkpoint files

/// One complete checkpoint on disk.
struct CheckpointInfo {
    std::string tag;            // "3", or "interrupted"
    std::size_t epoch = 0;      // epochs completed
    std::size_t iteration = 0;  // iterations completed in the next epoch (0 for end-of-epoch checkpoints)
};

/// Reads and writes the checkpoints of one artifact directory.
class Checkpointer {
  public:
    Checkpointer(std::filesystem::path dir, std::shared_ptr<RecordStore> store);

    const std::filesystem::path& dir() const { return dir_; }
    /// Writes the parts ("model", "optim", "scheduler") then the state file, which completes it.
    void save(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts,
              const config::Value& state);
    /// Every complete checkpoint (its state file parses and every part it lists exists), oldest first.
    /// A state file that is JSON but whose tag, epoch, iteration or parts are wrong (a part name that
    /// is not a plain file name, a tag that is not the file's, an epoch past 2^32 - 1, ...) is refused
    /// with a burn::IoError naming the file, the field and the value.
    std::vector<CheckpointInfo> list() const;
    std::optional<CheckpointInfo> latest() const;
    /// The state file of a checkpoint, its checkpointer fields checked as list() does.
    config::Value load_state(const std::string& tag) const;
    /// checkpoint/training-TAG.json (tag must be a plain file name: letters, digits, '_', '-', '.').
    std::filesystem::path state_file(const std::string& tag) const;
    CheckpointRecord load_part(const std::string& tag, const std::string& part, const Device& device) const;
    /// Deletes a checkpoint (its state file first, so a half-deleted one is never taken as complete).
    /// Only files inside dir() are ever deleted: a state file naming others is refused, deleting nothing.
    void remove(const std::string& tag) const;

  private:
    std::filesystem::path file(const std::string& part, const std::string& tag) const;
    std::filesystem::path dir_;
    std::shared_ptr<RecordStore> store_;
};

}  // namespace burn::train
