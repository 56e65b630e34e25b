#pragma once
// What the readers of torch.save's formats share (src/store/pytorch_reader.cpp: zip and legacy stream;
// src/store/pytorch_tar.cpp: the tar format): where a file's storages are, and the unpickled object
// that names them.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "burn/store/record.hpp"
#include "store/format.hpp"
#include "store/pickle.hpp"

namespace burn::store::detail {

inline constexpr const char* kPytorchOp = "PytorchStore";

/// Where storages live: a zip archive (one entry per key) or ranges of the file.
class StorageSource {
  public:
    virtual ~StorageSource() = default;
    /// The bytes of storage key (the whole storage).
    virtual ByteView storage(const std::string& key) = 0;
};

/// Storages kept in place in the file: the legacy stream and the tar format write each one as an i64
/// element count followed by its bytes.
class RangeStorages : public StorageSource {
  public:
    explicit RangeStorages(ByteView file) : file_(std::move(file)) {}
    ByteView storage(const std::string& key) override;
    ByteView file_;
    std::map<std::string, std::pair<uint64_t, uint64_t>> ranges_;  // key -> (offset, bytes)
};

/// Reads a storage as torch writes it into a stream (an i64 element count, then count * elem_size
/// bytes) at offset, ending by end; records its range under key and returns the offset after it.
/// where names the stream in errors ("the file", "member 'storages' of ...").
uint64_t read_raw_storage(RangeStorages& src, const std::string& key, uint64_t elem_size, uint64_t offset,
                          uint64_t end, const std::string& where);

/// Refuses a big-endian file by its pickled sys_info dict (the legacy and tar formats write one).
void check_sys_info(const pickle::Value* sys_info);

std::shared_ptr<pickle::Unpickled> unpickle_shared(const uint8_t* p, std::size_t n, const Limits& limits,
                                                   const pickle::UnpickleOptions& options = {});

/// The unpickled object of a file and where its storages are.
struct Document {
    std::shared_ptr<pickle::Unpickled> doc;
    std::shared_ptr<StorageSource> src;
};

/// Whether bytes start like a tar archive: "ustar" (POSIX and GNU tar) at offset 257.
bool is_tar(const ByteView& bytes);

/// Reads a tar-format torch.save file (PyTorch before 0.1.10); source names it in errors (its path, or
/// "" for bytes).
Document read_tar(const ByteView& bytes, const Limits& limits, const std::string& source);

}  // namespace burn::store::detail
