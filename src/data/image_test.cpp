// PNG/JPEG decoding and ImageFolderDataset, against PIL's decode of the same files
// (tests/fixtures/data/images.json, written by scripts/gen_data_fixtures.py).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "burn/data/data.hpp"
#include "fixture_root.hpp"

using namespace burn;
using namespace burn::data;

namespace image_test {

std::filesystem::path dir() {
    return burn::testing::fixture_root() / "data";
}

// PIL's decode of a fixture (its path relative to tests/fixtures/data).
Image reference(const std::string& rel) {
    static const nlohmann::json all = nlohmann::json::parse(std::ifstream(dir() / "images.json"));
    const auto& e = all.at(rel);
    return Image(e.at("height"), e.at("width"), e.at("channels"), e.at("pixels").get<std::vector<uint8_t>>());
}

bool codecs() {
    return png_available() && jpeg_available();
}

int max_difference(const Image& a, const Image& b) {
    int worst = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i)
        worst = std::max(worst, std::abs(a.pixels[i] - b.pixels[i]));
    return worst;
}

}  // namespace image_test

TEST(DataImage, PngMatchesPil) {
    if (!png_available()) GTEST_SKIP() << "built without libpng (BURN_PNG)";
    using image_test::reference;
    for (const char* rel : {"folder/cat/a.png", "folder/dog/c.png", "folder/dog/D.PNG", "png/rgba.png",
                            "png/grey_alpha.png", "png/palette.png", "png/grey16.png", "png/rgba16.png"}) {
        Image got = read_image(image_test::dir() / rel);
        EXPECT_EQ(got, reference(rel)) << rel;  // PNG is lossless: exact
    }
    EXPECT_EQ(read_image(image_test::dir() / "png/rgba.png").channels, 4);
    EXPECT_EQ(read_image(image_test::dir() / "png/grey_alpha.png").channels, 2);
}

TEST(DataImage, JpegMatchesPilWithinRounding) {
    if (!jpeg_available()) GTEST_SKIP() << "built without libjpeg (BURN_JPEG)";
    for (const char* rel : {"folder/cat/b.jpg", "folder/ant/e.jpeg"}) {
        Image got = read_image(image_test::dir() / rel);
        Image want = image_test::reference(rel);
        ASSERT_EQ(got.height, want.height) << rel;
        ASSERT_EQ(got.width, want.width) << rel;
        ASSERT_EQ(got.channels, want.channels) << rel;
        // The same IDCT gives identical bytes; another libjpeg build may differ by a rounding step.
        EXPECT_LE(image_test::max_difference(got, want), 2) << rel;
    }
}

TEST(DataImage, ModesConvertChannels) {
    if (!image_test::codecs()) GTEST_SKIP() << "built without libpng/libjpeg";
    Image rgb = read_image(image_test::dir() / "folder/cat/a.png");
    Image grey = read_image(image_test::dir() / "folder/cat/a.png", ImageMode::grey);
    ASSERT_EQ(grey.channels, 1);
    for (int y = 0; y < rgb.height; ++y)
        for (int x = 0; x < rgb.width; ++x) {  // ITU-R 601 luma, as PIL computes it
            const double l = rgb.at(y, x, 0) * 0.299 + rgb.at(y, x, 1) * 0.587 + rgb.at(y, x, 2) * 0.114;
            EXPECT_NEAR(grey.at(y, x, 0), l, 0.51);
        }
    Image from_grey = read_image(image_test::dir() / "folder/dog/c.png", ImageMode::rgb);
    ASSERT_EQ(from_grey.channels, 3);
    EXPECT_EQ(from_grey.at(1, 2, 2), image_test::reference("folder/dog/c.png").at(1, 2, 0));
    EXPECT_EQ(read_image(image_test::dir() / "png/rgba.png", ImageMode::rgb).channels, 3);
}

TEST(DataImage, DamagedOrForeignFilesAreIoErrors) {
    if (!image_test::codecs()) GTEST_SKIP() << "built without libpng/libjpeg";
    EXPECT_THROW(read_image(image_test::dir() / "png/truncated.png"), IoError);
    EXPECT_THROW(read_image(image_test::dir() / "folder/dog/notes.txt"), IoError);
    EXPECT_THROW(decode_jpeg(std::string("\xFF\xD8\xFF\xE0garbage", 11), "bad.jpg"), IoError);
    EXPECT_THROW(read_image("/nonexistent.png"), IoError);
}

TEST(DataImageFolder, ClassesSortedLabelsAsIndices) {
    if (!image_test::codecs()) GTEST_SKIP() << "built without libpng/libjpeg";
    ImageFolderDataset folder(image_test::dir() / "folder");
    EXPECT_EQ(folder.classes(), (std::vector<std::string>{"ant", "cat", "dog"}));
    ASSERT_EQ(folder.len(), 5u);  // notes.txt is skipped; D.PNG is taken (extensions ignore case)
    std::vector<std::pair<std::string, int32_t>> files;
    for (const auto& [path, label] : folder.files())
        files.emplace_back(path.parent_path().filename().string() + "/" + path.filename().string(), label);
    EXPECT_EQ(
        files,
        (std::vector<std::pair<std::string, int32_t>>{
            {"ant/e.jpeg", 0}, {"cat/a.png", 1}, {"cat/b.jpg", 1}, {"dog/D.PNG", 2}, {"dog/c.png", 2}}));
    auto item = folder.get(1);
    ASSERT_TRUE(item);
    EXPECT_EQ(item->label, 1);
    EXPECT_EQ(item->image, image_test::reference("folder/cat/a.png"));
    EXPECT_EQ(folder.get(0)->image.channels, 3);  // a grey JPEG, as RGB by default
    EXPECT_FALSE(folder.get(5));
    ImageFolderDataset grey(image_test::dir() / "folder", ImageFolderOptions{ImageMode::grey, {".png"}});
    EXPECT_EQ(grey.len(), 3u);
    EXPECT_EQ(grey.get(0)->image.channels, 1);
}

TEST(DataImageFolder, BadRootsSayWhatTheLayoutIs) {
    EXPECT_THROW(ImageFolderDataset("/nonexistent/root"), IoError);
    try {
        ImageFolderDataset(image_test::dir() / "idx");  // no class folders
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("root/<class>/<image>"), std::string::npos) << e.what();
    }
}

TEST(DataImage, WithoutCodecsTheErrorSaysWhatToInstall) {
    if (png_available() && jpeg_available()) GTEST_SKIP() << "this build has both codecs";
    const char* rel = png_available() ? "folder/cat/b.jpg" : "folder/cat/a.png";
    const char* package = png_available() ? "libjpeg62-turbo-dev" : "libpng-dev";
    try {
        read_image(image_test::dir() / rel);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(package), std::string::npos) << e.what();
    }
}
