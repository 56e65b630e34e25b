// train_valid_split and stratified_split: sizes, disjoint halves covering every item, each class's
// share, determinism; SelectionDataset.
#include <gtest/gtest.h>

#include <map>
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

TEST(DataSplit, StratifiedKeepsEachClassShare) {
    // 100 items of class 0, 30 of class 1, 7 of class 2 (label = value % 1000 / 100 below).
    std::vector<int> v;
    for (int i = 0; i < 100; ++i) v.push_back(i);
    for (int i = 0; i < 30; ++i) v.push_back(1000 + i);
    for (int i = 0; i < 7; ++i) v.push_back(2000 + i);
    auto label = [](const int& x) { return x / 1000; };
    auto [train, valid] = stratified_split(InMemDataset<int>(v), 0.2, 3, label);
    std::map<int, int> per_class;
    for (int x : split_test::items(valid)) per_class[label(x)]++;
    EXPECT_EQ(per_class[0], 20);
    EXPECT_EQ(per_class[1], 6);
    EXPECT_EQ(per_class[2], 1);  // round(7 * 0.2) = 1
    EXPECT_EQ(valid->len(), 27u);
    EXPECT_EQ(train->len(), 110u);
    std::set<int> seen;
    for (int x : split_test::items(train)) seen.insert(x);
    for (int x : split_test::items(valid)) EXPECT_TRUE(seen.insert(x).second) << x << " in both halves";
    EXPECT_EQ(seen.size(), v.size());
    // Deterministic per seed; another seed picks other items.
    auto again = stratified_split(std::make_shared<InMemDataset<int>>(v), 0.2, 3, label);
    EXPECT_EQ(split_test::items(again.valid), split_test::items(valid));
    EXPECT_NE(split_test::items(stratified_split(InMemDataset<int>(v), 0.2, 4, label).valid),
              split_test::items(valid));
    EXPECT_THROW(stratified_split(InMemDataset<int>(v), -0.1, 1, label), Error);
}

TEST(DataSplit, SelectionDatasetPicksIndices) {
    SelectionDataset<int> s(InMemDataset<int>({10, 11, 12, 13}), {3, 0, 3});
    EXPECT_EQ(s.to_vec(), (std::vector<int>{13, 10, 13}));
    EXPECT_FALSE(s.get(3).has_value());
    EXPECT_THROW(SelectionDataset<int>(InMemDataset<int>({1}), {1}), Error);
}
