#pragma once
/// Pluggable batching (burn's BatchStrategy): a strategy receives the pass's items one at a time and
/// decides when a batch is complete, so batches can vary in size (a token budget, bucketing by
/// length, ...). FixBatchStrategy is the fixed-size rule the default loader applies.
///
///     struct TokenBudget final : data::BatchStrategy<Text> { ... };
///     auto loader = data::DataLoaderBuilder(TextBatcher()).batch_strategy(TokenBudget(4096)).build(texts);
///
/// A loader with a strategy builds its batches in order on the calling thread (num_workers and
/// prefetch do not apply), shuffling per epoch like the default loader.
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "burn/core/error.hpp"

namespace burn::data {

template <class I>
class BatchStrategy {
  public:
    virtual ~BatchStrategy() = default;
    /// Takes the next item of the pass.
    virtual void add(I item) = 0;
    /// A complete batch, if one is ready; with force (the end of the pass), whatever is left, or
    /// nothing when nothing is.
    virtual std::optional<std::vector<I>> batch(bool force) = 0;
    /// A fresh strategy of the same kind and settings, holding no items (one per pass).
    virtual std::unique_ptr<BatchStrategy<I>> clone() const = 0;
    /// The batch size when it is fixed (the loader then knows its number of batches).
    virtual std::optional<std::size_t> batch_size() const { return std::nullopt; }
};

/// Batches of batch_size items; the last one of a pass may be smaller.
template <class I>
class FixBatchStrategy final : public BatchStrategy<I> {
  public:
    explicit FixBatchStrategy(std::size_t batch_size) : size_(batch_size) {
        BURN_CHECK(batch_size >= 1, "[FixBatchStrategy] batch_size must be at least 1, got ", batch_size);
    }
    void add(I item) override { items_.push_back(std::move(item)); }
    std::optional<std::vector<I>> batch(bool force) override {
        if (items_.empty() || (items_.size() < size_ && !force)) return std::nullopt;
        std::vector<I> out = std::move(items_);
        items_.clear();
        return out;
    }
    std::unique_ptr<BatchStrategy<I>> clone() const override {
        return std::make_unique<FixBatchStrategy>(size_);
    }
    std::optional<std::size_t> batch_size() const override { return size_; }

  private:
    std::size_t size_;
    std::vector<I> items_;
};

}  // namespace burn::data
