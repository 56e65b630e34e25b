// Multi-label, segmentation and COCO detection image datasets.
#include "burn/data/image_annotated.hpp"

#include <algorithm>
#include <system_error>

#include "burn/config/value.hpp"
#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace fs = std::filesystem;

MultiLabelImageDataset::MultiLabelImageDataset(
    const std::vector<std::pair<fs::path, std::vector<std::string>>>& items, std::vector<std::string> classes,
    ImageMode mode)
    : classes_(std::move(classes)), mode_(mode) {
    for (const auto& [path, names] : items) {
        std::vector<int32_t> labels;
        for (const std::string& name : names) {
            const auto it = std::find(classes_.begin(), classes_.end(), name);
            BURN_CHECK_KIND(it != classes_.end(), index, "[MultiLabelImageDataset] the image '",
                            path.string(), "' has class '", name, "', which is not among the ",
                            classes_.size(), " classes given; add it to the class list");
            labels.push_back(static_cast<int32_t>(it - classes_.begin()));
        }
        items_.emplace_back(path, std::move(labels));
    }
}

std::optional<MultiLabelImageItem> MultiLabelImageDataset::get(std::size_t index) const {
    if (index >= items_.size()) return std::nullopt;
    const auto& [path, labels] = items_[index];
    return MultiLabelImageItem{read_image(path, mode_), labels, path.string()};
}

SegmentationImageDataset::SegmentationImageDataset(std::vector<std::pair<fs::path, fs::path>> items,
                                                   std::vector<std::string> classes, ImageMode mode)
    : items_(std::move(items)), classes_(std::move(classes)), mode_(mode) {
    BURN_CHECK(!classes_.empty(),
               "[SegmentationImageDataset] the class list is empty; give one name per mask value");
}

std::optional<SegmentationItem> SegmentationImageDataset::get(std::size_t index) const {
    if (index >= items_.size()) return std::nullopt;
    const auto& [path, mask_path] = items_[index];
    Image image = read_image(path, mode_);
    const Image m = read_image(mask_path, ImageMode::keep);
    BURN_CHECK_KIND(m.height == image.height && m.width == image.width, shape,
                    "[SegmentationImageDataset] the mask '", mask_path.string(), "' is ", m.height, " x ",
                    m.width, " but its image '", path.string(), "' is ", image.height, " x ", image.width,
                    "; give a mask of the image's size");
    SegmentationMask mask{m.height, m.width, {}};
    mask.mask.reserve(static_cast<std::size_t>(m.height) * static_cast<std::size_t>(m.width));
    for (int y = 0; y < m.height; ++y)
        for (int x = 0; x < m.width; ++x) {
            const int v = m.at(y, x, 0);
            BURN_CHECK_KIND(v < static_cast<int>(classes_.size()), index,
                            "[SegmentationImageDataset] the mask '", mask_path.string(), "' has value ", v,
                            " at (", y, ", ", x, ") but there are ", classes_.size(),
                            " classes; each mask value is a class index");
            mask.mask.push_back(v);
        }
    return SegmentationItem{std::move(image), std::move(mask), path.string()};
}

CocoDetectionDataset::CocoDetectionDataset(const fs::path& annotations_json, const fs::path& images_dir,
                                           ImageMode mode)
    : mode_(mode) {
    const std::string name = annotations_json.string();
    const config::Value json =
        config::parse(platform::read_file(annotations_json, "CocoDetectionDataset"), name);
    auto list = [&](const char* key) -> const config::Value::Array& {
        const config::Value* v = json.is_object() ? json.find(key) : nullptr;
        BURN_CHECK_KIND(v && v->is_array(), io, "[CocoDetectionDataset] '", name, "' has no \"", key,
                        "\" list; give a COCO annotations file (instances_*.json)");
        return v->as_array();
    };
    for (const config::Value& c : list("categories"))
        classes_[c.at("id").as_int64()] = c.at("name").as_string();
    BURN_CHECK_KIND(!classes_.empty(), io, "[CocoDetectionDataset] '", name, "' lists no category");
    std::map<int64_t, std::vector<BoundingBox>> boxes;
    for (const config::Value& a : list("annotations")) {
        const config::Value::Array& b = a.at("bbox").as_array();
        BURN_CHECK_KIND(b.size() >= 4, io, "[CocoDetectionDataset] '", name, "' has an annotation of image ",
                        a.at("image_id").as_int64(), " with ", b.size(),
                        " bbox values; COCO boxes are [x, y, w, h]");
        BoundingBox box;
        for (std::size_t i = 0; i < 4; ++i) box.coords[i] = static_cast<float>(b[i].as_double());
        box.label = a.at("category_id").as_int64();
        boxes[a.at("image_id").as_int64()].push_back(box);
    }
    std::error_code ec;
    for (const config::Value& img : list("images")) {
        fs::path path = images_dir / img.at("file_name").as_string();
        BURN_CHECK_KIND(fs::exists(path, ec), io, "[CocoDetectionDataset] the image '", path.string(),
                        "' listed in '", name,
                        "' does not exist; give the folder of the annotation file's images");
        const auto it = boxes.find(img.at("id").as_int64());
        items_.emplace_back(std::move(path), it == boxes.end() ? std::vector<BoundingBox>{} : it->second);
    }
    BURN_CHECK_KIND(!items_.empty(), io, "[CocoDetectionDataset] '", name, "' lists no image");
}

std::optional<DetectionItem> CocoDetectionDataset::get(std::size_t index) const {
    if (index >= items_.size()) return std::nullopt;
    const auto& [path, boxes] = items_[index];
    return DetectionItem{read_image(path, mode_), boxes, path.string()};
}

}  // namespace burn::data
