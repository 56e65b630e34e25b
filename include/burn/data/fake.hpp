#pragma once
/// A dataset of random items (burn's FakeDataset), for trying a pipeline or a model before real data
/// exists, and for tests. Item i is generator(rng) with rng a data::Rng seeded from (seed, i), so an
/// item is the same on every get(), in any order, from any thread, on any platform; nothing is stored.
///
///     struct Sample { std::vector<float> x; int32_t label; };
///     data::FakeDataset<Sample> fake(1000, /*seed=*/7, [](data::Rng& rng) {
///         Sample s{std::vector<float>(4), static_cast<int32_t>(rng.below(10))};
///         for (float& v : s.x) v = static_cast<float>(rng.uniform());
///         return s;
///     });
///     fake.get(3);   // the same Sample every time; another seed gives other items
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "burn/data/dataset.hpp"
#include "burn/data/rng.hpp"

namespace burn::data {

template <class I>
class FakeDataset final : public Dataset<I> {
  public:
    /// len items; generator(Rng&) makes one (it must not keep state between calls for the items to be
    /// reproducible).
    template <class F>
    FakeDataset(std::size_t len, uint64_t seed, F&& generator)
        : len_(len), seed_(seed), generator_(std::forward<F>(generator)) {}
    std::optional<I> get(std::size_t index) const override {
        if (index >= len_) return std::nullopt;
        Rng rng(derive_seed(seed_, index));
        return generator_(rng);
    }
    std::size_t len() const override { return len_; }
    uint64_t seed() const { return seed_; }

  private:
    std::size_t len_;
    uint64_t seed_;
    std::function<I(Rng&)> generator_;
};
template <class F>
FakeDataset(std::size_t, uint64_t, F&&) -> FakeDataset<std::decay_t<std::invoke_result_t<F&, Rng&>>>;

}  // namespace burn::data
