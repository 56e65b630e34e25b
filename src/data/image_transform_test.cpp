// Image transforms against values worked out by hand (torch's bilinear interpolate with
// align_corners=False gives the same numbers for these inputs).
#include <gtest/gtest.h>

#include "burn/data/data.hpp"

using namespace burn;
using namespace burn::data;

namespace image_transform_test {

Image ramp(int h, int w, int c) {
    Image img(h, w, c);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k) img.at(y, x, k) = static_cast<uint8_t>(y * 16 + x + k * 100);
    return img;
}

}  // namespace image_transform_test

TEST(DataImageTransform, BilinearUpscaleMatchesTorch) {
    // F.interpolate([[0, 40], [80, 120]], size=4, mode="bilinear", align_corners=False)
    Image img(2, 2, 1, {0, 40, 80, 120});
    Image out = resize(img, 4, 4);
    EXPECT_EQ(out.pixels,
              (std::vector<uint8_t>{0, 10, 30, 40, 20, 30, 50, 60, 60, 70, 90, 100, 80, 90, 110, 120}));
}

TEST(DataImageTransform, BilinearDownscaleAndIdentity) {
    using image_transform_test::ramp;
    Image img = ramp(4, 4, 2);
    EXPECT_EQ(resize(img, 4, 4), img);
    // Halving samples at source coordinates 0.5 and 2.5: the mean of each 2 x 2 block here.
    Image half = resize(img, 2, 2);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x)
            for (int k = 0; k < 2; ++k) {
                const double mean = (img.at(2 * y, 2 * x, k) + img.at(2 * y, 2 * x + 1, k) +
                                     img.at(2 * y + 1, 2 * x, k) + img.at(2 * y + 1, 2 * x + 1, k)) /
                                    4.0;
                EXPECT_EQ(half.at(y, x, k), std::lround(mean));
            }
    EXPECT_THROW(resize(img, 0, 3), ShapeError);
}

TEST(DataImageTransform, CropsAndFlips) {
    using image_transform_test::ramp;
    Image img = ramp(5, 7, 3);
    Image c = crop(img, 1, 2, 3, 4);
    EXPECT_EQ(c.height, 3);
    EXPECT_EQ(c.width, 4);
    EXPECT_EQ(c.at(0, 0, 1), img.at(1, 2, 1));
    EXPECT_EQ(c.at(2, 3, 2), img.at(3, 5, 2));
    // (7 - 4) / 2 = 1.5 rounds to 2 and (5 - 2) / 2 = 1.5 to 2, as torchvision's CenterCrop rounds.
    EXPECT_EQ(center_crop(img, 2, 4), crop(img, 2, 2, 2, 4));
    EXPECT_EQ(center_crop(ramp(8, 8, 1), 3, 3), crop(ramp(8, 8, 1), 2, 2, 3, 3));  // 2.5 rounds to 2
    EXPECT_THROW(center_crop(img, 6, 2), ShapeError);
    EXPECT_THROW(crop(img, 3, 0, 3, 1), ShapeError);

    Image f = hflip(img);
    for (int x = 0; x < 7; ++x) EXPECT_EQ(f.at(4, x, 0), img.at(4, 6 - x, 0));
    EXPECT_EQ(hflip(f), img);

    Rng a(3), b(3);
    Image r1 = random_crop(img, 2, 2, a), r2 = random_crop(img, 2, 2, b);
    EXPECT_EQ(r1, r2);  // the same seed, the same window
    bool found = false;
    for (int t = 0; t <= 3 && !found; ++t)
        for (int l = 0; l <= 5 && !found; ++l) found = crop(img, t, l, 2, 2) == r1;
    EXPECT_TRUE(found);
    Rng rng(1);
    int flipped = 0;
    for (int i = 0; i < 200; ++i) flipped += random_hflip(img, rng) == f;
    EXPECT_GT(flipped, 60);
    EXPECT_LT(flipped, 140);
    Rng never(1);
    EXPECT_EQ(random_hflip(img, never, 0.0), img);
}

TEST(DataImageTransform, NormalizeChannelsFirst) {
    Image img(1, 2, 3, {0, 51, 255, 255, 102, 0});
    auto chw = normalize(img, {0.5f, 0.0f, 1.0f}, {0.5f, 0.2f, 1.0f});
    ASSERT_EQ(chw.size(), 6u);
    // channel 0: (0 - 0.5) / 0.5, (1 - 0.5) / 0.5; channel 1: 0.2 / 0.2, 0.4 / 0.2; channel 2: 0, -1
    const std::vector<float> want = {-1.0f, 1.0f, 1.0f, 2.0f, 0.0f, -1.0f};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(chw[i], want[i], 1e-6) << i;
    auto hwc = normalize(img, {0.0f}, {1.0f}, false);
    EXPECT_NEAR(hwc[1], 0.2f, 1e-6);
    EXPECT_NEAR(hwc[3], 1.0f, 1e-6);
    EXPECT_THROW(normalize(img, {0.1f, 0.2f}, {1.0f}), ShapeError);
    EXPECT_THROW(normalize(img, {0.1f}, {0.0f}), Error);
}

TEST(DataImageTransform, RandomMapperDatasetIsDeterministicPerItem) {
    using image_transform_test::ramp;
    InMemDataset<Image> images({ramp(6, 6, 1), ramp(6, 6, 1), ramp(6, 6, 1)});
    auto augment = [](const Image& img, Rng& rng) { return random_hflip(random_crop(img, 3, 3, rng), rng); };
    RandomMapperDataset crops(images, 5, augment);
    static_assert(std::is_same_v<decltype(crops), RandomMapperDataset<Image, Image>>);
    ASSERT_EQ(crops.len(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        Rng rng(derive_seed(5, i));  // what get(i) uses
        EXPECT_EQ(*crops.get(i), augment(images.items()[i], rng)) << i;
        EXPECT_EQ(*crops.get(i), *crops.get(i)) << i;
    }
    // Items with equal inputs still get their own draws; another seed gives other draws.
    RandomMapperDataset other(images, 6, augment);
    int differ = 0;
    for (std::size_t i = 0; i < 3; ++i) differ += !(*crops.get(i) == *other.get(i));
    EXPECT_GT(differ + !(*crops.get(0) == *crops.get(1)) + !(*crops.get(1) == *crops.get(2)), 0);
    EXPECT_FALSE(crops.get(3));
}
