#pragma once
/// DimIter: what Tensor<D, K>::iter_dim(dim) returns (burn's DimIter), the slices of one dim in order,
/// each a view of rank D with that dim of size 1. Lazy: a slice is made when an iterator is read.
///
///     for (Tensor<2> row : x.iter_dim(0)) ...            // x [n, m]: rows [1, m]
///     for (auto it = x.iter_dim(1).rbegin(); ...)        // backwards
///     Tensor<2> last = x.iter_dim(0)[-1];                // a negative index counts from the end
///
/// Included at the end of tensor.hpp (it needs the complete Tensor).
#include <cstddef>
#include <iterator>

#include "burn/tensor/tensor.hpp"

namespace burn {

template <std::size_t D, TensorKind K>
class DimIter {
  public:
    /// A bidirectional iterator whose reads give tensors by value (each read makes a view).
    class iterator {
      public:
        using iterator_category = std::bidirectional_iterator_tag;
        using value_type = Tensor<D, K>;
        using difference_type = std::ptrdiff_t;
        using reference = Tensor<D, K>;
        using pointer = void;

        iterator() = default;
        Tensor<D, K> operator*() const { return Tensor<D, K>(ops::iter_dim_item(t_, dim_, i_)); }
        iterator& operator++() {
            ++i_;
            return *this;
        }
        iterator operator++(int) {
            iterator r = *this;
            ++i_;
            return r;
        }
        iterator& operator--() {
            --i_;
            return *this;
        }
        iterator operator--(int) {
            iterator r = *this;
            --i_;
            return r;
        }
        bool operator==(const iterator& o) const { return i_ == o.i_; }
        bool operator!=(const iterator& o) const { return i_ != o.i_; }

      private:
        friend class DimIter;
        iterator(TensorAny t, int64_t dim, int64_t i) : t_(std::move(t)), dim_(dim), i_(i) {}
        TensorAny t_;
        int64_t dim_ = 0;
        int64_t i_ = 0;
    };
    using reverse_iterator = std::reverse_iterator<iterator>;

    /// x's slices along dim (negative: from the end); an error names a dim outside the rank.
    DimIter(TensorAny x, int64_t dim) : t_(std::move(x)) {
        const auto r = static_cast<int64_t>(D);
        BURN_CHECK_KIND(dim >= -r && dim < r, shape, "[iter_dim] dim ", dim, " is out of range for ",
                        t_.shape(), "; pass a dim in [", -r, ", ", r, ")");
        dim_ = dim < 0 ? dim + r : dim;
        n_ = t_.shape()[static_cast<int>(dim_)];
    }

    /// The number of slices (the dim's size).
    int64_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    /// The slice at index i (negative: from the end).
    Tensor<D, K> operator[](int64_t i) const { return Tensor<D, K>(ops::iter_dim_item(t_, dim_, i)); }

    iterator begin() const { return iterator(t_, dim_, 0); }
    iterator end() const { return iterator(t_, dim_, n_); }
    reverse_iterator rbegin() const { return reverse_iterator(end()); }
    reverse_iterator rend() const { return reverse_iterator(begin()); }

  private:
    TensorAny t_;
    int64_t dim_ = 0;
    int64_t n_ = 0;
};

}  // namespace burn
