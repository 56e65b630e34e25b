#pragma once
// Whole-file reads and atomic writes: the only place the library touches the file system for data
// (configs now, records and checkpoints later). Both are binary-safe.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace burn::platform {

/// The whole file. Throws burn::IoError "[op] cannot read '<path>': <reason>" when it is missing, a
/// directory, or unreadable.
std::string read_file(const std::filesystem::path& path, std::string_view op = "read_file");

/// A file opened for positioned reads (the stores' default way to read tensors: unlike a memory map,
/// a file that another process truncates gives an error here, not SIGBUS). The size is taken when it
/// is opened; reads are thread-safe.
class FileReader {
  public:
    /// Throws burn::IoError "[op] cannot read '<path>': <reason>".
    static std::shared_ptr<const FileReader> open(const std::filesystem::path& path, std::string_view op);
    ~FileReader();
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    uint64_t size() const { return size_; }
    /// Reads n bytes at offset into dst; throws burn::IoError when the file ends early (it shrank
    /// since it was opened) or a read fails.
    void read_at(uint64_t offset, void* dst, std::size_t n) const;

  private:
    FileReader() = default;
    std::filesystem::path path_;
    std::string op_;
    uint64_t size_ = 0;
    int fd_ = -1;
    std::string fallback_;  // the whole file where positioned reads are unavailable
};

/// Writes `bytes` to a new temporary file beside `path` (same directory, so the rename cannot cross
/// file systems), flushes it to disk, then renames it over `path`: readers see the old file or the new
/// one, never a partial one. Throws burn::IoError "[op] cannot write '<path>': <reason>"; no
/// temporary file is left behind on failure.
/// Before writing, temporaries of the same target left by processes that no longer exist (a kill
/// during an earlier save: `.NAME.tmp-PID-...` with a dead PID) are removed; a live process's are
/// left alone. After the rename the directory is flushed too, so the new name survives a crash.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                       std::string_view op = "write_file");

/// Appends `bytes` to the file at path (created when missing). For logs that grow during a run; not
/// atomic. Throws burn::IoError "[op] cannot write '<path>': <reason>".
void append_file(const std::filesystem::path& path, std::string_view bytes,
                 std::string_view op = "append_file");

/// Removes `.NAME.tmp-PID-...` files beside path whose PID is not a live process (other than this
/// one); returns how many. Errors are ignored (cleaning is best effort).
std::size_t remove_stale_temporaries(const std::filesystem::path& path);

}  // namespace burn::platform
