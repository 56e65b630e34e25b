#pragma once
/// Data loaders: batches from a dataset through a batcher, built on worker threads ahead of use.
///
///     auto loader = data::DataLoaderBuilder(MnistBatcher())
///                       .batch_size(64)
///                       .shuffle(42)
///                       .num_workers(2)
///                       .build(data::MnistDataset::train());
///     for (auto it = loader->iter(epoch); auto batch = it->next();) { ... }
///
/// Order is deterministic: the pass for epoch e shuffles with a seed derived from (seed, e) and hands
/// batches out in index order, so every worker count (0 = build on the caller's thread) gives the
/// same batches. Workers only change when a batch is built.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "burn/core/device.hpp"
#include "burn/core/error.hpp"
#include "burn/data/batch_strategy.hpp"
#include "burn/data/batcher.hpp"
#include "burn/data/dataset.hpp"
#include "burn/data/prefetch.hpp"
#include "burn/data/rng.hpp"
#include "burn/data/transform.hpp"

namespace burn::data {

/// One pass over a loader.
template <class B>
class BatchIterator {
  public:
    virtual ~BatchIterator() = default;
    /// The next batch, or nothing at the end of the pass.
    virtual std::optional<B> next() = 0;
    /// Batches handed out so far (skipped ones included) and in the whole pass.
    virtual std::size_t position() const = 0;
    virtual std::size_t num_batches() const = 0;
};

template <class B>
class DataLoader {
  public:
    using batch_type = B;
    virtual ~DataLoader() = default;
    /// A pass over the data for epoch (0-based), starting after `skip` batches (a resumed epoch).
    virtual std::unique_ptr<BatchIterator<B>> iter(std::size_t epoch = 0, std::size_t skip = 0) const = 0;
    virtual std::size_t num_batches() const = 0;
    virtual std::size_t num_items() const = 0;
    /// The device batches are built on.
    virtual const Device& device() const = 0;
    /// The same loader building its batches on another device.
    virtual std::shared_ptr<DataLoader<B>> to_device(const Device& device) const = 0;
    /// The same loader over the items [start, end) of its dataset (burn's slice; end is clamped to
    /// the dataset's length). Loaders that cannot be sliced throw burn::Error.
    virtual std::shared_ptr<DataLoader<B>> slice(std::size_t start, std::size_t end) const {
        BURN_THROW("[DataLoader::slice] this data loader cannot be sliced (items ", start, " to ", end,
                   "); build one per part with DataLoaderBuilder over a PartialDataset");
    }
};

template <class B>
using DataLoaderPtr = std::shared_ptr<DataLoader<B>>;

/// Options of a batch data loader.
struct DataLoaderOptions {
    std::size_t batch_size = 1;
    std::optional<uint64_t> shuffle_seed;
    int num_workers = 0;
    std::size_t prefetch = 0;  // batches built ahead; 0: 2 per worker (at least 2)
    bool drop_last = false;
    Device device;
};

/// The loader DataLoaderBuilder::build makes.
template <class I, class B>
class BatchDataLoader final : public DataLoader<B> {
  public:
    BatchDataLoader(std::shared_ptr<const Batcher<I, B>> batcher, DatasetPtr<I> dataset,
                    DataLoaderOptions options)
        : batcher_(std::move(batcher)), dataset_(std::move(dataset)), options_(std::move(options)) {
        BURN_CHECK(options_.batch_size >= 1, "[DataLoaderBuilder] batch_size must be at least 1");
        BURN_CHECK(options_.num_workers >= 0, "[DataLoaderBuilder] num_workers must be >= 0, got ",
                   options_.num_workers);
    }

    std::size_t num_items() const override { return dataset_->len(); }
    std::size_t num_batches() const override {
        std::size_t n = dataset_->len(), b = options_.batch_size;
        return options_.drop_last ? n / b : (n + b - 1) / b;
    }
    const Device& device() const override { return options_.device; }
    std::shared_ptr<DataLoader<B>> to_device(const Device& device) const override {
        DataLoaderOptions o = options_;
        o.device = device;
        return std::make_shared<BatchDataLoader>(batcher_, dataset_, std::move(o));
    }
    std::shared_ptr<DataLoader<B>> slice(std::size_t start, std::size_t end) const override {
        return std::make_shared<BatchDataLoader>(batcher_, share(PartialDataset<I>(dataset_, start, end)),
                                                 options_);
    }
    const DataLoaderOptions& options() const { return options_; }

    /// The dataset indices of epoch's pass, in order.
    std::vector<std::size_t> order(std::size_t epoch) const {
        if (options_.shuffle_seed)
            return permutation(dataset_->len(), derive_seed(*options_.shuffle_seed, epoch));
        std::vector<std::size_t> o(dataset_->len());
        std::iota(o.begin(), o.end(), std::size_t{0});
        return o;
    }

    std::unique_ptr<BatchIterator<B>> iter(std::size_t epoch = 0, std::size_t skip = 0) const override {
        return std::make_unique<Iter>(*this, epoch, skip);
    }

  private:
    class Iter final : public BatchIterator<B> {
      public:
        Iter(const BatchDataLoader& loader, std::size_t epoch, std::size_t skip)
            : batcher_(loader.batcher_),
              dataset_(loader.dataset_),
              device_(loader.options_.device),
              batch_size_(loader.options_.batch_size),
              order_(loader.order(epoch)),
              total_(loader.num_batches()),
              skip_(std::min(skip, total_)) {
            const int workers = loader.options_.num_workers;
            std::size_t depth = loader.options_.prefetch;
            if (depth == 0) depth = std::max<std::size_t>(2, 2 * static_cast<std::size_t>(workers));
            slots_.resize(depth);
            prefetch_ = std::make_unique<Prefetcher>(total_ - skip_, workers, depth,
                                                     [this](std::size_t t) { build(t); });
        }
        std::optional<B> next() override {
            if (next_ >= prefetch_->size()) return std::nullopt;
            const std::size_t t = next_++;
            prefetch_->wait(t);
            std::optional<B> out = std::move(slots_[t % slots_.size()]);
            slots_[t % slots_.size()].reset();
            prefetch_->release(t);
            return out;
        }
        std::size_t position() const override { return skip_ + next_; }
        std::size_t num_batches() const override { return total_; }

      private:
        void build(std::size_t t) {
            const std::size_t b = skip_ + t;
            const std::size_t begin = b * batch_size_, end = std::min(begin + batch_size_, order_.size());
            std::vector<I> items;
            items.reserve(end - begin);
            for (std::size_t j = begin; j < end; ++j) {
                auto item = dataset_->get(order_[j]);
                BURN_CHECK_KIND(item.has_value(), index,
                                "[DataLoader] the dataset returned no item at index ", order_[j],
                                " although its length is ", dataset_->len());
                items.push_back(std::move(*item));
            }
            slots_[t % slots_.size()].emplace(batcher_->batch(std::move(items), device_));
        }

        std::shared_ptr<const Batcher<I, B>> batcher_;
        DatasetPtr<I> dataset_;
        Device device_;
        std::size_t batch_size_;
        std::vector<std::size_t> order_;
        std::size_t total_, skip_;
        std::size_t next_ = 0;
        std::vector<std::optional<B>> slots_;
        std::unique_ptr<Prefetcher> prefetch_;  // declared last: destroyed (workers joined) first
    };

    std::shared_ptr<const Batcher<I, B>> batcher_;
    DatasetPtr<I> dataset_;
    DataLoaderOptions options_;
};

/// The loader DataLoaderBuilder::build makes when a BatchStrategy is set: the pass's items go through
/// a fresh copy of the strategy, in order, on the calling thread.
template <class I, class B>
class StrategyDataLoader final : public DataLoader<B> {
  public:
    StrategyDataLoader(std::shared_ptr<const Batcher<I, B>> batcher, DatasetPtr<I> dataset,
                       DataLoaderOptions options, std::shared_ptr<const BatchStrategy<I>> strategy)
        : batcher_(std::move(batcher)),
          dataset_(std::move(dataset)),
          options_(std::move(options)),
          strategy_(std::move(strategy)) {}
    std::size_t num_items() const override { return dataset_->len(); }
    /// Exact when the strategy has a fixed batch_size(); otherwise the number of items (an upper bound:
    /// every batch holds at least one item).
    std::size_t num_batches() const override {
        const std::size_t n = dataset_->len();
        const auto b = strategy_->batch_size();
        return b ? (n + *b - 1) / *b : n;
    }
    const Device& device() const override { return options_.device; }
    std::shared_ptr<DataLoader<B>> to_device(const Device& device) const override {
        DataLoaderOptions o = options_;
        o.device = device;
        return std::make_shared<StrategyDataLoader>(batcher_, dataset_, std::move(o), strategy_);
    }
    std::shared_ptr<DataLoader<B>> slice(std::size_t start, std::size_t end) const override {
        return std::make_shared<StrategyDataLoader>(batcher_, share(PartialDataset<I>(dataset_, start, end)),
                                                    options_, strategy_);
    }
    std::unique_ptr<BatchIterator<B>> iter(std::size_t epoch = 0, std::size_t skip = 0) const override {
        return std::make_unique<Iter>(*this, epoch, skip);
    }

  private:
    class Iter final : public BatchIterator<B> {
      public:
        Iter(const StrategyDataLoader& loader, std::size_t epoch, std::size_t skip)
            : loader_(loader), strategy_(loader.strategy_->clone()) {
            const std::size_t n = loader.dataset_->len();
            if (loader.options_.shuffle_seed) {
                order_ = permutation(n, derive_seed(*loader.options_.shuffle_seed, epoch));
            } else {
                order_.resize(n);
                std::iota(order_.begin(), order_.end(), std::size_t{0});
            }
            for (std::size_t i = 0; i < skip && next_items(); ++i) ++position_;
        }
        std::optional<B> next() override {
            std::optional<std::vector<I>> items = next_items();
            if (!items) return std::nullopt;
            ++position_;
            return loader_.batcher_->batch(std::move(*items), loader_.options_.device);
        }
        std::size_t position() const override { return position_; }
        std::size_t num_batches() const override { return loader_.num_batches(); }

      private:
        std::optional<std::vector<I>> next_items() {
            while (at_ < order_.size()) {
                auto item = loader_.dataset_->get(order_[at_]);
                BURN_CHECK_KIND(item.has_value(), index,
                                "[DataLoader] the dataset returned no item at index ", order_[at_],
                                " although its length is ", loader_.dataset_->len());
                ++at_;
                strategy_->add(std::move(*item));
                if (auto b = strategy_->batch(false)) return b;
            }
            if (done_) return std::nullopt;
            done_ = true;
            return strategy_->batch(true);
        }
        const StrategyDataLoader& loader_;
        std::unique_ptr<BatchStrategy<I>> strategy_;
        std::vector<std::size_t> order_;
        std::size_t at_ = 0, position_ = 0;
        bool done_ = false;
    };

    std::shared_ptr<const Batcher<I, B>> batcher_;
    DatasetPtr<I> dataset_;
    DataLoaderOptions options_;
    std::shared_ptr<const BatchStrategy<I>> strategy_;
};

/// DataLoaderBuilder(batcher).batch_size(n).shuffle(seed).num_workers(k).build(dataset).
template <class Bt>
class DataLoaderBuilder {
  public:
    using item_type = batcher_item_t<Bt>;
    using batch_type = batcher_batch_t<Bt>;

    explicit DataLoaderBuilder(Bt batcher) : batcher_(std::make_shared<const Bt>(std::move(batcher))) {}

    DataLoaderBuilder& batch_size(std::size_t n) {
        options_.batch_size = n;
        return *this;
    }
    /// Shuffles every pass with a seed derived from (seed, epoch).
    DataLoaderBuilder& shuffle(uint64_t seed) {
        options_.shuffle_seed = seed;
        return *this;
    }
    /// Threads building batches ahead of use (0: build on the caller's thread).
    DataLoaderBuilder& num_workers(int n) {
        options_.num_workers = n;
        return *this;
    }
    /// Batches built ahead of the consumer (default: 2 per worker, at least 2).
    DataLoaderBuilder& prefetch(std::size_t n) {
        options_.prefetch = n;
        return *this;
    }
    /// Drops a last batch smaller than batch_size.
    DataLoaderBuilder& drop_last(bool on = true) {
        options_.drop_last = on;
        return *this;
    }
    /// The device batches are built on (SupervisedTraining sets it to the model's).
    DataLoaderBuilder& set_device(const Device& device) {
        options_.device = device;
        return *this;
    }

    /// Batches decided by a strategy (burn's batch strategy) instead of batch_size / drop_last; the
    /// strategy is copied per pass (clone()).
    template <class S>
    DataLoaderBuilder& batch_strategy(S strategy) {
        strategy_ = std::make_shared<const S>(std::move(strategy));
        return *this;
    }

    template <class D>
    DataLoaderPtr<batch_type> build(D&& dataset) const {
        if (strategy_)
            return std::make_shared<StrategyDataLoader<item_type, batch_type>>(
                batcher_, share(std::forward<D>(dataset)), options_, strategy_);
        return std::make_shared<BatchDataLoader<item_type, batch_type>>(
            batcher_, share(std::forward<D>(dataset)), options_);
    }

  private:
    std::shared_ptr<const Batcher<item_type, batch_type>> batcher_;
    DataLoaderOptions options_;
    std::shared_ptr<const BatchStrategy<item_type>> strategy_;
};

/// One loader per device over consecutive parts of the loader's items (burn's split_dataloader): with
/// n devices, part i holds items [i * (N / n), (i + 1) * (N / n)), the last part also the remainder,
/// and builds its batches on devices[i]. Each part shuffles (when the loader does) within itself.
/// With one device or none, the loader itself. For data-parallel training, one part per replica.
template <class B>
std::vector<DataLoaderPtr<B>> split_dataloader(const DataLoaderPtr<B>& loader,
                                               const std::vector<Device>& devices) {
    if (devices.size() <= 1) return {loader};
    const std::size_t n = loader->num_items(), step = n / devices.size();
    std::vector<DataLoaderPtr<B>> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const std::size_t end = i + 1 == devices.size() ? n : start + step;
        out.push_back(loader->slice(start, end)->to_device(devices[i]));
        start = end;
    }
    return out;
}

}  // namespace burn::data
