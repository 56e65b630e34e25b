// CUB's DeviceRadixSort behind radix_sort.hpp: instantiated here once for the two key widths, so the
// other .cu files do not compile CUB.
#include <cub/device/device_radix_sort.cuh>

#include "backends/cuda/cuda_internal.hpp"
#include "backends/cuda/radix_sort.hpp"

namespace burn::cuda {

namespace {

template <class K>
SortedIn sort_pairs(K* const keys[2], int32_t* const vals[2], int64_t n, int end_bit) {
    if (n <= 1 || end_bit <= 0) return {};
    cub::DoubleBuffer<K> kb(keys[0], keys[1]);
    cub::DoubleBuffer<int32_t> vb(vals[0], vals[1]);
    std::size_t bytes = 0;
    BURN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, n, 0, end_bit, ctx().stream));
    auto temp = scratch(bytes);  // back to the cache at return: later users are ordered by the stream
    BURN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp->data, bytes, kb, vb, n, 0, end_bit, ctx().stream));
    return {kb.selector, vb.selector};
}

}  // namespace

SortedIn radix_sort_pairs(uint32_t* const keys[2], int32_t* const vals[2], int64_t n, int end_bit) {
    return sort_pairs(keys, vals, n, end_bit);
}

SortedIn radix_sort_pairs(uint64_t* const keys[2], int32_t* const vals[2], int64_t n, int end_bit) {
    return sort_pairs(keys, vals, n, end_bit);
}

}  // namespace burn::cuda
