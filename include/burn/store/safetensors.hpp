#pragma once
/// SafetensorsStore: Hugging Face's SafeTensors format (8-byte header length, JSON header, raw
/// little-endian bytes), read memory-mapped and written atomically. Every project dtype maps to a
/// SafeTensors dtype (F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL). Loads adapt PyTorch names
/// by default (PytorchAdapter: only where the module has the adapted name); to write a file that
/// PyTorch's load_state_dict accepts, use .with_save_adapter(std::make_shared<BurnToPytorchAdapter>()).
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/store/store.hpp"

namespace burn::store {

class SafetensorsStore : public StoreBuilder<SafetensorsStore> {
  public:
    explicit SafetensorsStore(std::filesystem::path path);
    static SafetensorsStore from_bytes(std::vector<uint8_t> bytes);
    static SafetensorsStore in_memory();

    /// `__metadata__` entries written with the next save.
    SafetensorsStore& metadata(std::string key, std::string value);
    std::map<std::string, std::string> read_metadata();
    /// The bytes saved by an in_memory store (or given to from_bytes).
    std::vector<uint8_t> bytes() const;

    /// Saves named tensors (any dtype) without a module.
    void save_tensors(const std::map<std::string, TensorAny>& tensors);
    /// Loads every tensor of the file onto device.
    std::map<std::string, TensorAny> load_tensors(const Device& device = Device());

    struct Source;

  protected:
    std::vector<TensorEntry> read_entries() override;
    void write_entries(std::vector<TensorEntry> entries) override;
    const char* store_name() const override { return "SafetensorsStore"; }

  private:
    SafetensorsStore();
    const Source& source();

    std::filesystem::path path_;
    bool in_memory_ = false;
    std::map<std::string, std::string> metadata_;
    std::shared_ptr<Source> source_;
};

}  // namespace burn::store
