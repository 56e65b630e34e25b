#pragma once
/// TensorAny: the rank-erased tensor handle that backends, autodiff, storage and import work on.
/// Tensor<D, K> is a thin checked view over it.
#include <memory>
#include <utility>

#include "burn/backend/tensor_impl.hpp"

namespace burn {

namespace detail {
/// Throws burn::Error: the tensor is undefined (default-constructed).
[[noreturn]] void throw_undefined_tensor();
}  // namespace detail

/// Every accessor but defined(), ref() and same() throws burn::Error on an undefined
/// (default-constructed) handle, so no public entry point dereferences a null tensor.
class TensorAny {
  public:
    TensorAny() = default;
    explicit TensorAny(TensorRef impl) : impl_(std::move(impl)) {}

    bool defined() const { return impl_ != nullptr; }
    const Dims& shape() const { return get().shape; }
    DType dtype() const { return get().dtype; }
    const Device& device() const { return get().device; }
    int rank() const { return get().shape.rank(); }
    int64_t numel() const { return get().shape.numel(); }

    const TensorRef& ref() const& { return impl_; }
    TensorRef ref() && { return std::move(impl_); }
    /// Whether two handles share one tensor.
    bool same(const TensorAny& o) const { return impl_ == o.impl_; }

  private:
    const TensorImpl& get() const {
        if (!impl_) detail::throw_undefined_tensor();
        return *impl_;
    }
    TensorRef impl_;
};

}  // namespace burn
