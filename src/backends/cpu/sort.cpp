// CPU sort kernel: values and i32 indices along one dim, stable, NaN last ascending (first descending)
// like PyTorch. With attrs::Sort::k >= 0 it returns only the first k of that order (topk: nth_element
// + sort).
// Every value maps to an unsigned key whose order is the sort order (-0 == +0, NaN above +inf;
// descending complements it), and (key, index) pairs are sorted: the index breaks ties, so the
// result is that of a stable sort (std::sort for short lines, LSD radix sort for long ones).
#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

namespace {

inline uint32_t key32(float x) {
    if (x != x) return 0xFFFFFFFFu;
    if (x == 0.0f) x = 0.0f;  // -0 sorts equal to +0 (kept in input order)
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

inline uint64_t key64(double x) {
    if (x != x) return ~uint64_t{0};
    if (x == 0.0) x = 0.0;
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return (u >> 63) ? ~u : (u | (uint64_t{1} << 63));
}

/// The key type (uint32_t or uint64_t) and key of each dtype.
template <class T>
auto key_of(T x) {
    if constexpr (std::is_same_v<T, double>) {
        return key64(x);
    } else if constexpr (std::is_same_v<T, int64_t>) {
        return static_cast<uint64_t>(x) ^ (uint64_t{1} << 63);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, f16> || std::is_same_v<T, bf16>) {
        return key32(static_cast<float>(x));
    } else if constexpr (std::is_signed_v<T>) {
        return static_cast<uint32_t>(static_cast<int32_t>(x)) ^ 0x80000000u;
    } else {
        return static_cast<uint32_t>(x);  // u8, bool
    }
}

struct Item64 {
    uint64_t key;
    uint32_t index;
    bool operator<(const Item64& o) const { return key < o.key || (key == o.key && index < o.index); }
};

/// The key bytes of an item, least significant first: the upper 32 bits of a packed (key << 32 | index)
/// or the 64-bit key of an Item64.
inline int key_bytes(const uint64_t&) {
    return 4;
}
inline int key_bytes(const Item64&) {
    return 8;
}
inline unsigned key_byte(uint64_t x, int b) {
    return static_cast<unsigned>(x >> (32 + 8 * b)) & 0xFFu;
}
inline unsigned key_byte(const Item64& x, int b) {
    return static_cast<unsigned>(x.key >> (8 * b)) & 0xFFu;
}

/// Stable LSD radix sort on the key bytes. Items start in index order, so equal keys stay in index
/// order: the result is the (key, index) order. Passes whose byte is the same for all items are skipped.
template <class I>
void radix_sort(std::vector<I>& items, std::vector<I>& tmp) {
    const int passes = key_bytes(items[0]);
    const std::size_t n = items.size();
    std::vector<uint32_t> count(static_cast<std::size_t>(passes) * 256, 0);
    for (const I& x : items)
        for (int b = 0; b < passes; ++b) ++count[static_cast<std::size_t>(b * 256) + key_byte(x, b)];
    tmp.resize(n);
    for (int b = 0; b < passes; ++b) {
        uint32_t* c = count.data() + b * 256;
        if (c[key_byte(items[0], b)] == n) continue;  // one bucket: nothing moves
        uint32_t sum = 0;
        for (int d = 0; d < 256; ++d) {
            const uint32_t v = c[d];
            c[d] = sum;
            sum += v;
        }
        for (const I& x : items) tmp[c[key_byte(x, b)]++] = x;
        items.swap(tmp);
    }
}

/// Orders items (first kout of them when kout < n): nth_element then sort for a top-k, radix sort for
/// long lines, std::sort for short ones.
template <class I>
void order(std::vector<I>& items, std::vector<I>& tmp, int64_t kout) {
    const auto n = static_cast<int64_t>(items.size());
    if (kout < n) {
        if (kout == 0) return;
        std::nth_element(items.begin(), items.begin() + (kout - 1), items.end());
        std::sort(items.begin(), items.begin() + (kout - 1));
    } else if (n >= 64) {
        radix_sort(items, tmp);
    } else {
        std::sort(items.begin(), items.end());
    }
}

template <class T>
void sort_typed(const CpuTensor& x, int dim, bool desc, int64_t kout, CpuTensor& values, CpuTensor& indices) {
    const Dims& shape = x.shape;
    const int r = shape.rank();
    const int64_t n = shape[dim];
    int64_t inner = 1;
    for (int d = dim + 1; d < r; ++d) inner *= shape[d];
    const int64_t lines = shape.numel() / n;
    const T* src = reinterpret_cast<const T*>(x.storage->data);
    const int64_t in_stride = x.strides[dim];
    T* vo = values.data<T>();
    int32_t* io = indices.data<int32_t>();
    using K = decltype(key_of(T{}));
    const K flip = desc ? ~K{0} : K{0};

    platform::parallel_for(lines, std::max<int64_t>(1, 16384 / n), [&](int64_t l0, int64_t l1) {
        std::vector<uint64_t> packed, packed_tmp;  // (key << 32) | index for 32-bit keys
        std::vector<Item64> wide, wide_tmp;        // for 64-bit keys
        for (int64_t l = l0; l < l1; ++l) {
            // Input offset of the line: decompose l over every dim but dim.
            int64_t rem = l, off = x.offset;
            for (int d = r - 1; d >= 0; --d) {
                if (d == dim) continue;
                off += (rem % shape[d]) * x.strides[d];
                rem /= shape[d];
            }
            const T* line = src + off;
            const int64_t out0 = (l / inner) * kout * inner + l % inner;
            auto emit = [&](int64_t j, uint32_t index) {
                vo[out0 + j * inner] = line[static_cast<int64_t>(index) * in_stride];
                io[out0 + j * inner] = static_cast<int32_t>(index);
            };
            if constexpr (sizeof(K) == 4) {
                packed.resize(static_cast<std::size_t>(n));
                for (int64_t i = 0; i < n; ++i)
                    packed[i] = (static_cast<uint64_t>(key_of(line[i * in_stride]) ^ flip) << 32) |
                                static_cast<uint64_t>(i);
                order(packed, packed_tmp, kout);
                for (int64_t j = 0; j < kout; ++j) emit(j, static_cast<uint32_t>(packed[j]));
            } else {
                wide.resize(static_cast<std::size_t>(n));
                for (int64_t i = 0; i < n; ++i)
                    wide[i] = Item64{key_of(line[i * in_stride]) ^ flip, static_cast<uint32_t>(i)};
                order(wide, wide_tmp, kout);
                for (int64_t j = 0; j < kout; ++j) emit(j, wide[j].index);
            }
        }
    });
}

TensorRefs sort_kernel(const OpCall& call, TensorRefs& in) {
    const CpuTensor& x = as_cpu(in[0]);
    const auto a = call.attrs<attrs::Sort>();
    const int dim = static_cast<int>(a.dim);
    const bool desc = a.descending;
    const int64_t kout = a.k >= 0 ? a.k : x.shape[dim];
    auto values = alloc(call.shape, x.dtype, x.device);
    auto indices = alloc(call.shape, DType::i32, x.device);
    if (call.shape.numel() > 0) {
        visit_kernel_dtype(x.dtype, "sort", [&](auto tag) {
            sort_typed<decltype(tag)>(x, dim, desc, kout, *values, *indices);
        });
    }
    return {values, indices};
}

}  // namespace

void register_sort(KernelTable& t) {
    t[idx(OpId::sort)] = &sort_kernel;
}

}  // namespace burn::cpu
