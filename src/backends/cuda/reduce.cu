// Reductions along one dim (sum, mean, prod, max/min with indices, argmax/argmin, any, all), cumsum
// and fused softmax / log_softmax. The input is made contiguous and seen as [outer, n, inner].
// inner == 1: a warp (n <= 1024) or a block per row, warp-shuffle trees; otherwise one thread per
// column, walking n (coalesced across the columns). Float sums accumulate in double, int sums wrap
// in uint64, like the CPU backend; index results are the first position of the extreme (NaN wins).
#include <cfloat>

#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

struct Geometry {
    int64_t outer = 1, n = 1, inner = 1;
};
Geometry geometry(const Dims& shape, int dim) {
    Geometry g;
    for (int i = 0; i < dim; ++i) g.outer *= shape[i];
    g.n = shape[dim];
    for (int i = dim + 1; i < shape.rank(); ++i) g.inner *= shape[i];
    return g;
}

template <class T>
__device__ __forceinline__ T shfl_down(T v, int delta) {
    static_assert(sizeof(T) % 4 == 0, "shuffle needs 4-byte words");
    constexpr int W = sizeof(T) / 4;
    union U {
        T t;
        int w[W];
        __device__ U() {}
    } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < W; ++k) out.w[k] = __shfl_down_sync(0xffffffffu, in.w[k], delta);
    return out.t;
}

/// Reduces v over a group of TPR threads (32: a warp; 256: the block); the result is valid in the
/// group's thread 0.
template <int TPR, class Red>
__device__ typename Red::Acc group_reduce(const Red& red, typename Red::Acc v) {
    using Acc = typename Red::Acc;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v = red.combine(v, shfl_down(v, d));
    if constexpr (TPR > 32) {
        __shared__ alignas(16) unsigned char raw[32 * sizeof(Acc)];
        Acc* smem = reinterpret_cast<Acc*>(raw);
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        __syncthreads();  // smem reuse across rows
        if (lane == 0) smem[warp] = v;
        __syncthreads();
        if (warp == 0) {
            v = lane < TPR / 32 ? smem[lane] : red.init();
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) v = red.combine(v, shfl_down(v, d));
        }
    }
    return v;
}

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

template <class Red>
void run_reduce(const Red& red, const Geometry& g) {
    const int64_t outs = g.outer * g.inner;
    if (outs == 0) return;
    cudaStream_t s = ctx().stream;
    if (g.inner == 1 && g.n > 1024) {
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
    const Geometry g = geometry(x.shape, static_cast<int>(call.ints[0]));
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
    const Geometry g = geometry(x.shape, static_cast<int>(call.ints[0]));
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

// ---- cumsum: a thread per row or column, serial along n (the CPU's order: bit-equal sums)
template <class T>
__global__ void cumsum_k(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
    using A = wide_t<T>;
    BURN_GRID_STRIDE(c, outer * inner) {
        const int64_t o = c / inner, j = c - o * inner;
        const int64_t base = o * n * inner + j;
        A acc = 0;
        for (int64_t k = 0; k < n; ++k) {
            if constexpr (std::is_floating_point_v<T>)
                acc += A(x[base + k * inner]);
            else
                acc += static_cast<A>(static_cast<long long>(x[base + k * inner]));
            y[base + k * inner] = T(acc);
        }
    }
}

TensorRefs cumsum_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.ints[0]));
    auto out = alloc(call.shape, call.dtype);
    if (x.shape.numel() == 0) return {out};
    dispatch_numeric(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        cumsum_k<T><<<blocks_for(g.outer * g.inner), kThreads, 0, ctx().stream>>>(x.data<T>(), out->data<T>(),
                                                                                  g.outer, g.n, g.inner);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

// ---- softmax: max, sum of exp, then write; one group per row or one thread per column

/// Online softmax statistics: the running max m and the sum s of exp(x - m).
template <class T>
struct MS {
    T m, s;
};
template <class T>
struct MSRed {
    using Acc = MS<T>;
    __device__ Acc init() const { return Acc{-INFINITY, T(0)}; }
    __device__ Acc combine(Acc a, Acc b) const {
        if (a.m == -INFINITY) return b;
        if (b.m == -INFINITY) return a;
        const T m = a.m > b.m ? a.m : b.m;
        return Acc{m, a.s * exp(a.m - m) + b.s * exp(b.m - m)};
    }
};
template <class T>
__device__ __forceinline__ void ms_add(MS<T>& a, T x) {
    if (x > a.m) {
        a.s = a.s * exp(a.m - x) + T(1);
        a.m = x;
    } else {
        a.s += exp(x - a.m);
    }
}

template <class T, int V>
struct alignas(sizeof(T) * V) VecT {
    T v[V];
};

/// One group of TPR threads per row: one read for the statistics (online), one read (mostly from
/// L2) and one write for the output. V: elements per load (rows of a multiple of V, aligned).
template <int TPR, int V, class T>
__global__ void softmax_row_k(const T* x, T* y, int64_t rows, int64_t n, bool log) {
    constexpr int kGroups = kThreads / TPR;
    using VT = VecT<T, V>;
    const int g = threadIdx.x / TPR, t = threadIdx.x % TPR;
    __shared__ MS<T> bcast[kGroups];
    const int64_t nv = n / V;
    for (int64_t r0 = static_cast<int64_t>(blockIdx.x) * kGroups; r0 < rows;
         r0 += int64_t(gridDim.x) * kGroups) {
        const int64_t r = r0 + g;
        const bool live = r < rows;
        const VT* xr = reinterpret_cast<const VT*>(x + r * n);
        VT* yr = reinterpret_cast<VT*>(y + r * n);
        MS<T> st{-INFINITY, T(0)};
        if (live)
            for (int64_t k = t; k < nv; k += TPR) {
                const VT v = xr[k];
#pragma unroll
                for (int q = 0; q < V; ++q) ms_add(st, v.v[q]);
            }
        st = group_reduce<TPR>(MSRed<T>{}, st);
        if (TPR > 32) __syncthreads();
        if (t == 0) bcast[g] = st;
        if (TPR > 32)
            __syncthreads();
        else
            __syncwarp();
        st = bcast[g];
        if (live) {
            const T m = st.m == -INFINITY ? T(0) : st.m;  // a row of -inf: 0 / 0 = NaN like the CPU
            const T s = st.m == -INFINITY ? T(0) : st.s;
            const T ls = ::log(s), inv = T(1) / s;
            for (int64_t k = t; k < nv; k += TPR) {
                VT v = xr[k];
#pragma unroll
                for (int q = 0; q < V; ++q) v.v[q] = log ? v.v[q] - m - ls : exp(v.v[q] - m) * inv;
                yr[k] = v;
            }
        }
        if (TPR > 32)
            __syncthreads();
        else
            __syncwarp();
    }
}

/// Rows of up to 1024 * R vectors: one block of 1024 threads per row holds the row in registers, so
/// the row is read from memory once and written once (R independent 16-byte loads per thread).
template <class T, int V, int R>
__global__ void __launch_bounds__(1024) softmax_reg_k(const T* x, T* y, int64_t rows, int64_t n, bool log) {
    using VT = VecT<T, V>;
    const int64_t nv = n / V;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __shared__ MS<T> part[32];
    __shared__ MS<T> total;
    const MSRed<T> red{};
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const VT* xr = reinterpret_cast<const VT*>(x + r * n);
        VT* yr = reinterpret_cast<VT*>(y + r * n);
        VT buf[R];
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const int64_t k = threadIdx.x + int64_t(q) * 1024;
            if (k < nv) buf[q] = xr[k];
        }
        MS<T> st{-INFINITY, T(0)};
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const int64_t k = threadIdx.x + int64_t(q) * 1024;
            if (k < nv)
#pragma unroll
                for (int i = 0; i < V; ++i) ms_add(st, buf[q].v[i]);
        }
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) st = red.combine(st, shfl_down(st, d));
        if (lane == 0) part[warp] = st;
        __syncthreads();
        if (warp == 0) {
            st = part[lane];
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) st = red.combine(st, shfl_down(st, d));
            if (lane == 0) total = st;
        }
        __syncthreads();
        st = total;
        const T m = st.m == -INFINITY ? T(0) : st.m;
        const T sum = st.m == -INFINITY ? T(0) : st.s;
        const T ls = ::log(sum), inv = T(1) / sum;
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const int64_t k = threadIdx.x + int64_t(q) * 1024;
            if (k < nv) {
                VT v = buf[q];
#pragma unroll
                for (int i = 0; i < V; ++i) v.v[i] = log ? v.v[i] - m - ls : exp(v.v[i] - m) * inv;
                yr[k] = v;
            }
        }
        __syncthreads();  // part and total are reused by the next row
    }
}

template <class T>
__global__ void softmax_col_k(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, bool log) {
    BURN_GRID_STRIDE(c, outer * inner) {
        const int64_t o = c / inner, j = c - o * inner;
        const T* xc = x + o * n * inner + j;
        T* yc = y + o * n * inner + j;
        T m = -INFINITY;
        for (int64_t k = 0; k < n; ++k) m = fmax(m, xc[k * inner]);
        if (m == -INFINITY) m = 0;
        T s = 0;
        for (int64_t k = 0; k < n; ++k) s += exp(xc[k * inner] - m);
        if (log) {
            const T ls = ::log(s);
            for (int64_t k = 0; k < n; ++k) yc[k * inner] = xc[k * inner] - m - ls;
        } else {
            const T inv = T(1) / s;
            for (int64_t k = 0; k < n; ++k) yc[k * inner] = exp(xc[k * inner] - m) * inv;
        }
    }
}

TensorRefs softmax_kernel(const OpCall& call, TensorRefs& in) {
    const bool log = call.op == OpId::log_softmax;
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.ints[0]));
    if (x.shape.numel() == 0) return {out};
    cudaStream_t s = ctx().stream;
    dispatch_float(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* px = x.data<T>();
        T* py = out->data<T>();
        constexpr int V = 16 / sizeof(T);
        const bool vec = g.n % V == 0 && reinterpret_cast<uintptr_t>(px) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(py) % 16 == 0;
        if (g.inner == 1 && g.n > 1024 && vec && g.n <= 1024 * 4 * V)
            softmax_reg_k<T, V, 4>
                <<<static_cast<unsigned>(std::min<int64_t>(g.outer, 1 << 20)), 1024, 0, s>>>(px, py, g.outer,
                                                                                             g.n, log);
        else if (g.inner == 1 && g.n > 1024 && vec)
            softmax_row_k<kThreads, V, T>
                <<<blocks_for(g.outer * kThreads), kThreads, 0, s>>>(px, py, g.outer, g.n, log);
        else if (g.inner == 1 && g.n > 1024)
            softmax_row_k<kThreads, 1, T>
                <<<blocks_for(g.outer * kThreads), kThreads, 0, s>>>(px, py, g.outer, g.n, log);
        else if (g.inner == 1)
            softmax_row_k<32, 1, T><<<blocks_for(g.outer * 32), kThreads, 0, s>>>(px, py, g.outer, g.n, log);
        else
            softmax_col_k<T>
                <<<blocks_for(g.outer * g.inner), kThreads, 0, s>>>(px, py, g.outer, g.n, g.inner, log);
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
bool float_ok(const OpCall&, const TensorRefs& in) {
    return !in.empty() && is_float(in[0]->dtype);
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
    t[idx(OpId::cumsum)] = {&widening<&cumsum_kernel>, &numeric_ok};
    t[idx(OpId::softmax)] = {&widening<&softmax_kernel>, &float_ok};
    t[idx(OpId::log_softmax)] = {&widening<&softmax_kernel>, &float_ok};
}

}  // namespace burn::cuda
