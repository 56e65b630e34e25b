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
    /// Every element in one run of numel() slots from offset, in some order of the dims (row-major is
    /// one, channels-last another): positive strides without gaps or overlaps. Size-1 dims may have any
    /// stride.
    bool is_dense() const {
        int64_t st[kMaxRank], sz[kMaxRank];
        int n = 0;
        for (int d = 0; d < shape.rank(); ++d) {
            if (shape[d] == 1) continue;
            if (shape[d] == 0) return true;
            int i = n++;  // insertion sort by stride, ascending
            for (; i > 0 && st[i - 1] > strides[d]; --i) {
                st[i] = st[i - 1];
                sz[i] = sz[i - 1];
            }
            st[i] = strides[d];
            sz[i] = shape[d];
        }
        int64_t expected = 1;
        for (int i = 0; i < n; ++i) {
            if (st[i] != expected) return false;
            expected *= sz[i];
        }
        return true;
    }
    /// The same shape and strides as o on every dim of size > 1: one layout.
    bool same_layout(const Tensor& o) const {
        if (shape != o.shape) return false;
        for (int d = 0; d < shape.rank(); ++d)
            if (shape[d] != 1 && strides[d] != o.strides[d]) return false;
        return true;
    }
    /// Dense with dim 1 (channels) innermost and the others row-major: [N, C, S...] laid out as
    /// [N, S..., C] (PyTorch's channels_last). Rank 3 to 5 only.
    bool is_channels_last() const {
        if (shape.rank() < 3 || shape.rank() > 5) return false;
        const Dims want = channels_last_strides(shape);
        for (int d = 0; d < shape.rank(); ++d)
            if (shape[d] != 1 && strides[d] != want[d]) return false;
        return true;
    }
    /// The strides of the channels-last layout of shape (rank 3 to 5; see is_channels_last).
    static Dims channels_last_strides(const Dims& shape) {
        Dims st = Dims::filled(shape.rank(), 1);
        int64_t expected = shape[1];
        for (int d = shape.rank() - 1; d >= 2; --d) {
            st[d] = expected;
            expected *= shape[d];
        }
        st[0] = expected;
        return st;
    }
    /// Contiguous from the storage's start and the only user of it (ref_count: the caller's handle's
    /// use count): safe to overwrite in place.
    bool is_unique_dense(long ref_count) const {
        if constexpr (requires { storage->borrowed; }) {
            if (storage->borrowed) return false;  // memory the caller lent (read-only, maybe flash)
        }
        return ref_count == 1 && storage.use_count() == 1 && offset == 0 && is_contiguous() &&
               static_cast<std::size_t>(shape.numel()) * size_of(dtype) <= storage->bytes;
    }
};

}  // namespace burn::strided
