#pragma once
/// BurnpackStore: the project's native format (byte layout in docs/storage.md). A 10-byte header
/// (magic "BURN", version, metadata length), CBOR metadata (tensors, user metadata, typed scalars),
/// then tensor data, each tensor on a 256-byte boundary so that it can be used in place from a
/// memory map. Files are written atomically (temporary file + rename) and read memory-mapped.
///
///   store::BurnpackStore out("model.bpk");
///   out.metadata("epoch", "3");
///   model.save_into(out);
///   store::BurnpackStore in("model.bpk");
///   auto result = model.load_from(in);  // ApplyResult
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/store/record.hpp"
#include "burn/store/store.hpp"

namespace burn::store {

inline constexpr uint32_t kBurnpackMagic = 0x4255524E;  // "BURN" read as a little-endian u32
inline constexpr uint16_t kBurnpackVersion = 1;
inline constexpr uint64_t kBurnpackAlignment = 256;

/// What a Burnpack file declares for one tensor.
struct TensorInfo {
    std::string name;
    DType dtype = DType::f32;
    Dims shape;
    std::optional<uint64_t> param_id;
};

class BurnpackStore : public StoreBuilder<BurnpackStore> {
  public:
    /// A store reading from and writing to a file.
    explicit BurnpackStore(std::filesystem::path path);
    /// A read-only store over bytes it keeps (a model embedded in a binary, a network buffer).
    static BurnpackStore from_bytes(std::vector<uint8_t> bytes);
    /// A read-only store over memory that outlives it (static data); nothing is copied.
    static BurnpackStore from_static(const uint8_t* data, std::size_t size);
    /// A store that saves into memory: read the result with bytes().
    static BurnpackStore in_memory();

    /// User metadata written with the next save (string keys and values).
    BurnpackStore& metadata(std::string key, std::string value);
    /// A typed scalar written with the next save.
    BurnpackStore& scalar(std::string key, Scalar value);
    /// Whether save may replace an existing file (default true); false makes it an error.
    BurnpackStore& overwrite(bool on);

    /// The bytes saved by an in_memory store (or given to from_bytes/from_static).
    std::vector<uint8_t> bytes() const;

    /// The metadata, scalars and tensor list of the source.
    std::map<std::string, std::string> read_metadata();
    std::map<std::string, Scalar> read_scalars();
    std::vector<TensorInfo> tensors();

    /// Saves a record (named tensors + scalars + metadata), e.g. optimizer state.
    void save_record(const Record& record);
    /// Loads the whole source as a record, tensors on device.
    Record load_record(const Device& device = Device());

    struct Source;  // the bytes being read (file map, owned or static memory)

  protected:
    std::vector<TensorEntry> read_entries() override;
    void write_entries(std::vector<TensorEntry> entries) override;
    const char* store_name() const override { return "BurnpackStore"; }
    bool file_has_burn_linear_layout() override;

  private:
    BurnpackStore() = default;
    void write(std::vector<TensorEntry> entries, const std::map<std::string, Scalar>& scalars,
               const std::map<std::string, std::string>& metadata);
    const Source& source();

    std::filesystem::path path_;
    bool in_memory_ = false;
    bool overwrite_ = true;
    std::map<std::string, std::string> metadata_;
    std::map<std::string, Scalar> scalars_;
    std::shared_ptr<Source> source_;  // parsed lazily, re-read after a save
};

}  // namespace burn::store
