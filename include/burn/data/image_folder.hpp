#pragma once
/// Image classification from a folder per class (burn's ImageFolderDataset::new_classification,
/// torchvision's ImageFolder):
///
///     root/cat/001.png
///     root/cat/002.jpg
///     root/dog/abc.jpeg
///
/// Classes are the sub-folders of root sorted by name (byte order), labels their indices (cat 0,
/// dog 1); the files of each class are sorted by name. Files are listed once, at construction, and
/// decoded by get() (image.hpp: PNG through libpng, JPEG through libjpeg-turbo), so a large folder
/// costs no memory up front and the data loader's workers decode in parallel.
///
///     data::ImageFolderDataset folder("root");          // RGB images by default
///     folder.classes();                                 // {"cat", "dog"}
///     auto item = folder.get(0);                        // item->image (HWC u8), item->label
///     auto tensors = data::MapperDataset(folder, [](const data::ImageItem& it) {
///         return data::normalize(data::resize(it.image, 32, 32), {0.5f}, {0.5f});
///     });
#include <filesystem>
#include <string>
#include <vector>

#include "burn/data/dataset.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

struct ImageItem {
    Image image;        // HWC u8
    int32_t label = 0;  // index into classes()
    std::string path;   // the file it came from
};

struct ImageFolderOptions {
    /// The channels items come with (ImageMode::keep: as stored).
    ImageMode mode = ImageMode::rgb;
    /// The file extensions taken (compared without case); other files are ignored.
    std::vector<std::string> extensions = {".png", ".jpg", ".jpeg"};
};

class ImageFolderDataset final : public Dataset<ImageItem> {
  public:
    /// Lists root's class folders and their images. Throws burn::IoError when root is not a folder or
    /// holds no image in any class folder.
    explicit ImageFolderDataset(const std::filesystem::path& root, ImageFolderOptions options = {});
    /// Decodes the image: burn::IoError naming the file when it is damaged.
    std::optional<ImageItem> get(std::size_t index) const override;
    std::size_t len() const override { return files_.size(); }
    /// The class names, sorted: label i is classes()[i].
    const std::vector<std::string>& classes() const { return classes_; }
    /// (file, label) of every item, in item order.
    const std::vector<std::pair<std::filesystem::path, int32_t>>& files() const { return files_; }

  private:
    ImageFolderOptions options_;
    std::vector<std::string> classes_;
    std::vector<std::pair<std::filesystem::path, int32_t>> files_;
};

}  // namespace burn::data
