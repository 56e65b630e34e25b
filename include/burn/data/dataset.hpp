#pragma once
/// Datasets: random access to items by index (burn's Dataset trait) and the in-memory dataset.
///
///     data::InMemDataset<int> numbers({1, 2, 3});
///     numbers.get(1);   // std::optional<int>{2}
///     numbers.len();    // 3
///
/// get() is const and must be safe to call from several threads at once: the data loader's workers
/// call it concurrently. Transforms (transform.hpp) wrap a dataset given by value or as a shared_ptr.
#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "burn/core/error.hpp"

namespace burn::data {

template <class I>
class Dataset;

/// A lazy pass over a dataset (burn's DatasetIterator): each step calls get(i), so nothing is read
/// ahead. An input iterator: `*it` is the item by value.
template <class I>
class DatasetIterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = I;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = I;

    DatasetIterator() = default;
    DatasetIterator(const Dataset<I>* dataset, std::size_t index) : dataset_(dataset), index_(index) {}
    /// The item (get(index)); throws burn::IndexError when the dataset has none there.
    I operator*() const;
    DatasetIterator& operator++() {
        ++index_;
        return *this;
    }
    DatasetIterator operator++(int) {
        DatasetIterator old = *this;
        ++index_;
        return old;
    }
    bool operator==(const DatasetIterator& o) const { return index_ == o.index_; }
    bool operator!=(const DatasetIterator& o) const { return index_ != o.index_; }
    std::size_t index() const { return index_; }

  private:
    const Dataset<I>* dataset_ = nullptr;
    std::size_t index_ = 0;
};

/// What Dataset::iter() returns: a range for range-for, reading [0, len()) lazily.
template <class I>
struct DatasetRange {
    DatasetIterator<I> first, last;
    DatasetIterator<I> begin() const { return first; }
    DatasetIterator<I> end() const { return last; }
};

template <class I>
class Dataset {
  public:
    using item_type = I;
    virtual ~Dataset() = default;
    /// The item at index, or nothing when index >= len().
    virtual std::optional<I> get(std::size_t index) const = 0;
    virtual std::size_t len() const = 0;
    bool is_empty() const { return len() == 0; }
    /// The items at indices, in that order (burn's get_many), or nothing when any index is >= len().
    /// Datasets that read many items faster than one at a time may override it.
    virtual std::optional<std::vector<I>> get_many(const std::vector<std::size_t>& indices) const {
        std::vector<I> out;
        out.reserve(indices.size());
        for (std::size_t i : indices) {
            auto item = get(i);
            if (!item) return std::nullopt;
            out.push_back(std::move(*item));
        }
        return out;
    }
    /// A lazy pass over the items (burn's iter()): `for (const auto& item : dataset.iter())`.
    DatasetRange<I> iter() const { return {DatasetIterator<I>(this, 0), DatasetIterator<I>(this, len())}; }
    /// Every item, in order (for small datasets and tests).
    std::vector<I> to_vec() const {
        std::vector<I> out;
        out.reserve(len());
        for (std::size_t i = 0; i < len(); ++i)
            if (auto item = get(i)) out.push_back(std::move(*item));
        return out;
    }
};

template <class I>
I DatasetIterator<I>::operator*() const {
    auto item = dataset_->get(index_);
    BURN_CHECK_KIND(item.has_value(), index, "[DatasetIterator] the dataset has no item at index ", index_,
                    " although its length is ", dataset_->len(), "; its get() and len() disagree");
    return std::move(*item);
}

template <class I>
using DatasetPtr = std::shared_ptr<const Dataset<I>>;

namespace detail {
template <class I>
I dataset_item_of(const Dataset<I>*);
template <class D>
struct item_type_of {
    using type = decltype(dataset_item_of(static_cast<const D*>(nullptr)));
};
template <class P>
struct item_type_of<std::shared_ptr<P>> {
    using type = typename item_type_of<std::remove_const_t<P>>::type;
};
}  // namespace detail

/// The item type of a dataset type, or of a shared_ptr to one.
template <class D>
using item_type_t = typename detail::item_type_of<std::decay_t<D>>::type;

/// A shared, type-erased handle to a dataset given by value (moved into the handle) or as a shared_ptr.
template <class D>
DatasetPtr<item_type_t<D>> share(D&& dataset) {
    using U = std::decay_t<D>;
    if constexpr (requires { typename U::element_type; }) {
        return DatasetPtr<item_type_t<D>>(std::forward<D>(dataset));
    } else {
        return std::make_shared<const U>(std::forward<D>(dataset));
    }
}

/// A dataset held in a std::vector.
template <class I>
class InMemDataset final : public Dataset<I> {
  public:
    InMemDataset() = default;
    explicit InMemDataset(std::vector<I> items) : items_(std::move(items)) {}
    std::optional<I> get(std::size_t index) const override {
        if (index >= items_.size()) return std::nullopt;
        return items_[index];
    }
    std::size_t len() const override { return items_.size(); }
    const std::vector<I>& items() const { return items_; }

  private:
    std::vector<I> items_;
};

}  // namespace burn::data
