#pragma once
/// Reading several tensors in one go (burn's Transaction): each distinct device is flushed once, so
/// a lazy device evaluates the pending graphs of all of them together (shared inputs computed once)
/// and a GPU runs everything queued before the first read waits; then the values come back in the
/// order the tensors were added.
///
///   auto [loss, acc] = ...;
///   std::vector<TensorData> v = Transaction().add(loss).add(accuracy).execute();
#include <cstddef>
#include <vector>

#include "burn/tensor/pending_data.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn {

class Transaction {
  public:
    /// Adds a tensor to read (burn's register); undefined tensors are refused by execute().
    template <std::size_t D, TensorKind K>
    Transaction& add(const Tensor<D, K>& t) {
        tensors_.push_back(t.handle());
        return *this;
    }
    Transaction& add(const TensorAny& t) {
        tensors_.push_back(t);
        return *this;
    }
    std::size_t size() const { return tensors_.size(); }
    /// Flushes every distinct device once, then reads each tensor; one TensorData per add(), in order.
    /// Throws burn::Error naming the position of an undefined tensor (before any device is touched).
    std::vector<TensorData> execute() const;

  private:
    std::vector<TensorAny> tensors_;
};

}  // namespace burn
