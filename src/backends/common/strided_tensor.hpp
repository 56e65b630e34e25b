#pragma once
// The tensor of every backend whose memory is addressable as one buffer (CPU, CUDA): a shared storage
// viewed through a shape, element strides and an element offset. A backend names its storage type
// (host block, device block); views and in-place reuse are then the same code on each backend
// (strided_ops.hpp). docs/backends.md, "The strided layer".
#include <cstddef>
#include <cstdint>
#include <memory>

#include "burn/backend/backend.hpp"

namespace burn::strided {

/// StorageT has `data` (a pointer to the block's first byte) and `bytes` (its usable size).
template <class StorageT>
struct Tensor : TensorImpl {
    using Storage = StorageT;

    Tensor(Dims shape_, DType dtype_, Device device_, std::shared_ptr<StorageT> storage_, Dims strides_,
           int64_t offset_)
        : TensorImpl(shape_, dtype_, device_),
          storage(std::move(storage_)),
          strides(strides_),
          offset(offset_) {}

    std::shared_ptr<StorageT> storage;
    Dims strides;    // in elements; 0 for broadcast dims, negative for flipped dims
    int64_t offset;  // in elements

    template <class T>
    T* data() const {
        return reinterpret_cast<T*>(storage->data) + offset;
    }
    void* raw() const {
        return reinterpret_cast<uint8_t*>(storage->data) + offset * static_cast<int64_t>(size_of(dtype));
    }
    /// Row-major contiguous (any offset; size-1 dims may have any stride).
    bool is_contiguous() const {
        int64_t expected = 1;
        for (int d = shape.rank() - 1; d >= 0; --d) {
            if (shape[d] != 1 && strides[d] != expected) return false;
            expected *= shape[d];
        }
        return true;
    }
    /// Contiguous from the storage's start and the only user of it (ref_count: the caller's handle's
    /// use count): safe to overwrite in place.
    bool is_unique_dense(long ref_count) const {
        return ref_count == 1 && storage.use_count() == 1 && offset == 0 && is_contiguous() &&
               static_cast<std::size_t>(shape.numel()) * size_of(dtype) <= storage->bytes;
    }
};

}  // namespace burn::strided
