#pragma once
/// Image datasets with richer annotations than a class per folder (the other constructors of burn's
/// ImageFolderDataset): several labels per image, a segmentation mask per image, or COCO bounding
/// boxes. Like ImageFolderDataset, files are listed at construction and decoded by get() (PNG and
/// JPEG, image.hpp).
///
///     data::MultiLabelImageDataset tags({{"a.png", {"cat", "outdoor"}}}, {"cat", "dog", "outdoor"});
///     data::SegmentationImageDataset seg({{"img/1.png", "masks/1.png"}}, {"background", "road"});
///     data::CocoDetectionDataset coco("instances_val2017.json", "val2017");
///     coco.get(0)->boxes;   // {x, y, width, height} and the COCO category id
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "burn/data/dataset.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

/// burn's BoundingBox: COCO's (x, y, width, height) in pixels and the box's category id.
struct BoundingBox {
    std::array<float, 4> coords{};
    int64_t label = 0;
};

struct MultiLabelImageItem {
    Image image;
    std::vector<int32_t> labels;  // indices into the class list, in the order given
    std::string path;
};

/// burn's new_multilabel_classification_with_items: (image, class names) pairs and the class list.
class MultiLabelImageDataset final : public Dataset<MultiLabelImageItem> {
  public:
    /// Throws burn::IndexError naming the image and the class when a name is not in classes.
    MultiLabelImageDataset(
        const std::vector<std::pair<std::filesystem::path, std::vector<std::string>>>& items,
        std::vector<std::string> classes, ImageMode mode = ImageMode::rgb);
    std::optional<MultiLabelImageItem> get(std::size_t index) const override;
    std::size_t len() const override { return items_.size(); }
    const std::vector<std::string>& classes() const { return classes_; }

  private:
    std::vector<std::string> classes_;
    std::vector<std::pair<std::filesystem::path, std::vector<int32_t>>> items_;
    ImageMode mode_;
};

/// A segmentation mask: height x width class indices, row by row.
struct SegmentationMask {
    int height = 0;
    int width = 0;
    std::vector<int32_t> mask;
};

struct SegmentationItem {
    Image image;
    SegmentationMask mask;
    std::string path;
};

/// burn's new_segmentation_with_items: (image, mask image) pairs and the class list. The mask image's
/// first channel holds each pixel's class index (an 8-bit PNG, as datasets such as Pascal VOC and
/// Cityscapes store them).
class SegmentationImageDataset final : public Dataset<SegmentationItem> {
  public:
    SegmentationImageDataset(std::vector<std::pair<std::filesystem::path, std::filesystem::path>> items,
                             std::vector<std::string> classes, ImageMode mode = ImageMode::rgb);
    /// Decodes both files. Throws burn::ShapeError when the mask's size is not the image's and
    /// burn::IndexError when a mask value is not a class index.
    std::optional<SegmentationItem> get(std::size_t index) const override;
    std::size_t len() const override { return items_.size(); }
    const std::vector<std::string>& classes() const { return classes_; }

  private:
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> items_;
    std::vector<std::string> classes_;
    ImageMode mode_;
};

struct DetectionItem {
    Image image;
    std::vector<BoundingBox> boxes;  // in the annotation file's order; empty for an image without any
    std::string path;
};

/// burn's new_coco_detection: a COCO annotations file (instances_*.json: "images", "annotations" with
/// "image_id", "category_id" and "bbox", "categories") and the folder of its images. Items follow the
/// file's "images" list.
class CocoDetectionDataset final : public Dataset<DetectionItem> {
  public:
    /// Throws burn::IoError naming the file when it is not COCO JSON, has no image or category, or an
    /// image it lists is missing from images_dir.
    CocoDetectionDataset(const std::filesystem::path& annotations_json,
                         const std::filesystem::path& images_dir, ImageMode mode = ImageMode::rgb);
    std::optional<DetectionItem> get(std::size_t index) const override;
    std::size_t len() const override { return items_.size(); }
    /// Category id -> name.
    const std::map<int64_t, std::string>& classes() const { return classes_; }

  private:
    std::map<int64_t, std::string> classes_;
    std::vector<std::pair<std::filesystem::path, std::vector<BoundingBox>>> items_;
    ImageMode mode_;
};

}  // namespace burn::data
