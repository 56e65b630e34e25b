// Multi-label, segmentation and COCO detection image datasets over PNG files and a COCO JSON file
// written here; the expected labels, mask values and boxes are the ones written.
#include "burn/data/image_annotated.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace burn;
using namespace burn::data;
namespace fs = std::filesystem;

namespace image_annotated_test {

class TempDir {
  public:
    TempDir() {
        path_ = fs::temp_directory_path() /
                ("burn_image_annotated_test_" + std::to_string(std::random_device()()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

// A w x h image whose pixel (y, x, c) is seed + 10 y + x + 50 c.
fs::path png(const fs::path& path, int h, int w, int c, int seed) {
    Image img(h, w, c);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k) img.at(y, x, k) = static_cast<uint8_t>(seed + 10 * y + x + 50 * k);
    write_png(path, img);
    return path;
}

}  // namespace image_annotated_test

TEST(DataImageAnnotated, MultiLabelAndSegmentation) {
    using namespace image_annotated_test;
    if (!png_available()) GTEST_SKIP() << "this build has no libpng (BURN_PNG)";
    TempDir dir;
    const fs::path a = png(dir.path() / "a.png", 2, 3, 3, 0), b = png(dir.path() / "b.png", 2, 3, 3, 7);
    MultiLabelImageDataset tags({{a, {"outdoor", "cat"}}, {b, {}}}, {"cat", "dog", "outdoor"});
    ASSERT_EQ(tags.len(), 2u);
    const MultiLabelImageItem first = *tags.get(0);
    EXPECT_EQ(first.labels, (std::vector<int32_t>{2, 0}));
    EXPECT_EQ(first.image.at(1, 2, 1), 10 + 2 + 50);
    EXPECT_TRUE(tags.get(1)->labels.empty());
    EXPECT_FALSE(tags.get(2).has_value());
    EXPECT_THROW(MultiLabelImageDataset({{a, {"bird"}}}, {"cat"}), IndexError);

    // Masks: class indices 0..2 in the first channel of an 8-bit PNG.
    Image m(2, 3, 1, {0, 1, 2, 2, 1, 0});
    write_png(dir.path() / "a_mask.png", m);
    Image bad(2, 3, 1, {0, 1, 2, 3, 1, 0});
    write_png(dir.path() / "b_mask.png", bad);
    png(dir.path() / "small_mask.png", 1, 3, 1, 0);
    SegmentationImageDataset seg(
        {{a, dir.path() / "a_mask.png"}, {b, dir.path() / "b_mask.png"}, {b, dir.path() / "small_mask.png"}},
        {"background", "road", "car"});
    const SegmentationItem s = *seg.get(0);
    EXPECT_EQ(std::vector<int>({s.mask.height, s.mask.width}), std::vector<int>({2, 3}));
    EXPECT_EQ(s.mask.mask, (std::vector<int32_t>{0, 1, 2, 2, 1, 0}));
    EXPECT_EQ(s.image.at(0, 1, 0), 1);
    try {
        (void)seg.get(1);
        FAIL() << "mask value 3 with three classes";
    } catch (const IndexError& e) {
        EXPECT_NE(std::string(e.what()).find("has value 3 at (1, 0)"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)seg.get(2), ShapeError);
}

TEST(DataImageAnnotated, CocoBoxesFollowTheImagesList) {
    using namespace image_annotated_test;
    if (!png_available()) GTEST_SKIP() << "this build has no libpng (BURN_PNG)";
    TempDir dir;
    fs::create_directories(dir.path() / "images");
    png(dir.path() / "images" / "1.png", 4, 5, 3, 0);
    png(dir.path() / "images" / "2.png", 4, 5, 3, 9);
    png(dir.path() / "images" / "3.png", 4, 5, 3, 20);
    std::ofstream(dir.path() / "ann.json") << R"({
      "images": [{"id": 12, "file_name": "2.png"}, {"id": 11, "file_name": "1.png"}, {"id": 13, "file_name": "3.png"}],
      "annotations": [
        {"id": 1, "image_id": 11, "category_id": 18, "bbox": [1.5, 0, 2, 3.25]},
        {"id": 2, "image_id": 12, "category_id": 1, "bbox": [0, 1, 4, 2]},
        {"id": 3, "image_id": 11, "category_id": 1, "bbox": [3, 2, 1, 1]}],
      "categories": [{"id": 1, "name": "person"}, {"id": 18, "name": "dog"}]})";
    CocoDetectionDataset coco(dir.path() / "ann.json", dir.path() / "images");
    EXPECT_EQ(coco.classes(), (std::map<int64_t, std::string>{{1, "person"}, {18, "dog"}}));
    ASSERT_EQ(coco.len(), 3u);
    auto boxes = [&](std::size_t i) {
        std::vector<std::pair<std::array<float, 4>, int64_t>> out;
        const DetectionItem item = *coco.get(i);  // not a range-for over a temporary's member
        for (const BoundingBox& b : item.boxes) out.emplace_back(b.coords, b.label);
        return out;
    };
    using Boxes = std::vector<std::pair<std::array<float, 4>, int64_t>>;
    EXPECT_EQ(boxes(0), (Boxes{{{0, 1, 4, 2}, 1}}));
    EXPECT_EQ(boxes(1), (Boxes{{{1.5f, 0, 2, 3.25f}, 18}, {{3, 2, 1, 1}, 1}}));
    EXPECT_EQ(boxes(2), Boxes{});
    EXPECT_EQ(coco.get(0)->image.at(0, 0, 0), 9);
    std::ofstream(dir.path() / "missing.json")
        << R"({"images": [{"id": 1, "file_name": "nope.png"}], "annotations": [], "categories": [{"id": 1, "name": "a"}]})";
    EXPECT_THROW(CocoDetectionDataset(dir.path() / "missing.json", dir.path() / "images"), IoError);
    std::ofstream(dir.path() / "bad.json") << R"({"images": []})";
    try {
        CocoDetectionDataset(dir.path() / "bad.json", dir.path() / "images");
        FAIL() << "no categories";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("has no \"categories\" list"), std::string::npos) << e.what();
    }
}
