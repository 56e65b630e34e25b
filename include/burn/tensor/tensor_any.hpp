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

    // What Param<T> and the module walks ask of a tensor, so that Param<TensorAny> is a parameter of
    // any rank (an imported ONNX model's initializers: onnx::Model::params).
    const TensorAny& handle() const { return *this; }
    /// The tensor on device (this one when it is there already).
    TensorAny to_device(const Device& device) const;
    /// This tensor marked (or unmarked) as requiring gradients on an autodiff device.
    TensorAny set_require_grad(bool on) const;

  private:
    const TensorImpl& get() const {
        if (!impl_) detail::throw_undefined_tensor();
        return *impl_;
    }
    TensorRef impl_;
};

}  // namespace burn
