// IDX reading (checked against files written byte by byte by scripts/gen_data_fixtures.py) and
// Fashion-MNIST (the real files when Debian's dataset-fashion-mnist is installed).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>

#include "burn/data/data.hpp"
#include "fixture_root.hpp"

using namespace burn;
using namespace burn::data;

namespace idx_test {

std::filesystem::path dir() {
    return burn::testing::fixture_root() / "data" / "idx";
}

std::string file_bytes(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string error_of(std::string_view bytes) {
    try {
        parse_idx(bytes, "x.idx");
    } catch (const IoError& e) {
        return e.what();
    }
    return "";
}

}  // namespace idx_test

TEST(DataIdx, ReadsEveryElementType) {
    using idx_test::dir;
    auto f32 = read_idx(dir() / "f32-idx2");
    EXPECT_EQ(f32.type, IdxType::f32);
    EXPECT_EQ(f32.shape, (std::vector<std::size_t>{2, 3}));
    auto v = f32.as<float>();
    ASSERT_EQ(v.size(), 6u);
    EXPECT_EQ(v[0], 0.5f);
    EXPECT_EQ(v[1], -1.25f);
    EXPECT_EQ(v[3], 1e-3f);
    EXPECT_EQ(v[4], 65504.0f);
    EXPECT_TRUE(std::signbit(v[5]));

    auto i16 = read_idx(dir() / "i16-idx1");
    EXPECT_EQ(std::vector<int16_t>(i16.as<int16_t>().begin(), i16.as<int16_t>().end()),
              (std::vector<int16_t>{1, -2, 300, -32768}));
    auto i32 = read_idx(dir() / "i32-idx3");
    EXPECT_EQ(i32.shape, (std::vector<std::size_t>{2, 1, 2}));
    EXPECT_EQ(i32.as<int32_t>()[0], 70000);
    EXPECT_EQ(i32.as<int32_t>()[1], -5);
    EXPECT_EQ(i32.value(3), 2147483647.0);
    auto f64 = read_idx(dir() / "f64-idx1");
    EXPECT_EQ(f64.as<double>()[0], 0.1);
    EXPECT_EQ(f64.value(1), -2.5e300);
    auto i8 = read_idx(dir() / "i8-idx0");
    EXPECT_TRUE(i8.shape.empty());
    EXPECT_EQ(i8.count(), 1u);
    EXPECT_EQ(i8.value(0), -7.0);
    EXPECT_THROW(i8.as<uint8_t>(), DTypeError);
    EXPECT_THROW(i8.value(1), IndexError);
}

TEST(DataIdx, WriteGivesBackTheFileBytes) {
    for (const char* name :
         {"f32-idx2", "i16-idx1", "i32-idx3", "f64-idx1", "i8-idx0", "labels-idx1-ubyte"}) {
        const std::string file = idx_test::file_bytes(idx_test::dir() / name);
        EXPECT_EQ(write_idx(parse_idx(file, name)), file) << name;
    }
}

TEST(DataIdx, DecompressesGzip) {
    if (!gzip_available()) GTEST_SKIP() << "built without zlib (BURN_ZLIB)";
    auto images = read_idx(idx_test::dir() / "images-idx3-ubyte.gz");
    EXPECT_EQ(images.shape, (std::vector<std::size_t>{3, 28, 28}));
    auto px = images.as<uint8_t>();
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 784; j += 97) EXPECT_EQ(px[i * 784 + j], (i * 29 + j * 3) % 256);
    EXPECT_THROW(gunzip("\x1f\x8b\x08\x00garbage", "bad.gz"), IoError);
}

TEST(DataIdx, DamagedFilesNameTheProblem) {
    using idx_test::error_of;
    EXPECT_NE(error_of("ab").find("fewer than the 4"), std::string::npos);
    EXPECT_NE(error_of(std::string("\x1f\x8b\x08\x00", 4)).find("not an IDX file"), std::string::npos);
    EXPECT_NE(error_of(std::string("\0\0\x07\x01\0\0\0\x01x", 9)).find("type code"), std::string::npos);
    const std::string header("\0\0\x08\x01\0\0\0\x03", 8);
    EXPECT_NE(error_of(header + "ab").find("truncated"), std::string::npos);
    EXPECT_NE(error_of(header + "abcd").find("after the elements"), std::string::npos);
    EXPECT_NE(error_of(std::string("\0\0\x08\x02\0\0", 6)).find("names 2 dimensions"), std::string::npos);
    EXPECT_EQ(error_of(header + "abc"), "");
}

TEST(DataFashionMnist, IdxPairAsMnistItems) {
    if (!gzip_available()) GTEST_SKIP() << "built without zlib (BURN_ZLIB)";
    MnistIdxDataset ds(idx_test::dir() / "images-idx3-ubyte.gz", idx_test::dir() / "labels-idx1-ubyte");
    ASSERT_EQ(ds.len(), 3u);
    EXPECT_EQ(ds.num_classes(), 8);
    auto item = ds.get(2);
    ASSERT_TRUE(item);
    EXPECT_EQ(item->label, 4);
    EXPECT_FLOAT_EQ(item->image[10], static_cast<float>((2 * 29 + 10 * 3) % 256) / 255.0f);
    EXPECT_FALSE(ds.get(3));
    // The arguments swapped: the labels file is not an images file.
    try {
        MnistIdxDataset(idx_test::dir() / "labels-idx1-ubyte", idx_test::dir() / "images-idx3-ubyte.gz");
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("u8 [n, 28, 28]"), std::string::npos) << e.what();
    }
}

TEST(DataFashionMnist, MissingDirectorySaysWhatToInstall) {
    try {
        FashionMnist::train("/nonexistent/fashion");
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("apt-get install dataset-fashion-mnist"), std::string::npos);
    }
    EXPECT_FALSE(FashionMnist::available("/nonexistent/fashion"));
}

// The real dataset (Debian's dataset-fashion-mnist): 60,000 + 10,000 images, 6,000 + 1,000 per class.
TEST(DataFashionMnist, RealFilesWhenInstalled) {
    if (!FashionMnist::available() || !gzip_available())
        GTEST_SKIP() << "dataset-fashion-mnist not installed";
    auto train = FashionMnist::train();
    auto test = FashionMnist::test();
    ASSERT_EQ(train.len(), 60000u);
    ASSERT_EQ(test.len(), 10000u);
    std::map<int32_t, int> per_class;
    for (std::size_t i = 0; i < test.len(); ++i) ++per_class[test.get(i)->label];
    ASSERT_EQ(per_class.size(), 10u);
    for (auto [label, n] : per_class) EXPECT_EQ(n, 1000) << label;
    EXPECT_EQ(train.get(0)->label, 9);  // the first training image is an ankle boot
    EXPECT_STREQ(FashionMnist::class_names()[9], "Ankle boot");
    float lo = 1, hi = 0;
    const auto first = train.get(0);
    for (float p : first->image) lo = std::min(lo, p), hi = std::max(hi, p);
    EXPECT_EQ(lo, 0.0f);
    EXPECT_EQ(hi, 1.0f);
}

TEST(DataIdx, WithoutZlibTheErrorSaysWhatToDo) {
    if (gzip_available()) GTEST_SKIP() << "this build has zlib";
    try {
        read_idx(idx_test::dir() / "images-idx3-ubyte.gz");
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("gunzip -k"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("zlib1g-dev"), std::string::npos) << e.what();
    }
}
