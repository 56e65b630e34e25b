#pragma once
/// TensorAny: the rank-erased tensor handle that backends, autodiff, storage and import work on.
/// Tensor<D, K> is a thin checked view over it.
#include <memory>
#include <utility>

#include "burn/backend/backend.hpp"

namespace burn {

class TensorAny {
public:
    TensorAny() = default;
    explicit TensorAny(TensorRef impl) : impl_(std::move(impl)) {}

    bool defined() const { return impl_ != nullptr; }
    const Dims& shape() const { return impl_->shape; }
    DType dtype() const { return impl_->dtype; }
    const Device& device() const { return impl_->device; }
    int rank() const { return impl_->shape.rank(); }
    int64_t numel() const { return impl_->shape.numel(); }

    const TensorRef& ref() const& { return impl_; }
    TensorRef ref() && { return std::move(impl_); }
    /// Whether two handles share one tensor.
    bool same(const TensorAny& o) const { return impl_ == o.impl_; }

private:
    TensorRef impl_;
};

}  // namespace burn
