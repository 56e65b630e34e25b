#pragma once
// Device-wide stable radix sort of (key, i32 value) pairs through CUB (radix_sort.cu), shared by the
// sort kernels (long lines) and the deterministic select_add. Runs on the op's stream; CUB's
// temporary storage comes from the caching allocator.
#include <cstdint>

namespace burn::cuda {

/// Which of the two buffers holds the sorted keys and values.
struct SortedIn {
    int keys = 0, vals = 0;
};

/// Sorts n pairs by key bits [0, end_bit), stably (equal keys keep their input order). keys[0] and
/// vals[0] hold the input; keys[1] and vals[1] are scratch of the same length; both may be overwritten.
SortedIn radix_sort_pairs(uint32_t* const keys[2], int32_t* const vals[2], int64_t n, int end_bit);
SortedIn radix_sort_pairs(uint64_t* const keys[2], int32_t* const vals[2], int64_t n, int end_bit);

/// The number of bits that hold every value in [0, max_value].
inline int bits_for(uint64_t max_value) {
    int b = 0;
    while (b < 64 && (max_value >> b) != 0) ++b;
    return b;
}

}  // namespace burn::cuda
