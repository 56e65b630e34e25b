#pragma once
/// Dataset transforms (burn's dataset::transform): each wraps datasets given by value or as
/// shared_ptrs and is itself a Dataset, so they compose.
///
///     auto train = data::PartialDataset(data::ShuffledDataset(all, 42), 0, 8000);
///     auto scaled = data::MapperDataset(train, [](const Item& x) { return x.value * 2; });
///
/// Every random choice is made once, at construction, from the seed: get() is deterministic and safe
/// to call from several threads.
#include <algorithm>
#include <functional>
#include <type_traits>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/dataset.hpp"
#include "burn/data/rng.hpp"

namespace burn::data {

/// Applies a function to every item lazily: get(i) is mapper(inner.get(i)).
template <class I, class O>
class MapperDataset final : public Dataset<O> {
  public:
    template <class D, class F>
    MapperDataset(D&& dataset, F&& mapper)
        : inner_(share(std::forward<D>(dataset))), mapper_(std::forward<F>(mapper)) {}
    std::optional<O> get(std::size_t index) const override {
        auto item = inner_->get(index);
        if (!item) return std::nullopt;
        return mapper_(*item);
    }
    std::size_t len() const override { return inner_->len(); }

  private:
    DatasetPtr<I> inner_;
    std::function<O(const I&)> mapper_;
};
template <class D, class F>
MapperDataset(D&&, F&&)
    -> MapperDataset<item_type_t<D>, std::decay_t<std::invoke_result_t<F&, const item_type_t<D>&>>>;

/// Applies a random function to every item lazily: get(i) is mapper(inner.get(i), rng) with an Rng
/// seeded from (seed, i), so an item's random choices (a crop, a flip: image_transform.hpp) are the
/// same on every call and from any thread. For other choices each epoch, build it again with
/// derive_seed(seed, epoch).
template <class I, class O>
class RandomMapperDataset final : public Dataset<O> {
  public:
    template <class D, class F>
    RandomMapperDataset(D&& dataset, uint64_t seed, F&& mapper)
        : inner_(share(std::forward<D>(dataset))), seed_(seed), mapper_(std::forward<F>(mapper)) {}
    std::optional<O> get(std::size_t index) const override {
        auto item = inner_->get(index);
        if (!item) return std::nullopt;
        Rng rng(derive_seed(seed_, index));
        return mapper_(*item, rng);
    }
    std::size_t len() const override { return inner_->len(); }

  private:
    DatasetPtr<I> inner_;
    uint64_t seed_;
    std::function<O(const I&, Rng&)> mapper_;
};
template <class D, class F>
RandomMapperDataset(D&&, uint64_t, F&&)
    -> RandomMapperDataset<item_type_t<D>,
                           std::decay_t<std::invoke_result_t<F&, const item_type_t<D>&, Rng&>>>;

/// The items [start, end) of a dataset (end is clamped to its length).
template <class I>
class PartialDataset final : public Dataset<I> {
  public:
    template <class D>
    PartialDataset(D&& dataset, std::size_t start, std::size_t end)
        : inner_(share(std::forward<D>(dataset))) {
        end_ = std::min(end, inner_->len());
        BURN_CHECK_KIND(start <= end_, index, "[PartialDataset] start ", start, " is past end ", end_,
                        " (dataset length ", inner_->len(), ")");
        start_ = start;
    }
    std::optional<I> get(std::size_t index) const override {
        if (index >= len()) return std::nullopt;
        return inner_->get(start_ + index);
    }
    std::size_t len() const override { return end_ - start_; }

  private:
    DatasetPtr<I> inner_;
    std::size_t start_ = 0, end_ = 0;
};
template <class D>
PartialDataset(D&&, std::size_t, std::size_t) -> PartialDataset<item_type_t<D>>;

namespace detail {
/// The items of inner at a list of indices: what SelectionDataset, ShuffledDataset and SamplerDataset
/// share (they differ in how the list is made).
template <class I>
class IndexedDataset : public Dataset<I> {
  public:
    std::optional<I> get(std::size_t index) const override {
        if (index >= indices_.size()) return std::nullopt;
        return inner_->get(indices_[index]);
    }
    std::size_t len() const override { return indices_.size(); }
    /// get(i) is inner.get(indices()[i]).
    const std::vector<std::size_t>& indices() const { return indices_; }

  protected:
    explicit IndexedDataset(DatasetPtr<I> inner) : inner_(std::move(inner)) {}
    DatasetPtr<I> inner_;
    std::vector<std::size_t> indices_;
};
}  // namespace detail

/// The items of a dataset at given indices, in their order (burn's SelectionDataset); an index may repeat.
template <class I>
class SelectionDataset final : public detail::IndexedDataset<I> {
  public:
    template <class D>
    SelectionDataset(D&& dataset, std::vector<std::size_t> indices)
        : detail::IndexedDataset<I>(share(std::forward<D>(dataset))) {
        const std::size_t n = this->inner_->len();
        for (std::size_t i : indices)
            BURN_CHECK_KIND(i < n, index, "[SelectionDataset] index ", i,
                            " is out of range for a dataset of ", n, " items");
        this->indices_ = std::move(indices);
    }
};
template <class D>
SelectionDataset(D&&, std::vector<std::size_t>) -> SelectionDataset<item_type_t<D>>;

/// The same items in a seeded random order.
template <class I>
class ShuffledDataset final : public detail::IndexedDataset<I> {
  public:
    template <class D>
    ShuffledDataset(D&& dataset, uint64_t seed) : detail::IndexedDataset<I>(share(std::forward<D>(dataset))) {
        this->indices_ = permutation(this->inner_->len(), seed);
    }
};
template <class D>
ShuffledDataset(D&&, uint64_t) -> ShuffledDataset<item_type_t<D>>;

/// size items drawn from a dataset: with replacement (independent uniform draws) or without (each
/// item once per pass through a shuffled copy; passes repeat when size exceeds the length).
template <class I>
class SamplerDataset final : public detail::IndexedDataset<I> {
  public:
    template <class D>
    SamplerDataset(D&& dataset, std::size_t size, bool with_replacement = true, uint64_t seed = 0)
        : detail::IndexedDataset<I>(share(std::forward<D>(dataset))) {
        const std::size_t n = this->inner_->len();
        BURN_CHECK_KIND(n > 0 || size == 0, index, "[SamplerDataset] cannot draw ", size,
                        " items from an empty dataset");
        Rng rng(seed);
        auto& out = this->indices_;
        out.reserve(size);
        if (with_replacement) {
            for (std::size_t i = 0; i < size; ++i) out.push_back(static_cast<std::size_t>(rng.below(n)));
        } else {
            std::vector<std::size_t> pool(n);
            while (out.size() < size) {
                std::iota(pool.begin(), pool.end(), std::size_t{0});
                shuffle(pool, rng);
                for (std::size_t i = 0; i < n && out.size() < size; ++i) out.push_back(pool[i]);
            }
        }
    }
};
template <class D>
SamplerDataset(D&&, std::size_t, bool = true, uint64_t = 0) -> SamplerDataset<item_type_t<D>>;

/// Datasets one after another.
template <class I>
class ComposedDataset final : public Dataset<I> {
  public:
    explicit ComposedDataset(std::vector<DatasetPtr<I>> parts) : parts_(std::move(parts)) {
        std::size_t total = 0;
        for (const auto& p : parts_) {
            BURN_CHECK(p != nullptr, "[ComposedDataset] a part is a null dataset");
            total += p->len();
            ends_.push_back(total);
        }
    }
    std::optional<I> get(std::size_t index) const override {
        auto it = std::upper_bound(ends_.begin(), ends_.end(), index);
        if (it == ends_.end()) return std::nullopt;
        std::size_t part = static_cast<std::size_t>(it - ends_.begin());
        std::size_t begin = part == 0 ? 0 : ends_[part - 1];
        return parts_[part]->get(index - begin);
    }
    std::size_t len() const override { return ends_.empty() ? 0 : ends_.back(); }

  private:
    std::vector<DatasetPtr<I>> parts_;
    std::vector<std::size_t> ends_;
};

/// Sliding windows: item i is the `size` consecutive items starting at i (len - size + 1 of them).
template <class I>
class WindowsDataset final : public Dataset<std::vector<I>> {
  public:
    template <class D>
    WindowsDataset(D&& dataset, std::size_t size) : inner_(share(std::forward<D>(dataset))), size_(size) {
        BURN_CHECK(size > 0, "[WindowsDataset] the window size must be at least 1");
    }
    std::optional<std::vector<I>> get(std::size_t index) const override {
        if (index >= len()) return std::nullopt;
        std::vector<I> window;
        window.reserve(size_);
        for (std::size_t i = 0; i < size_; ++i) {
            auto item = inner_->get(index + i);
            if (!item) return std::nullopt;
            window.push_back(std::move(*item));
        }
        return window;
    }
    std::size_t len() const override { return inner_->len() >= size_ ? inner_->len() - size_ + 1 : 0; }

  private:
    DatasetPtr<I> inner_;
    std::size_t size_;
};
template <class D>
WindowsDataset(D&&, std::size_t) -> WindowsDataset<item_type_t<D>>;

}  // namespace burn::data
