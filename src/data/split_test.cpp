// train_valid_split: sizes, disjoint halves covering every item, determinism.
#include <gtest/gtest.h>

#include <set>

#include "burn/data/data.hpp"

using namespace burn;
using namespace burn::data;

namespace split_test {

std::vector<int> items(const DatasetPtr<int>& d) {
    return d->to_vec();
}

}  // namespace split_test

TEST(DataSplit, DisjointHalvesCoverEveryItem) {
    std::vector<int> v(103);
    std::iota(v.begin(), v.end(), 0);
    auto [train, valid] = train_valid_split(InMemDataset<int>(v), 0.2, 7);
    EXPECT_EQ(train->len(), 82u);
    EXPECT_EQ(valid->len(), 21u);  // round(103 * 0.2) = 21
    std::set<int> seen;
    for (int x : split_test::items(train)) seen.insert(x);
    for (int x : split_test::items(valid)) EXPECT_TRUE(seen.insert(x).second) << x << " in both halves";
    EXPECT_EQ(seen.size(), 103u);
    // The same seed gives the same halves, another seed others; the order is shuffled.
    auto again = train_valid_split(std::make_shared<InMemDataset<int>>(v), 0.2, 7);
    EXPECT_EQ(split_test::items(again.valid), split_test::items(valid));
    auto other = train_valid_split(InMemDataset<int>(v), 0.2, 8);
    EXPECT_NE(split_test::items(other.valid), split_test::items(valid));
    EXPECT_NE(split_test::items(train), std::vector<int>(v.begin(), v.begin() + 82));
}

TEST(DataSplit, EdgeFractions) {
    InMemDataset<int> d({1, 2, 3});
    EXPECT_EQ(train_valid_split(d, 0.0, 1).valid->len(), 0u);
    EXPECT_EQ(train_valid_split(d, 1.0, 1).train->len(), 0u);
    EXPECT_THROW(train_valid_split(d, 1.5, 1), Error);
}
