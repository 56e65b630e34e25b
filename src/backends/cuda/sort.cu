// sort / topk along one dim. Keys follow the CPU's order: floats map to unsigned keys (-0 == +0, NaN
// above +inf, so NaN is last ascending and first descending), descending complements them, and the
// index breaks ties, so the result is the stable sort's, bit for bit.
// Lines of up to 4096 values: one block per line, a bitonic sort of (key, index) pairs in shared
// memory. Longer lines: CUB's device-wide stable radix sort of (key, position) over a chunk of lines,
// then a second stable sort by line number (positions of one line stay in key order), then a gather.
#include "backends/cuda/kernels.cuh"
#include "backends/cuda/radix_sort.hpp"

namespace burn::cuda {

namespace {

constexpr int64_t kMaxLine = 4096;

template <class T>
__device__ __forceinline__ unsigned long long sort_key(T v, bool desc) {
    unsigned long long k;
    int bits = 32;
    if constexpr (std::is_same_v<T, double>) {
        const double x = v == 0.0 ? 0.0 : v;
        const unsigned long long u = static_cast<unsigned long long>(__double_as_longlong(x));
        k = x != x ? ~0ull : ((u >> 63) ? ~u : (u | (1ull << 63)));
        bits = 64;
    } else if constexpr (std::is_same_v<T, int64_t>) {
        k = static_cast<unsigned long long>(v) ^ (1ull << 63);
        bits = 64;
    } else if constexpr (std::is_floating_point_v<dc_t<T>>) {
        float x = static_cast<float>(dc_t<T>(v));
        if (x == 0.0f) x = 0.0f;
        const unsigned u = __float_as_uint(x);
        k = x != x ? 0xFFFFFFFFull : ((u & 0x80000000u) ? (~u & 0xFFFFFFFFu) : (u | 0x80000000u));
    } else if constexpr (std::is_signed_v<T>) {
        k = static_cast<unsigned>(static_cast<int32_t>(v)) ^ 0x80000000u;
    } else {
        k = static_cast<unsigned>(v);
    }
    if (desc) k = bits == 64 ? ~k : (~k & 0xFFFFFFFFull);
    return k;
}

template <class T>
__global__ void sort_k(const T* x, T* values, int32_t* indices, int64_t n, int64_t inner, int64_t kout, int p,
                       bool desc) {
    extern __shared__ unsigned long long smem[];
    unsigned long long* keys = smem;
    unsigned* idx = reinterpret_cast<unsigned*>(smem + p);
    const int64_t line = blockIdx.x;  // over outer * inner
    const int64_t o = line / inner, j = line - o * inner;
    const T* xl = x + o * n * inner + j;
    for (int i = threadIdx.x; i < p; i += blockDim.x) {
        if (i < n) {
            keys[i] = sort_key(xl[i * inner], desc);
            idx[i] = static_cast<unsigned>(i);
        } else {
            keys[i] = ~0ull;
            idx[i] = 0xFFFFFFFFu;
        }
    }
    __syncthreads();
    for (int k = 2; k <= p; k <<= 1) {
        for (int s = k >> 1; s > 0; s >>= 1) {
            for (int i = threadIdx.x; i < p; i += blockDim.x) {
                const int partner = i ^ s;
                if (partner > i) {
                    const bool up = (i & k) == 0;
                    const unsigned long long ka = keys[i], kb = keys[partner];
                    const unsigned ia = idx[i], ib = idx[partner];
                    const bool greater = ka > kb || (ka == kb && ia > ib);
                    if (greater == up) {
                        keys[i] = kb;
                        keys[partner] = ka;
                        idx[i] = ib;
                        idx[partner] = ia;
                    }
                }
            }
            __syncthreads();
        }
    }
    T* vl = values + o * kout * inner + j;
    int32_t* il = indices + o * kout * inner + j;
    for (int i = threadIdx.x; i < kout; i += blockDim.x) {
        const unsigned src = idx[i];
        vl[i * inner] = xl[static_cast<int64_t>(src) * inner];
        il[i * inner] = static_cast<int32_t>(src);
    }
}

/// The radix key of each dtype and its width: sort_key's order in as few bits as the dtype needs
/// (bool and 8-bit ints: 8; 16-bit floats and ints: 16; 32-bit: 32; 64-bit: 64).
template <class T>
struct RadixKey {
    using K = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    static constexpr int bits = 8 * static_cast<int>(sizeof(T));
};

template <class T>
__device__ __forceinline__ typename RadixKey<T>::K radix_key(T v, bool desc) {
    using K = typename RadixKey<T>::K;
    constexpr int bits = RadixKey<T>::bits;
    K k;
    if constexpr (is_half_v<T>) {  // the 16-bit pattern mapped like a float's (NaN highest, -0 == +0)
        uint32_t u;
        if constexpr (std::is_same_v<T, __half>)
            u = __half_as_ushort(v);
        else
            u = __bfloat16_as_ushort(v);
        const float f = static_cast<float>(v);
        if (f != f)
            k = 0xFFFFu;
        else if (f == 0.0f)
            k = 0x8000u;
        else
            k = (u & 0x8000u) ? (~u & 0xFFFFu) : (u | 0x8000u);
    } else if constexpr (std::is_same_v<T, int16_t>) {
        k = static_cast<K>(static_cast<int32_t>(v) + 32768);
    } else if constexpr (std::is_same_v<T, int8_t>) {
        k = static_cast<K>(static_cast<int32_t>(v) + 128);
    } else {
        k = static_cast<K>(sort_key(v, false));
    }
    constexpr K mask = bits == 8 * static_cast<int>(sizeof(K)) ? ~K{0} : ((K{1} << bits) - 1);
    return desc ? static_cast<K>(mask ^ k) : k;
}

/// keys[p], pos[p] = the key of value i of line line0 + p / n (p = local line * n + i), and p.
template <class T, class K>
__global__ void radix_keys_k(const T* x, K* keys, int32_t* pos, int64_t n, int64_t inner, int64_t line0,
                             int64_t total, bool desc) {
    BURN_GRID_STRIDE(p, total) {
        const int64_t lc = p / n, i = p - lc * n;
        const int64_t l = line0 + lc, o = l / inner, j = l - o * inner;
        keys[p] = radix_key(x[(o * n + i) * inner + j], desc);
        pos[p] = static_cast<int32_t>(p);
    }
}

/// The local line of each sorted position: the key of the second sort.
__global__ void line_of_k(const int32_t* pos, uint32_t* line, int64_t n, int64_t total) {
    BURN_GRID_STRIDE(p, total) line[p] = static_cast<uint32_t>(pos[p] / n);
}

/// The first kout of each line's order: values gathered from x and the indices.
template <class T>
__global__ void radix_emit_k(const T* x, const int32_t* pos, T* values, int32_t* indices, int64_t n,
                             int64_t inner, int64_t kout, int64_t line0, int64_t count) {
    BURN_GRID_STRIDE(q, count) {
        const int64_t lc = q / kout, r = q - lc * kout;
        const int64_t i = static_cast<int64_t>(pos[lc * n + r]) - lc * n;
        const int64_t l = line0 + lc, o = l / inner, j = l - o * inner;
        values[(o * kout + r) * inner + j] = x[(o * n + i) * inner + j];
        indices[(o * kout + r) * inner + j] = static_cast<int32_t>(i);
    }
}

constexpr int64_t kChunk = int64_t(1) << 26;  // values sorted at once (bounds the scratch memory)

template <class T>
void radix_sort_lines(const T* x, T* values, int32_t* indices, int64_t n, int64_t inner, int64_t kout,
                      int64_t lines, bool desc) {
    using K = typename RadixKey<T>::K;
    const int64_t per = std::max<int64_t>(1, std::min<int64_t>(lines, kChunk / n));
    const int64_t cap = per * n;
    auto key_mem = scratch(static_cast<std::size_t>(2 * cap) * sizeof(K));
    auto pos_mem = scratch(static_cast<std::size_t>(2 * cap) * sizeof(int32_t));
    K* const keys[2] = {static_cast<K*>(key_mem->data), static_cast<K*>(key_mem->data) + cap};
    int32_t* const pos[2] = {static_cast<int32_t*>(pos_mem->data),
                             static_cast<int32_t*>(pos_mem->data) + cap};
    // The second sort's keys reuse the first's memory (a uint32_t fits where a K did).
    uint32_t* const line_keys[2] = {static_cast<uint32_t*>(key_mem->data),
                                    static_cast<uint32_t*>(key_mem->data) + cap};
    for (int64_t line0 = 0; line0 < lines; line0 += per) {
        const int64_t cl = std::min(per, lines - line0), total = cl * n;
        radix_keys_k<T, K><<<blocks_for(total), kThreads, 0, ctx().stream>>>(x, keys[0], pos[0], n, inner,
                                                                             line0, total, desc);
        BURN_CUDA_LAUNCHED();
        const SortedIn s1 = radix_sort_pairs(keys, pos, total, RadixKey<T>::bits);
        int at = s1.vals;
        if (cl > 1) {
            int32_t* const by_line[2] = {pos[at], pos[1 - at]};
            line_of_k<<<blocks_for(total), kThreads, 0, ctx().stream>>>(by_line[0], line_keys[0], n, total);
            BURN_CUDA_LAUNCHED();
            const SortedIn s2 =
                radix_sort_pairs(line_keys, by_line, total, bits_for(static_cast<uint64_t>(cl - 1)));
            at = s2.vals == 0 ? at : 1 - at;
        }
        const int64_t count = cl * kout;
        radix_emit_k<T><<<blocks_for(count), kThreads, 0, ctx().stream>>>(x, pos[at], values, indices, n,
                                                                          inner, kout, line0, count);
        BURN_CUDA_LAUNCHED();
    }
}

TensorRefs sort_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const auto sa = call.attrs<attrs::Sort>();
    const int dim = static_cast<int>(sa.dim);
    const bool desc = sa.descending;
    const int64_t n = x.shape[dim];
    const int64_t kout = sa.k >= 0 ? sa.k : n;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < dim; ++i) outer *= x.shape[i];
    for (int i = dim + 1; i < x.shape.rank(); ++i) inner *= x.shape[i];
    auto values = alloc(call.shape, x.dtype);
    auto indices = alloc(call.shape, DType::i32);
    const int64_t lines = outer * inner;
    if (lines == 0 || kout == 0) return {values, indices};
    if (n > kMaxLine || lines >= (int64_t(1) << 31)) {
        dispatch_all(x.dtype, [&](auto tag) {
            using T = decltype(tag);
            radix_sort_lines<T>(x.data<T>(), values->data<T>(), indices->data<int32_t>(), n, inner, kout,
                                lines, desc);
        });
        return {values, indices};
    }
    int p = 1;
    while (p < n) p <<= 1;
    const std::size_t shared = static_cast<std::size_t>(p) * (sizeof(unsigned long long) + sizeof(unsigned));
    dispatch_all(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        sort_k<T><<<static_cast<unsigned>(lines), kThreads, shared, ctx().stream>>>(
            x.data<T>(), values->data<T>(), indices->data<int32_t>(), n, inner, kout, p, desc);
    });
    BURN_CUDA_LAUNCHED();
    return {values, indices};
}

}  // namespace

void register_sort(KernelTable& t) {
    t[idx(OpId::sort)] = {&sort_kernel, nullptr};
}

}  // namespace burn::cuda
