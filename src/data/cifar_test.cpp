// CifarDataset against tiny CIFAR-10 / CIFAR-100 binary files written here: records of label byte(s) then the
// red, green and blue 32 x 32 planes, with pixel bytes from a formula (plane_byte) so every position is
// checked after the CHW -> HWC reordering.
#include "burn/data/cifar.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "train/training_test_util.hpp"

using namespace burn;
using namespace burn::data;
namespace fs = std::filesystem;

namespace cifar_test {

/// The byte of record `r` at channel c, row y, column x.
uint8_t plane_byte(int r, int c, int y, int x) {
    return static_cast<uint8_t>((r * 11 + c * 97 + y * 7 + x * 3) % 256);
}

/// A record: the label bytes, then the planes.
std::string record(int r, std::vector<uint8_t> labels) {
    std::string out(labels.begin(), labels.end());
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) out += static_cast<char>(plane_byte(r, c, y, x));
    return out;
}

void write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

/// Every pixel of item's image is plane_byte(r, ...) at (y, x, c).
void expect_image_of_record(const CifarItem& item, int r) {
    ASSERT_EQ(item.image.height, 32);
    ASSERT_EQ(item.image.width, 32);
    ASSERT_EQ(item.image.channels, 3);
    int wrong = 0;
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x)
            for (int c = 0; c < 3; ++c) wrong += item.image.at(y, x, c) != plane_byte(r, c, y, x);
    EXPECT_EQ(wrong, 0) << "record " << r;
    // HWC: the first pixel's three channels, then the second pixel's
    EXPECT_EQ(item.image.pixels[0], plane_byte(r, 0, 0, 0));
    EXPECT_EQ(item.image.pixels[1], plane_byte(r, 1, 0, 0));
    EXPECT_EQ(item.image.pixels[3], plane_byte(r, 0, 0, 1));
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(DataCifar, Cifar10BatchesBecomeHwcImagesInOrder) {
    const fs::path dir = train_test::fresh_dir("cifar10");
    // batch k holds records 2k and 2k + 1 (labels (r * 3) % 10), the test batch record 10
    for (int k = 0; k < 5; ++k)
        write(dir / ("data_batch_" + std::to_string(k + 1) + ".bin"),
              record(2 * k, {static_cast<uint8_t>((2 * k * 3) % 10)}) +
                  record(2 * k + 1, {static_cast<uint8_t>(((2 * k + 1) * 3) % 10)}));
    write(dir / "test_batch.bin", record(10, {9}));
    const auto train = CifarDataset::cifar10_train(dir);
    EXPECT_EQ(CifarDataset::record_size(CifarKind::cifar10), 3073u);
    ASSERT_EQ(train.len(), 10u);
    EXPECT_EQ(train.num_classes(), 10);
    for (int r = 0; r < 10; ++r) {
        const auto item = *train.get(static_cast<std::size_t>(r));
        EXPECT_EQ(item.label, (r * 3) % 10);
        EXPECT_EQ(item.coarse_label, -1);
        expect_image_of_record(item, r);
    }
    EXPECT_FALSE(train.get(10).has_value());
    const auto test = CifarDataset::cifar10_test(dir);
    ASSERT_EQ(test.len(), 1u);
    EXPECT_EQ(test.get(0)->label, 9);
    expect_image_of_record(*test.get(0), 10);
    EXPECT_STREQ(CifarDataset::cifar10_class_names()[test.get(0)->label], "truck");
    EXPECT_STREQ(CifarDataset::cifar10_class_names()[0], "airplane");
}

TEST(DataCifar, Cifar100HasCoarseAndFineLabels) {
    const fs::path dir = train_test::fresh_dir("cifar100");
    write(dir / "train.bin", record(0, {19, 99}) + record(1, {0, 0}) + record(2, {7, 42}));
    const auto train = CifarDataset::cifar100_train(dir);
    EXPECT_EQ(CifarDataset::record_size(CifarKind::cifar100), 3074u);
    ASSERT_EQ(train.len(), 3u);
    EXPECT_EQ(train.num_classes(), 100);
    const int coarse[] = {19, 0, 7}, fine[] = {99, 0, 42};
    for (int r = 0; r < 3; ++r) {
        const auto item = *train.get(static_cast<std::size_t>(r));
        EXPECT_EQ(item.coarse_label, coarse[r]);
        EXPECT_EQ(item.label, fine[r]);
        expect_image_of_record(item, r);
    }
    // from bytes in memory, and from an explicit file list
    const CifarDataset mem(record(5, {3, 4}), CifarKind::cifar100);
    EXPECT_EQ(mem.get(0)->label, 4);
    expect_image_of_record(*mem.get(0), 5);
    EXPECT_EQ(CifarDataset({dir / "train.bin", dir / "train.bin"}, CifarKind::cifar100).len(), 6u);
}

TEST(DataCifar, DamagedFilesNameTheFileAndByteOffset) {
    const fs::path dir = train_test::fresh_dir("cifar_errors");
    // two whole records and 100 bytes of a third
    const fs::path cut = dir / "cut.bin";
    write(cut, record(0, {1}) + record(1, {2}) + record(2, {3}).substr(0, 100));
    std::string e = error_of([&] { CifarDataset({cut}, CifarKind::cifar10); });
    EXPECT_NE(e.find("'" + cut.string() +
                     "' is truncated: record 2 starts at byte offset 6146 but the file ends "
                     "at byte 6246, 100 of the 3073 bytes"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("download and unpack the file again"), std::string::npos) << e;
    // a CIFAR-100 file read as CIFAR-10: its 3,074-byte records do not divide
    write(dir / "train.bin", record(0, {1, 2}) + record(1, {3, 4}));
    e = error_of([&] { CifarDataset({dir / "train.bin"}, CifarKind::cifar10); });
    EXPECT_NE(e.find("or read a CIFAR-100 file with CifarKind::cifar100"), std::string::npos) << e;
    // a label out of range: the label byte's offset
    const fs::path bad = dir / "bad.bin";
    write(bad, record(0, {1}) + record(1, {12}));
    e = error_of([&] { CifarDataset({bad}, CifarKind::cifar10); });
    EXPECT_NE(e.find("'" + bad.string() + "' byte offset 3073 (record 1): label 12 is not a CIFAR-10 class"),
              std::string::npos)
        << e;
    write(bad, record(0, {1, 2}) + record(1, {3, 140}));
    e = error_of([&] { CifarDataset({bad}, CifarKind::cifar100); });
    EXPECT_NE(e.find("byte offset 3075 (record 1): fine label 140 is not a CIFAR-100 class"),
              std::string::npos)
        << e;
    write(bad, "");
    e = error_of([&] { CifarDataset({bad}, CifarKind::cifar10); });
    EXPECT_NE(e.find("'" + bad.string() + "' is empty"), std::string::npos) << e;
    // a missing batch names the path and the archive
    e = error_of([&] { CifarDataset::cifar10_test(dir); });
    EXPECT_NE(e.find("'" + (dir / "test_batch.bin").string() + "' does not exist"), std::string::npos) << e;
    EXPECT_NE(e.find("cifar-10-binary.tar.gz"), std::string::npos) << e;
}

}  // namespace cifar_test
