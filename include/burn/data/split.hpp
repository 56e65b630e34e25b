#pragma once
/// A deterministic train/valid split: the items in a seeded random order (rng.hpp, the same on every
/// platform), the first part for training and the rest for validation. Both halves share the dataset.
///
///     auto [train, valid] = data::train_valid_split(all, 0.1, 42);   // 90 % / 10 %
///     auto loader = data::DataLoaderBuilder(batcher).batch_size(64).build(train);
///     // the same share of every class in each half:
///     auto [tr, va] = data::stratified_split(all, 0.1, 42, [](const Item& x) { return x.label; });
///
/// Every item lands in exactly one half; the same seed gives the same halves.
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/transform.hpp"

namespace burn::data {

template <class I>
struct TrainValidSplit {
    DatasetPtr<I> train;
    DatasetPtr<I> valid;
};

/// Splits a dataset (given by value or as a shared_ptr) with round(len * valid_fraction) items in the
/// valid half. valid_fraction is in [0, 1].
template <class D>
TrainValidSplit<item_type_t<D>> train_valid_split(D&& dataset, double valid_fraction, uint64_t seed) {
    using I = item_type_t<D>;
    BURN_CHECK(valid_fraction >= 0.0 && valid_fraction <= 1.0,
               "[train_valid_split] valid_fraction must be in [0, 1], got ", valid_fraction,
               " (0.1 puts 10 % of the items in the valid half)");
    auto shuffled = std::make_shared<const ShuffledDataset<I>>(share(std::forward<D>(dataset)), seed);
    const std::size_t n = shuffled->len();
    const auto valid = static_cast<std::size_t>(std::llround(static_cast<double>(n) * valid_fraction));
    return {std::make_shared<const PartialDataset<I>>(shuffled, 0, n - valid),
            std::make_shared<const PartialDataset<I>>(shuffled, n - valid, n)};
}

/// A split that keeps every class's share: of each class's items (label(item), any ordered type) in a
/// seeded random order, round(count * valid_fraction) go to the valid half. Each half lists its items
/// class by class in their shuffled order (shuffle again, or let the data loader shuffle, for training).
/// Reads every item once to learn its label.
template <class D, class F>
TrainValidSplit<item_type_t<D>> stratified_split(D&& dataset, double valid_fraction, uint64_t seed,
                                                 F&& label) {
    using I = item_type_t<D>;
    BURN_CHECK(valid_fraction >= 0.0 && valid_fraction <= 1.0,
               "[stratified_split] valid_fraction must be in [0, 1], got ", valid_fraction,
               " (0.1 puts 10 % of each class in the valid half)");
    DatasetPtr<I> all = share(std::forward<D>(dataset));
    using Label = std::decay_t<std::invoke_result_t<F&, const I&>>;
    std::map<Label, std::vector<std::size_t>> classes;
    for (std::size_t i = 0; i < all->len(); ++i) {
        std::optional<I> item = all->get(i);
        BURN_CHECK_KIND(item.has_value(), index, "[stratified_split] item ", i, " of ", all->len(),
                        " could not be read");
        classes[label(*item)].push_back(i);
    }
    std::vector<std::size_t> train, valid;
    uint64_t stream = 0;
    for (auto& [cls, members] : classes) {
        Rng rng(derive_seed(seed, stream++));
        shuffle(members, rng);
        const auto v =
            static_cast<std::size_t>(std::llround(static_cast<double>(members.size()) * valid_fraction));
        train.insert(train.end(), members.begin(), members.end() - static_cast<std::ptrdiff_t>(v));
        valid.insert(valid.end(), members.end() - static_cast<std::ptrdiff_t>(v), members.end());
    }
    return {std::make_shared<const SelectionDataset<I>>(all, std::move(train)),
            std::make_shared<const SelectionDataset<I>>(all, std::move(valid))};
}

}  // namespace burn::data
