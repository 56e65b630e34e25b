#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "burn/data/data.hpp"

using namespace burn;
using namespace burn::data;

namespace dataloader_test {

struct Item {
    int value;
};

struct Batch {
    Tensor<1> values;
    std::vector<int> ids;
};

struct ItemBatcher final : Batcher<Item, Batch> {
    int sleep_us = 0;
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
    Batch batch(std::vector<Item> items, const Device& device) const override {
        if (sleep_us) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
        calls->fetch_add(1);
        std::vector<float> v;
        std::vector<int> ids;
        for (const auto& i : items) {
            if (i.value < 0) throw Error("[ItemBatcher] negative item");
            v.push_back(static_cast<float>(i.value));
            ids.push_back(i.value);
        }
        return {Tensor<1>::from_data(TensorData(v), device), ids};
    }
};

InMemDataset<Item> items(int n) {
    std::vector<Item> v;
    for (int i = 0; i < n; ++i) v.push_back({i});
    return InMemDataset<Item>(v);
}

std::vector<std::vector<int>> pass(const DataLoader<Batch>& loader, std::size_t epoch, std::size_t skip = 0) {
    std::vector<std::vector<int>> out;
    for (auto it = loader.iter(epoch, skip); auto b = it->next();) {
        auto vals = b->values.to_vec<float>();
        EXPECT_EQ(vals.size(), b->ids.size());
        for (std::size_t i = 0; i < vals.size(); ++i) EXPECT_EQ(static_cast<int>(vals[i]), b->ids[i]);
        out.push_back(b->ids);
    }
    return out;
}

TEST(DataLoader, SequentialBatchesWithoutShuffle) {
    auto loader = DataLoaderBuilder(ItemBatcher()).batch_size(8).build(items(20));
    EXPECT_EQ(loader->num_batches(), 3u);
    EXPECT_EQ(loader->num_items(), 20u);
    auto batches = pass(*loader, 0);
    ASSERT_EQ(batches.size(), 3u);
    EXPECT_EQ(batches[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(batches[2], (std::vector<int>{16, 17, 18, 19}));
    EXPECT_EQ(pass(*loader, 5), batches);  // no shuffle: every epoch alike
}

TEST(DataLoader, DropLastAndSkip) {
    auto loader = DataLoaderBuilder(ItemBatcher()).batch_size(8).drop_last().build(items(20));
    EXPECT_EQ(loader->num_batches(), 2u);
    EXPECT_EQ(pass(*loader, 0).size(), 2u);
    auto full = DataLoaderBuilder(ItemBatcher()).batch_size(3).shuffle(5).num_workers(2).build(items(20));
    auto all = pass(*full, 4);
    auto rest = pass(*full, 4, 3);
    ASSERT_EQ(rest.size(), all.size() - 3);
    EXPECT_TRUE(std::equal(rest.begin(), rest.end(), all.begin() + 3));
    auto it = full->iter(4, 3);
    EXPECT_EQ(it->position(), 3u);
    EXPECT_EQ(it->num_batches(), all.size());
    EXPECT_TRUE(pass(*full, 4, 100).empty());
}

TEST(DataLoader, SameBatchesForAnyWorkerCount) {
    // The order depends only on (seed, epoch); workers only change where a batch is built.
    std::vector<std::vector<std::vector<int>>> reference;
    for (int workers : {0, 1, 4}) {
        ItemBatcher b;
        b.sleep_us = workers == 4 ? 200 : 0;  // slow batches let workers finish out of order
        auto loader = DataLoaderBuilder(b).batch_size(7).shuffle(1234).num_workers(workers).build(items(100));
        std::vector<std::vector<int>> epochs;
        for (std::size_t e = 0; e < 3; ++e) {
            auto batches = pass(*loader, e);
            ASSERT_EQ(batches.size(), 15u);
            std::vector<int> flat;
            for (const auto& x : batches) flat.insert(flat.end(), x.begin(), x.end());
            std::vector<int> sorted = flat;
            std::sort(sorted.begin(), sorted.end());
            for (int i = 0; i < 100; ++i) ASSERT_EQ(sorted[i], i) << "epoch " << e << " is not a permutation";
            epochs.push_back(flat);
        }
        EXPECT_NE(epochs[0], epochs[1]);  // each epoch reshuffles
        reference.push_back(epochs);
    }
    EXPECT_EQ(reference[0], reference[1]);
    EXPECT_EQ(reference[0], reference[2]);
    // another seed, another order
    auto other = DataLoaderBuilder(ItemBatcher()).batch_size(7).shuffle(99).build(items(100));
    std::vector<int> flat;
    for (const auto& x : pass(*other, 0)) flat.insert(flat.end(), x.begin(), x.end());
    EXPECT_NE(flat, reference[0][0]);
}

TEST(DataLoader, PrefetchesAheadBoundedByDepth) {
    ItemBatcher b;
    auto loader = DataLoaderBuilder(b).batch_size(1).num_workers(2).prefetch(3).build(items(50));
    auto it = loader->iter(0);
    auto first = it->next();
    ASSERT_TRUE(first.has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // with batch 0 taken, at most batches 1..3 may exist: 4 calls at most, and prefetching did happen
    int calls = b.calls->load();
    EXPECT_GE(calls, 2);
    EXPECT_LE(calls, 4);
    it.reset();  // dropping a pass half-way joins its workers
}

TEST(DataLoader, BatcherErrorsReachTheConsumer) {
    std::vector<Item> v;
    for (int i = 0; i < 10; ++i) v.push_back({i == 6 ? -1 : i});
    for (int workers : {0, 3}) {
        auto loader =
            DataLoaderBuilder(ItemBatcher()).batch_size(2).num_workers(workers).build(InMemDataset<Item>(v));
        auto it = loader->iter(0);
        for (int k = 0; k < 3; ++k) ASSERT_TRUE(it->next().has_value());
        try {
            it->next();
            FAIL() << "expected the batcher's error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("[ItemBatcher]"), std::string::npos);
        }
    }
}

TEST(DataLoader, ToDeviceKeepsTheOrder) {
    auto loader = DataLoaderBuilder(ItemBatcher()).batch_size(4).shuffle(3).build(items(10));
    auto moved = loader->to_device(Device().autodiff());
    EXPECT_TRUE(moved->device().is_autodiff());
    auto it = moved->iter(1);
    auto b = it->next();
    ASSERT_TRUE(b.has_value());
    EXPECT_TRUE(b->values.device().is_autodiff());
    EXPECT_EQ(pass(*moved, 1), pass(*loader, 1));
}

TEST(DataLoader, SplitGivesEachDeviceAConsecutivePart) {
    auto loader = DataLoaderBuilder(ItemBatcher()).batch_size(2).build(items(11));
    const std::vector<Device> devices = {Device(), Device().autodiff(), Device()};
    auto parts = split_dataloader(loader, devices);
    ASSERT_EQ(parts.size(), 3u);
    // 11 / 3 = 3 items a part, the last one also the remainder: [0, 3), [3, 6), [6, 11).
    EXPECT_EQ(pass(*parts[0], 0), (std::vector<std::vector<int>>{{0, 1}, {2}}));
    EXPECT_EQ(pass(*parts[1], 0), (std::vector<std::vector<int>>{{3, 4}, {5}}));
    EXPECT_EQ(pass(*parts[2], 0), (std::vector<std::vector<int>>{{6, 7}, {8, 9}, {10}}));
    EXPECT_EQ(std::vector<std::size_t>({parts[0]->num_items(), parts[1]->num_items(), parts[2]->num_items()}),
              std::vector<std::size_t>({3, 3, 5}));
    EXPECT_TRUE(parts[1]->device().is_autodiff());
    EXPECT_TRUE(parts[1]->iter()->next()->values.device().is_autodiff());
    EXPECT_FALSE(parts[0]->device().is_autodiff());
    // Shuffled parts permute their own items only.
    auto shuffled = split_dataloader(
        DataLoaderBuilder(ItemBatcher()).batch_size(3).shuffle(5).build(items(8)), {Device(), Device()});
    std::vector<int> second;
    for (const auto& b : pass(*shuffled[1], 2)) second.insert(second.end(), b.begin(), b.end());
    std::sort(second.begin(), second.end());
    EXPECT_EQ(second, (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(split_dataloader(loader, {Device()}).front(), loader);
    EXPECT_EQ(loader->slice(9, 100)->num_items(), 2u);
}

TEST(DataLoader, BatchStrategiesDecideTheBatches) {
    // FixBatchStrategy gives the default loader's batches, shuffled or not.
    auto fixed = DataLoaderBuilder(ItemBatcher())
                     .batch_strategy(FixBatchStrategy<Item>(3))
                     .shuffle(9)
                     .build(items(10));
    auto plain = DataLoaderBuilder(ItemBatcher()).batch_size(3).shuffle(9).build(items(10));
    EXPECT_EQ(pass(*fixed, 2), pass(*plain, 2));
    EXPECT_EQ(fixed->num_batches(), 4u);
    EXPECT_EQ(pass(*fixed, 2, 1), pass(*plain, 2, 1));
    auto it = fixed->iter(0, 3);
    EXPECT_EQ(it->position(), 3u);
    ASSERT_TRUE(it->next().has_value());
    EXPECT_FALSE(it->next().has_value());
    // A strategy that closes a batch once its values sum to at least 5.
    struct Budget final : BatchStrategy<Item> {
        std::vector<Item> held;
        int sum = 0;
        void add(Item i) override {
            sum += i.value;
            held.push_back(i);
        }
        std::optional<std::vector<Item>> batch(bool force) override {
            if (held.empty() || (sum < 5 && !force)) return std::nullopt;
            sum = 0;
            return std::exchange(held, {});
        }
        std::unique_ptr<BatchStrategy<Item>> clone() const override { return std::make_unique<Budget>(); }
    };
    auto budget = DataLoaderBuilder(ItemBatcher()).batch_strategy(Budget()).build(items(8));
    const std::vector<std::vector<int>> want = {{0, 1, 2, 3}, {4, 5}, {6}, {7}};
    EXPECT_EQ(pass(*budget, 0), want);
    EXPECT_EQ(pass(*budget, 1), want);     // a fresh strategy per pass
    EXPECT_EQ(budget->num_batches(), 8u);  // no fixed size: the item count bounds it
    EXPECT_EQ(pass(*budget->slice(4, 8), 0), (std::vector<std::vector<int>>{{4, 5}, {6}, {7}}));
    EXPECT_THROW(FixBatchStrategy<Item>(0), Error);
}

TEST(DataLoader, EmptyDatasetAndBadOptions) {
    auto loader = DataLoaderBuilder(ItemBatcher()).batch_size(4).num_workers(2).build(items(0));
    EXPECT_EQ(loader->num_batches(), 0u);
    EXPECT_TRUE(pass(*loader, 0).empty());
    EXPECT_THROW(DataLoaderBuilder(ItemBatcher()).batch_size(0).build(items(3)), Error);
    EXPECT_THROW(DataLoaderBuilder(ItemBatcher()).num_workers(-1).build(items(3)), Error);
}

}  // namespace dataloader_test
