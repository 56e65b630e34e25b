// sort / topk along one dim: one block per line, a bitonic sort of (key, index) pairs in shared memory
// (lines of up to 4096 values; longer ones are not supported yet). Keys follow the CPU's order: floats
// map to unsigned keys (-0 == +0, NaN above +inf), descending complements them, and the index breaks
// ties, so the result is the stable sort's, bit for bit.
#include "backends/cuda/kernels.cuh"

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

TensorRefs sort_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const int dim = static_cast<int>(call.ints[0]);
    const bool desc = call.ints[1] != 0;
    const int64_t n = x.shape[dim];
    const int64_t kout = call.ints.size() > 2 ? call.ints[2] : n;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < dim; ++i) outer *= x.shape[i];
    for (int i = dim + 1; i < x.shape.rank(); ++i) inner *= x.shape[i];
    auto values = alloc(call.shape, x.dtype);
    auto indices = alloc(call.shape, DType::i32);
    const int64_t lines = outer * inner;
    if (lines == 0 || kout == 0) return {values, indices};
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

bool sort_ok(const OpCall& call, const TensorRefs& in) {
    if (in.empty()) return false;
    const int dim = static_cast<int>(call.ints[0]);
    int64_t lines = 1;
    for (int i = 0; i < in[0]->shape.rank(); ++i)
        if (i != dim) lines *= in[0]->shape[i];
    return in[0]->shape[dim] <= kMaxLine && lines < (int64_t(1) << 31);
}

}  // namespace

void register_sort(KernelTable& t) {
    t[idx(OpId::sort)] = {&sort_kernel, &sort_ok};
}

}  // namespace burn::cuda
