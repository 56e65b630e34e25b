#pragma once
/// Batcher<Item, Batch>: turns a list of items into a batch of tensors on a device (burn's Batcher).
///
///     struct MyBatcher : data::Batcher<MyItem, MyBatch> {
///         MyBatch batch(std::vector<MyItem> items, const Device& device) const override { ... }
///     };
///
/// batch() is const and must be safe to call from several threads at once (data loader workers).
#include <utility>
#include <vector>

#include "burn/core/device.hpp"

namespace burn::data {

template <class I, class B>
class Batcher {
  public:
    using item_type = I;
    using batch_type = B;
    virtual ~Batcher() = default;
    virtual B batch(std::vector<I> items, const Device& device) const = 0;
};

namespace detail {
template <class I, class B>
std::pair<I, B> batcher_types_of(const Batcher<I, B>*);
}  // namespace detail

/// The item and batch types of a class derived from Batcher<I, B>.
template <class Bt>
using batcher_item_t =
    typename decltype(detail::batcher_types_of(static_cast<const Bt*>(nullptr)))::first_type;
template <class Bt>
using batcher_batch_t =
    typename decltype(detail::batcher_types_of(static_cast<const Bt*>(nullptr)))::second_type;

}  // namespace burn::data
