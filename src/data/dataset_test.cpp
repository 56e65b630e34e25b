#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "burn/data/data.hpp"

using namespace burn;
using namespace burn::data;

namespace {

std::vector<int> range_vec(int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = i;
    return v;
}

}  // namespace

TEST(DataRng, MatchesReferenceSequences) {
    // SplitMix64's published first output for seed 0, and xoshiro256** values computed independently.
    EXPECT_EQ(mix64(0), 0xe220a8397b1dcdafull);
    Rng r(42);
    EXPECT_EQ(r.next(), 0x15780b2e0c2ec716ull);
    EXPECT_EQ(r.next(), 0x6104d9866d113a7eull);
    EXPECT_EQ(r.next(), 0xae17533239e499a1ull);
    EXPECT_EQ(permutation(10, 7), (std::vector<std::size_t>{8, 3, 9, 0, 7, 2, 1, 6, 5, 4}));
    Rng u(3);
    for (int i = 0; i < 1000; ++i) {
        double x = u.uniform();
        ASSERT_GE(x, 0.0);
        ASSERT_LT(x, 1.0);
        ASSERT_LT(u.below(7), 7u);
    }
}

TEST(DataDataset, InMemGetAndLen) {
    InMemDataset<int> d(std::vector<int>{5, 6, 7});
    EXPECT_EQ(d.len(), 3u);
    EXPECT_FALSE(d.is_empty());
    EXPECT_EQ(d.get(1), 6);
    EXPECT_FALSE(d.get(3).has_value());
    EXPECT_TRUE(InMemDataset<int>().is_empty());
    EXPECT_EQ(d.to_vec(), (std::vector<int>{5, 6, 7}));
}

TEST(DataDataset, IterIsLazyAndGetManyKeepsTheOrder) {
    // A dataset that records which indices were read.
    struct Counting final : Dataset<int> {
        mutable std::vector<std::size_t> reads;
        std::optional<int> get(std::size_t i) const override {
            reads.push_back(i);
            if (i >= 4) return std::nullopt;
            return static_cast<int>(i) * 10;
        }
        std::size_t len() const override { return 4; }
    } d;
    auto range = d.iter();
    EXPECT_TRUE(d.reads.empty());  // nothing read until dereferenced
    auto it = range.begin();
    EXPECT_EQ(*it, 0);
    ++it;
    EXPECT_EQ(*it, 10);
    EXPECT_EQ(d.reads, (std::vector<std::size_t>{0, 1}));
    std::vector<int> seen;
    for (int x : d.iter()) seen.push_back(x);
    EXPECT_EQ(seen, (std::vector<int>{0, 10, 20, 30}));
    EXPECT_EQ(std::distance(d.iter().begin(), d.iter().end()), 4);
    EXPECT_EQ(d.get_many({3, 0, 3}), (std::vector<int>{30, 0, 30}));
    EXPECT_EQ(d.get_many({}), std::vector<int>{});
    EXPECT_FALSE(d.get_many({1, 4}).has_value());
    InMemDataset<int> empty;
    EXPECT_EQ(empty.iter().begin(), empty.iter().end());
}

TEST(DataDataset, MapperAppliesLazily) {
    InMemDataset<int> d(range_vec(4));
    MapperDataset m(d, [](const int& x) { return std::to_string(x * 10); });
    static_assert(std::is_same_v<decltype(m), MapperDataset<int, std::string>>);
    EXPECT_EQ(m.len(), 4u);
    EXPECT_EQ(m.get(3), std::string("30"));
    EXPECT_FALSE(m.get(4).has_value());
}

TEST(DataDataset, PartialClampsAndChecks) {
    auto d = std::make_shared<InMemDataset<int>>(range_vec(10));
    PartialDataset p(d, 2, 5);
    EXPECT_EQ(p.to_vec(), (std::vector<int>{2, 3, 4}));
    PartialDataset tail(d, 8, 100);
    EXPECT_EQ(tail.to_vec(), (std::vector<int>{8, 9}));
    EXPECT_FALSE(tail.get(2).has_value());
    EXPECT_EQ(PartialDataset(d, 10, 10).len(), 0u);
    try {
        PartialDataset bad(d, 11, 12);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[PartialDataset]"), std::string::npos) << e.what();
    }
}

TEST(DataDataset, ShuffledIsASeededPermutation) {
    InMemDataset<int> d(range_vec(50));
    ShuffledDataset a(d, 1), b(d, 1), c(d, 2);
    auto va = a.to_vec(), vb = b.to_vec(), vc = c.to_vec();
    EXPECT_EQ(va, vb);
    EXPECT_NE(va, vc);
    EXPECT_NE(va, range_vec(50));
    std::sort(va.begin(), va.end());
    EXPECT_EQ(va, range_vec(50));
    // get(i) == inner.get(indices[i]), and the order is the reference permutation
    ShuffledDataset small(InMemDataset<int>(range_vec(10)), 7);
    EXPECT_EQ(small.to_vec(), (std::vector<int>{8, 3, 9, 0, 7, 2, 1, 6, 5, 4}));
}

TEST(DataDataset, SamplerWithAndWithoutReplacement) {
    InMemDataset<int> d(range_vec(10));
    SamplerDataset without(d, 25, false, 3);
    auto v = without.to_vec();
    ASSERT_EQ(v.size(), 25u);
    for (int pass = 0; pass < 2; ++pass) {  // each full pass holds every item once
        std::vector<int> chunk(v.begin() + 10 * pass, v.begin() + 10 * (pass + 1));
        std::sort(chunk.begin(), chunk.end());
        EXPECT_EQ(chunk, range_vec(10));
    }
    std::set<int> last(v.begin() + 20, v.end());
    EXPECT_EQ(last.size(), 5u);
    SamplerDataset with(d, 200, true, 3);
    auto w = with.to_vec();
    EXPECT_EQ(w, SamplerDataset(d, 200, true, 3).to_vec());
    std::set<int> seen(w.begin(), w.end());
    EXPECT_EQ(seen.size(), 10u);  // 200 draws from 10 hit every item (probability of a miss ~ 1e-8)
    EXPECT_LT(std::set<int>(w.begin(), w.begin() + 20).size(), 20u);  // repeats happen
    EXPECT_THROW(SamplerDataset(InMemDataset<int>(), 3, true, 0), Error);
}

TEST(DataDataset, ComposedConcatenates) {
    std::vector<DatasetPtr<int>> parts = {std::make_shared<InMemDataset<int>>(std::vector<int>{1, 2}),
                                          std::make_shared<InMemDataset<int>>(std::vector<int>{}),
                                          std::make_shared<InMemDataset<int>>(std::vector<int>{3, 4, 5})};
    ComposedDataset<int> c(parts);
    EXPECT_EQ(c.len(), 5u);
    EXPECT_EQ(c.to_vec(), (std::vector<int>{1, 2, 3, 4, 5}));
    EXPECT_FALSE(c.get(5).has_value());
    EXPECT_EQ(ComposedDataset<int>({}).len(), 0u);
}

TEST(DataDataset, WindowsSlide) {
    InMemDataset<int> d(range_vec(5));
    WindowsDataset w(d, 3);
    ASSERT_EQ(w.len(), 3u);
    EXPECT_EQ(*w.get(0), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(*w.get(2), (std::vector<int>{2, 3, 4}));
    EXPECT_FALSE(w.get(3).has_value());
    EXPECT_EQ(WindowsDataset(d, 6).len(), 0u);
    EXPECT_THROW(WindowsDataset(d, 0), Error);
}

TEST(DataDataset, TransformsCompose) {
    InMemDataset<int> d(range_vec(100));
    auto p = PartialDataset(ShuffledDataset(d, 9), 0, 80);
    auto m = MapperDataset(p, [](const int& x) { return x + 1000; });
    auto v = m.to_vec();
    ASSERT_EQ(v.size(), 80u);
    std::set<int> uniq(v.begin(), v.end());
    EXPECT_EQ(uniq.size(), 80u);
    EXPECT_GE(*uniq.begin(), 1000);
    EXPECT_LT(*uniq.rbegin(), 1100);
}
