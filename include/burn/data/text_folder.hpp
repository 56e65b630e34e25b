#pragma once
/// Text classification from a folder per class (burn's TextFolderDataset):
///
///     root/negative/a.txt
///     root/positive/b.txt
///
/// Classes are the sub-folders of root sorted by name (byte order), labels their indices; the files
/// of each class are sorted by name. Files are listed at construction and read by get(). Text is
/// returned as UTF-8: a UTF-8 byte-order mark is dropped, UTF-16 files (LE or BE, with a BOM) are
/// converted; anything else is returned as its bytes.
///
///     data::TextFolderDataset texts("root");
///     auto item = texts.get(0);   // item->text, item->label, item->path
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "burn/data/dataset.hpp"

namespace burn::data {

struct TextItem {
    std::string text;   // UTF-8
    int32_t label = 0;  // index into classes()
    std::string path;   // the file it came from
};

class TextFolderDataset final : public Dataset<TextItem> {
  public:
    /// Lists root's class folders and their files with one of extensions (compared without case).
    /// Throws burn::IoError when root is not a folder or holds no such file.
    explicit TextFolderDataset(const std::filesystem::path& root,
                               std::vector<std::string> extensions = {".txt"});
    /// Given (file, class name) pairs and the class names (label i is classes[i]); throws
    /// burn::IndexError for a class name not in classes.
    TextFolderDataset(const std::vector<std::pair<std::filesystem::path, std::string>>& items,
                      std::vector<std::string> classes);
    /// Reads the file: burn::IoError naming it when it cannot be read.
    std::optional<TextItem> get(std::size_t index) const override;
    std::size_t len() const override { return files_.size(); }
    const std::vector<std::string>& classes() const { return classes_; }

  private:
    std::vector<std::string> classes_;
    std::vector<std::pair<std::filesystem::path, int32_t>> files_;
};

/// The bytes as UTF-8 text (the rules above).
std::string decode_text(std::string bytes);

}  // namespace burn::data
