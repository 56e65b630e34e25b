// FakeDataset: item i comes from an Rng seeded with derive_seed(seed, i). The expected words were computed
// independently (SplitMix64 and xoshiro256** written out in Python, the same code that reproduces
// DataRng.MatchesReferenceSequences' values).
#include "burn/data/fake.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "burn/data/transform.hpp"

using namespace burn::data;

namespace fake_test {

struct Pair {
    uint64_t a = 0, b = 0;
    bool operator==(const Pair&) const = default;
};

Pair two_words(Rng& rng) {
    const uint64_t a = rng.next();
    return {a, rng.next()};
}

TEST(DataFake, ItemsAreSeededPerIndex) {
    FakeDataset fake(5, 7, two_words);
    static_assert(std::is_same_v<decltype(fake), FakeDataset<Pair>>);
    EXPECT_EQ(fake.len(), 5u);
    EXPECT_EQ(fake.seed(), 7u);
    EXPECT_EQ(*fake.get(4), (Pair{0xe8ed0a1b79682f9cull, 0x66c9c84f608c064bull}));  // asked first: no order
    EXPECT_EQ(*fake.get(0), (Pair{0x81260aa6c389ae52ull, 0x63673d6cd2d900bcull}));
    EXPECT_EQ(*fake.get(1), (Pair{0x810c244c1822e0fcull, 0x66ca99afe599b606ull}));
    EXPECT_EQ(*fake.get(0), (Pair{0x81260aa6c389ae52ull, 0x63673d6cd2d900bcull}));  // again: the same
    EXPECT_FALSE(fake.get(5).has_value());
    EXPECT_EQ(FakeDataset(5, 8, two_words).get(0)->a, 0xaea96ac0159b6f45ull);  // another seed, other items
    EXPECT_TRUE(FakeDataset(0, 7, two_words).is_empty());
}

TEST(DataFake, UniformItemsThroughTransforms) {
    // uniform floats: the mean of 4,000 items is near 1/2 (standard error 0.0046)
    FakeDataset fake(4000, 3, [](Rng& rng) { return static_cast<float>(rng.uniform()); });
    const auto items = fake.to_vec();
    double sum = 0;
    for (float v : items) {
        ASSERT_GE(v, 0.0f);
        ASSERT_LT(v, 1.0f);
        sum += v;
    }
    EXPECT_NEAR(sum / 4000, 0.5, 0.02);
    // a transform over it sees the same items
    PartialDataset part(fake, 10, 12);
    EXPECT_EQ(part.to_vec(), (std::vector<float>{items[10], items[11]}));
}

TEST(DataFake, ConcurrentReadsAgree) {
    FakeDataset fake(4000, 3, [](Rng& rng) { return static_cast<float>(rng.uniform()); });
    const auto expected = fake.to_vec();
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t i = static_cast<std::size_t>(t); i < 4000; i += 4)
                wrong += *fake.get(i) != expected[i];
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace fake_test
