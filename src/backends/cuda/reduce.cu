// Reductions along one dim (sum, mean, prod, max/min with indices, argmax/argmin, any, all) and
// cumsum, cumprod (softmax: softmax.cu). The input is made contiguous and seen as [outer, n, inner].
// inner == 1: a warp (n <= 1024) or a block per row, warp-shuffle trees; few long columns (bias and
// norm gradients): tiles of 32 columns x 8 lanes over chunks of n, combined in a fixed order;
// otherwise one thread per column, walking n (coalesced across the columns). Float sums accumulate in
// double, int sums wrap in uint64, like the CPU backend; index results are the first position of the extreme
// (NaN wins).
#include <cfloat>

#include "backends/cuda/reduce.cuh"

namespace burn::cuda {

namespace {

template <int TPR, class Red>
__global__ void row_reduce_k(Red red, int64_t rows, int64_t n) {
    constexpr int kGroups = kThreads / TPR;
    const int g = threadIdx.x / TPR, t = threadIdx.x % TPR;
    for (int64_t r0 = static_cast<int64_t>(blockIdx.x) * kGroups; r0 < rows;
         r0 += int64_t(gridDim.x) * kGroups) {
        const int64_t r = r0 + g;
        auto acc = red.init();
        if (r < rows)
            for (int64_t k = t; k < n; k += TPR) acc = red.combine(acc, red.load(r * n + k, k));
        acc = group_reduce<TPR>(red, acc);
        if (t == 0 && r < rows) red.store(r, acc);
    }
}

template <class Red>
__global__ void col_reduce_k(Red red, int64_t outer, int64_t n, int64_t inner) {
    BURN_GRID_STRIDE(c, outer * inner) {
        const int64_t o = c / inner, j = c - o * inner;
        const int64_t base = o * n * inner + j;
        auto acc = red.init();
        for (int64_t k = 0; k < n; ++k) acc = red.combine(acc, red.load(base + k * inner, k));
        red.store(c, acc);
    }
}

/// Columns with few outputs and a long n (bias and norm gradients: [8192, 768] summed over the rows):
/// a thread per column leaves most of the chip idle and walks n serially. Here a block of 32 columns
/// x 8 lanes walks a chunk of n (lane l takes rows l, l + 8, ...), the 8 lane totals combine in a
/// fixed order, and with several chunks per column (gridDim.y) a second kernel combines the chunk
/// totals in chunk order: deterministic, run to run.
constexpr int kColTile = 32, kColLanes = 8;

template <class Red>
__global__ void col_split_k(Red red, int64_t outer, int64_t n, int64_t inner, int64_t chunk,
                            typename Red::Acc* partial) {
    using Acc = typename Red::Acc;
    __shared__ alignas(16) unsigned char raw[kColLanes * kColTile * sizeof(Acc)];
    Acc* tile = reinterpret_cast<Acc*>(raw);
    const int64_t tiles = (inner + kColTile - 1) / kColTile;
    const int64_t o = blockIdx.x / tiles, j = (blockIdx.x % tiles) * kColTile + threadIdx.x;
    const int64_t k0 = int64_t(blockIdx.y) * chunk, k1 = min(n, k0 + chunk);
    Acc acc = red.init();
    if (j < inner) {
        const int64_t base = o * n * inner + j;
        for (int64_t k = k0 + threadIdx.y; k < k1; k += kColLanes)
            acc = red.combine(acc, red.load(base + k * inner, k));
    }
    tile[threadIdx.y * kColTile + threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y != 0 || j >= inner) return;
    for (int l = 1; l < kColLanes; ++l) acc = red.combine(acc, tile[l * kColTile + threadIdx.x]);
    const int64_t c = o * inner + j;
    if (gridDim.y == 1)
        red.store(c, acc);
    else
        partial[int64_t(blockIdx.y) * outer * inner + c] = acc;
}

template <class Red>
__global__ void col_combine_k(Red red, const typename Red::Acc* partial, int64_t outs, int chunks) {
    BURN_GRID_STRIDE(c, outs) {
        auto acc = partial[c];
        for (int q = 1; q < chunks; ++q) acc = red.combine(acc, partial[q * outs + c]);
        red.store(c, acc);
    }
}

template <class Red>
void run_col_split(const Red& red, const Geometry& g) {
    using Acc = typename Red::Acc;
    cudaStream_t s = ctx().stream;
    const int64_t outs = g.outer * g.inner;
    const int64_t blocks = g.outer * ((g.inner + kColTile - 1) / kColTile);
    // about 4 blocks per SM in all, each chunk at least 64 rows deep
    int64_t chunks = std::max<int64_t>(1, std::min<int64_t>((4 * 132 + blocks - 1) / blocks, g.n / 64));
    chunks = std::min<int64_t>(chunks, 1024);
    const int64_t chunk = (g.n + chunks - 1) / chunks;
    chunks = (g.n + chunk - 1) / chunk;
    std::shared_ptr<Storage> ws;
    Acc* partial = nullptr;
    if (chunks > 1) {
        ws = scratch(static_cast<std::size_t>(chunks * outs) * sizeof(Acc));
        partial = static_cast<Acc*>(ws->data);
    }
    col_split_k<<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(chunks)),
                  dim3(kColTile, kColLanes), 0, s>>>(red, g.outer, g.n, g.inner, chunk, partial);
    if (chunks > 1) col_combine_k<<<blocks_for(outs), kThreads, 0, s>>>(red, partial, outs, int(chunks));
}

template <class Red>
void run_reduce(const Red& red, const Geometry& g) {
    const int64_t outs = g.outer * g.inner;
    if (outs == 0) return;
    cudaStream_t s = ctx().stream;
    if (g.inner > 1 && g.n >= 64 && outs < 132 * 1024) {
        run_col_split(red, g);
    } else if (g.inner == 1 && g.n > 1024) {
        row_reduce_k<kThreads><<<blocks_for(g.outer * kThreads), kThreads, 0, s>>>(red, g.outer, g.n);
    } else if (g.inner == 1 && g.n > 16) {
        row_reduce_k<32><<<blocks_for(g.outer * 32), kThreads, 0, s>>>(red, g.outer, g.n);
    } else {
        col_reduce_k<<<blocks_for(outs), kThreads, 0, s>>>(red, g.outer, g.n, g.inner);
    }
    BURN_CUDA_LAUNCHED();
}

// ---- value reductions
enum class VK { sum, mean, prod, any, all };

template <class T>
using wide_t = std::conditional_t<std::is_floating_point_v<T>, double, unsigned long long>;

template <VK K, class T>
struct ValueRed {
    using Acc = std::conditional_t<K == VK::any || K == VK::all, int, wide_t<T>>;
    using Out = std::conditional_t<K == VK::any || K == VK::all, bool, T>;
    const T* x;
    Out* out;
    int64_t n;
    __device__ Acc init() const {
        if constexpr (K == VK::prod || K == VK::all)
            return Acc(1);
        else
            return Acc(0);
    }
    __device__ Acc load(int64_t i, int64_t) const {
        if constexpr (K == VK::any || K == VK::all)
            return x[i] != T(0) ? 1 : 0;
        else if constexpr (std::is_floating_point_v<T>)
            return Acc(x[i]);
        else
            return static_cast<Acc>(static_cast<long long>(x[i]));
    }
    __device__ Acc combine(Acc a, Acc b) const {
        if constexpr (K == VK::prod)
            return a * b;
        else if constexpr (K == VK::any)
            return a | b;
        else if constexpr (K == VK::all)
            return a & b;
        else
            return a + b;
    }
    __device__ void store(int64_t r, Acc a) const {
        if constexpr (K == VK::any || K == VK::all) {
            out[r] = a != 0;
        } else if constexpr (K == VK::mean) {
            if constexpr (std::is_floating_point_v<T>)
                out[r] = T(a / double(n));
            else
                out[r] = T(static_cast<long long>(a) / n);
        } else {
            out[r] = T(a);
        }
    }
};

template <VK K>
TensorRefs value_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    auto out = alloc(call.shape, call.dtype);
    auto body = [&](auto tag) {
        using T = decltype(tag);
        using R = ValueRed<K, T>;
        run_reduce(R{x.data<T>(), out->data<typename R::Out>(), g.n}, g);
    };
    if constexpr (K == VK::any || K == VK::all) {
        if (x.dtype == DType::boolean)
            body(bool{});
        else
            dispatch_numeric(x.dtype, body);
    } else {
        dispatch_numeric(x.dtype, body);
    }
    return {out};
}

// ---- index reductions
template <class T>
struct Best {
    T v;
    int32_t i;
};

template <bool IsMax, class T>
struct IndexRed {
    using Acc = Best<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
    const T* x;
    T* values;  // may be null
    int32_t* indices;
    __device__ Acc init() const { return Acc{decltype(Acc::v)(0), -1}; }
    __device__ Acc load(int64_t i, int64_t k) const {
        return Acc{decltype(Acc::v)(x[i]), static_cast<int32_t>(k)};
    }
    __device__ Acc combine(Acc a, Acc b) const {
        if (a.i < 0) return b;
        if (b.i < 0) return a;
        const bool an = dev_isnan(a.v), bn = dev_isnan(b.v);
        if (an || bn) {
            if (an && bn) return a.i < b.i ? a : b;
            return an ? a : b;
        }
        if (IsMax ? b.v > a.v : b.v < a.v) return b;
        if (b.v == a.v && b.i < a.i) return b;
        return a;
    }
    __device__ void store(int64_t r, Acc a) const {
        if (values) values[r] = T(a.v);
        indices[r] = a.i;
    }
};

template <bool IsMax, bool WithValues>
TensorRefs index_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    std::shared_ptr<CudaTensor> values;
    if (WithValues) values = alloc(call.shape, x.dtype);
    auto indices = alloc(call.shape, DType::i32);
    dispatch_numeric(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        run_reduce(IndexRed<IsMax, T>{x.data<T>(), WithValues ? values->data<T>() : nullptr,
                                      indices->data<int32_t>()},
                   g);
    });
    if (WithValues) return {values, indices};
    return {indices};
}

// ---- cumsum, cumprod: a thread per row or column, serial along n (the CPU's order: bit-equal sums)
template <bool Prod, class T>
__global__ void scan_k(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
    using A = wide_t<T>;
    BURN_GRID_STRIDE(c, outer * inner) {
        const int64_t o = c / inner, j = c - o * inner;
        const int64_t base = o * n * inner + j;
        A acc = Prod ? A(1) : A(0);
        for (int64_t k = 0; k < n; ++k) {
            A v;
            if constexpr (std::is_floating_point_v<T>)
                v = A(x[base + k * inner]);
            else
                v = static_cast<A>(static_cast<long long>(x[base + k * inner]));
            if constexpr (Prod)
                acc *= v;
            else
                acc += v;
            y[base + k * inner] = T(acc);
        }
    }
}

template <bool Prod>
TensorRefs scan_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    auto out = alloc(call.shape, call.dtype);
    if (x.shape.numel() == 0) return {out};
    dispatch_numeric(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        scan_k<Prod, T><<<blocks_for(g.outer * g.inner), kThreads, 0, ctx().stream>>>(
            x.data<T>(), out->data<T>(), g.outer, g.n, g.inner);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

bool numeric_ok(const OpCall&, const TensorRefs& in) {
    return !in.empty() && in[0]->dtype != DType::boolean;
}
bool any_ok(const OpCall&, const TensorRefs& in) {
    return !in.empty();
}

}  // namespace

void register_reduce(KernelTable& t) {
    // f16/bf16 reduce in f32 and i16/i8/u8 in i64 (widening), as the CPU backend computes them.
    t[idx(OpId::sum_dim)] = {&widening<&value_kernel<VK::sum>>, &numeric_ok};
    t[idx(OpId::mean_dim)] = {&widening<&value_kernel<VK::mean>>, &numeric_ok};
    t[idx(OpId::prod_dim)] = {&widening<&value_kernel<VK::prod>>, &numeric_ok};
    t[idx(OpId::any_dim)] = {&widening<&value_kernel<VK::any>>, &any_ok};
    t[idx(OpId::all_dim)] = {&widening<&value_kernel<VK::all>>, &any_ok};
    t[idx(OpId::max_dim)] = {&widening<&index_kernel<true, true>>, &numeric_ok};
    t[idx(OpId::min_dim)] = {&widening<&index_kernel<false, true>>, &numeric_ok};
    t[idx(OpId::argmax)] = {&widening<&index_kernel<true, false>>, &numeric_ok};
    t[idx(OpId::argmin)] = {&widening<&index_kernel<false, false>>, &numeric_ok};
    t[idx(OpId::cumsum)] = {&widening<&scan_kernel<false>>, &numeric_ok};
    t[idx(OpId::cumprod)] = {&widening<&scan_kernel<true>>, &numeric_ok};
}

}  // namespace burn::cuda
