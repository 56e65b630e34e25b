#pragma once
/// Replay memory (burn-rl's TransitionBuffer): a circular buffer of a fixed capacity that overwrites its
/// oldest items once full, sampled uniformly at random for off-policy learning.
///
///     rl::TransitionBuffer<rl::Transition> buffer(10000);
///     buffer.append(rollout.transitions);
///     auto batch = rl::TransitionBatch::from(buffer.random_sample(32, rng), device);
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/rng.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::rl {

/// One step of an environment.
struct Transition {
    std::vector<float> state;
    int64_t action = 0;
    double reward = 0;
    std::vector<float> next_state;
    bool done = false;  // next_state is terminal (a truncated episode's last state is not)
};

template <class T>
class TransitionBuffer {
  public:
    explicit TransitionBuffer(std::size_t capacity) : capacity_(capacity) {
        BURN_CHECK(capacity >= 1, "[TransitionBuffer] the capacity must be at least 1, got 0");
        items_.reserve(capacity);
    }
    /// Adds an item, overwriting the oldest when full.
    void push(T item) {
        if (items_.size() < capacity_) {
            items_.push_back(std::move(item));
        } else {
            items_[cursor_] = std::move(item);
            cursor_ = (cursor_ + 1) % capacity_;
        }
    }
    /// Adds items in order (the same as pushing each).
    void append(std::vector<T> items) {
        for (auto& item : items) push(std::move(item));
    }
    std::size_t size() const { return items_.size(); }
    std::size_t capacity() const { return capacity_; }
    bool empty() const { return items_.empty(); }
    void clear() {
        items_.clear();
        cursor_ = 0;
    }
    /// The items in storage order (a full buffer overwrites slot by slot, so this is not age order).
    const std::vector<T>& items() const { return items_; }
    /// The items at these storage indices. Throws burn::IndexError for an index past size().
    std::vector<const T*> sample(const std::vector<std::size_t>& indices) const {
        std::vector<const T*> out;
        out.reserve(indices.size());
        for (std::size_t i : indices) {
            BURN_CHECK_KIND(i < items_.size(), index, "[TransitionBuffer::sample] index ", i, " is past the ",
                            items_.size(), " items stored");
            out.push_back(&items_[i]);
        }
        return out;
    }
    /// n distinct items chosen uniformly by rng. Throws when fewer than n are stored.
    std::vector<const T*> random_sample(std::size_t n, data::Rng& rng) const {
        BURN_CHECK(n <= items_.size(), "[TransitionBuffer::random_sample] asked for ", n, " items but only ",
                   items_.size(), " are stored; wait until the buffer holds a batch");
        std::vector<std::size_t> order(items_.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        for (std::size_t i = 0; i < n; ++i)  // partial Fisher-Yates: the first n are a uniform sample
            std::swap(order[i], order[i + static_cast<std::size_t>(rng.below(order.size() - i))]);
        order.resize(n);
        return sample(order);
    }

  private:
    std::vector<T> items_;
    std::size_t capacity_, cursor_ = 0;
};

/// Transitions as tensors: states and next_states [n, observation_size], actions [n], rewards and
/// dones (1 for a terminal next state) [n].
struct TransitionBatch {
    Tensor<2> states, next_states;
    Tensor<1, Int> actions;
    Tensor<1> rewards, dones;
    /// Throws burn::ShapeError when the transitions' states differ in length.
    static TransitionBatch from(const std::vector<const Transition*>& transitions, const Device& device);
};

}  // namespace burn::rl
