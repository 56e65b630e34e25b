#pragma once
/// A deterministic train/valid split: the items in a seeded random order (rng.hpp, the same on every
/// platform), the first part for training and the rest for validation. Both halves share the dataset.
///
///     auto [train, valid] = data::train_valid_split(all, 0.1, 42);   // 90 % / 10 %
///     auto loader = data::DataLoaderBuilder(batcher).batch_size(64).build(train);
///
/// Every item lands in exactly one half; the same seed gives the same halves.
#include <cmath>
#include <cstdint>

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

}  // namespace burn::data
