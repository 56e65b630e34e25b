#pragma once
/// PytorchStore: reads files written by torch.save, read-only, in every format: the zip archive of
/// PyTorch >= 1.6 (needs libzip at build time, CMake BURN_ZIP), the legacy pickle stream (PyTorch
/// 0.4 - 1.5, _use_new_zipfile_serialization=False) and the tar archive of PyTorch before 0.1.10.
/// Nested dictionaries become dotted paths; with_top_level_key("state_dict") selects a sub-dictionary.
///
/// The unpickler executes nothing: it interprets only the opcodes and the few globals needed for
/// tensors, storages and containers (OrderedDict, torch._utils._rebuild_tensor_v2, the storage types)
/// and refuses any other global with an error naming it (a pickle calling os.system gives
/// "refusing the global 'posix.system'"). PyTorch's layer names load with no configuration
/// (PytorchAdapter); a different adapter or none can be set with with_load_adapter.
#include <filesystem>
#include <string>
#include <vector>

#include "burn/config/value.hpp"
#include "burn/store/store.hpp"

namespace burn::store {

class PytorchStore : public StoreBuilder<PytorchStore> {
  public:
    explicit PytorchStore(std::filesystem::path path);
    static PytorchStore from_bytes(std::vector<uint8_t> bytes);

    /// Reads the dictionary under this key of the saved object ("state_dict", "model", "model.encoder"
    /// for nested keys). Without it the whole object is flattened.
    PytorchStore& with_top_level_key(std::string key);

    /// Loads every tensor of the (selected part of the) file onto device, by flattened name.
    std::map<std::string, TensorAny> load_tensors(const Device& device = Device());

    /// The non-tensor value under key, "" for the whole saved object (burn's PytorchReader::load_config):
    /// the "config" of torch.save({"config": {...}, "model": state_dict}). Dicts become objects (int keys
    /// as their decimal), lists and tuples arrays, and ints, floats, bools, strings and None themselves;
    /// a tensor or any other object inside is an error naming its path. Nested keys as with_top_level_key.
    config::Value load_config_value(const std::string& key = "");
    /// load_config_value(key) read into a config struct (BURN_CONFIG): missing fields keep their
    /// defaults, unknown ones and wrong kinds are errors naming the key.
    template <class C>
    C load_config(const std::string& key = "") {
        return C::from_json(load_config_value(key));
    }

    /// Whether this build reads the zip format (libzip was found).
    static bool zip_supported();

  protected:
    std::vector<TensorEntry> read_entries() override;
    void write_entries(std::vector<TensorEntry> entries) override;
    const char* store_name() const override { return "PytorchStore"; }

  private:
    PytorchStore();
    std::filesystem::path path_;
    std::shared_ptr<const std::vector<uint8_t>> bytes_;
    std::string top_level_key_;
};

}  // namespace burn::store
