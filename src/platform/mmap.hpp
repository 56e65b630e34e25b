#pragma once
// Read-only memory maps of whole files (stores read tensors in place). Where mmap is unavailable the
// file is read into memory instead; callers see the same interface.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace burn::platform {

class MappedFile {
  public:
    /// Maps path read-only. Throws burn::IoError "[op] cannot read '<path>': <reason>".
    static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path, std::string_view op);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }

  private:
    MappedFile() = default;
    const uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    std::string fallback_;  // the file's bytes when it could not be mapped
};

}  // namespace burn::platform
