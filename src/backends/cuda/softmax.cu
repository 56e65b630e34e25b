// Fused softmax / log_softmax, masked_softmax and the gradient (softmax_backward), along any dim of a
// contiguous input seen as [outer, n, inner]. Rows (inner == 1): online max and sum of exponentials in one
// read (rows up to 16,384 held in registers, so one read and one write), a warp per short row; columns: a
// thread per column.
#include <cfloat>

#include "backends/cuda/reduce.cuh"

namespace burn::cuda {

namespace {

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
    } else if (x != -INFINITY) {  // -inf adds 0 (and exp(-inf - -inf) would be NaN)
        a.s += exp(x - a.m);
    }
}

template <class T, int V>
struct alignas(sizeof(T) * V) VecT {
    T v[V];
};

/// The bool mask of masked_softmax / softmax_backward along the last dim: a strided view of x's shape;
/// row r's values start at p + row(r) and step by ms. Null p: no mask.
struct MaskRef {
    const bool* p = nullptr;
    Iter<1> it{};
    int64_t ms = 0;
    __device__ __forceinline__ const bool* row(int64_t r) const {
        int64_t off;
        it.offsets(r, &off);
        return p + off;
    }
};

MaskRef mask_ref(const CudaTensor* m) {
    MaskRef ref;
    if (!m) return ref;
    const int r = m->shape.rank();
    Dims outer, strides;
    for (int d = 0; d + 1 < r; ++d) {
        outer.push_back(m->shape[d]);
        strides.push_back(m->strides[d]);
    }
    const Dims* st[1] = {&strides};
    const int64_t base[1] = {0};
    ref.p = m->data<bool>();
    ref.it = make_iter<1>(outer, st, base);
    ref.ms = m->strides[r - 1];
    return ref;
}

/// One group of TPR threads per row: one read for the statistics (online), one read (mostly from
/// L2) and one write for the output. V: elements per load (rows of a multiple of V, aligned).
template <int TPR, int V, class T>
__global__ void softmax_row_k(const T* x, T* y, MaskRef mask, int64_t rows, int64_t n, T fill, bool log) {
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
        const bool* mr = live && mask.p ? mask.row(r) : nullptr;
        auto masked = [&](int64_t k, VT v) {
            if (mr)
#pragma unroll
                for (int q = 0; q < V; ++q)
                    if (mr[(k * V + q) * mask.ms]) v.v[q] = fill;
            return v;
        };
        MS<T> st{-INFINITY, T(0)};
        if (live)
            for (int64_t k = t; k < nv; k += TPR) {
                const VT v = masked(k, xr[k]);
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
                VT v = masked(k, xr[k]);
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

// ---- masked_softmax: softmax(where(mask, fill, x)) along the last dim
/// Rows of up to 32 * R vectors: a warp per row holds the row in registers (x once, the mask row once,
/// y once; the re-read of softmax_row_k missed L2 once many rows were in flight). Lane l holds vectors
/// l, l + 32, ... softmax and log_softmax (no mask) and masked_softmax.
template <class T, int V, int R>
__global__ void softmax_warp_reg_k(const T* x, T* y, MaskRef mask, int64_t rows, int64_t n, T fill,
                                   bool log) {
    using VT = VecT<T, V>;
    const int64_t nv = n / V;
    const int lane = threadIdx.x & 31;
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x >> 5);
    const MSRed<T> red{};
    for (int64_t r = int64_t(blockIdx.x) * (blockDim.x >> 5) + (threadIdx.x >> 5); r < rows; r += warps) {
        const VT* xr = reinterpret_cast<const VT*>(x + r * n);
        VT* yr = reinterpret_cast<VT*>(y + r * n);
        const bool* mr = mask.p ? mask.row(r) : nullptr;
        // a dense, aligned mask row: V flags in one load
        const bool vm = mr && mask.ms == 1 && reinterpret_cast<uintptr_t>(mr) % V == 0;
        VT buf[R];
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv) {
                const int64_t kv = lane + q * 32;
                buf[q] = xr[kv];
                if (vm) {
                    const VecT<bool, V> mv = reinterpret_cast<const VecT<bool, V>*>(mr)[kv];
#pragma unroll
                    for (int i = 0; i < V; ++i)
                        if (mv.v[i]) buf[q].v[i] = fill;
                } else if (mr) {
#pragma unroll
                    for (int i = 0; i < V; ++i)
                        if (mr[(kv * V + i) * mask.ms]) buf[q].v[i] = fill;
                }
            }
        MS<T> st{-INFINITY, T(0)};
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv)
#pragma unroll
                for (int i = 0; i < V; ++i) ms_add(st, buf[q].v[i]);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) st = red.combine(st, shfl_xor(st, d));
        const T m = st.m == -INFINITY ? T(0) : st.m;  // a row of -inf: 0 / 0 = NaN like the CPU
        const T s = st.m == -INFINITY ? T(0) : st.s;
        const T ls = ::log(s), inv = T(1) / s;
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv) {
#pragma unroll
                for (int i = 0; i < V; ++i)
                    buf[q].v[i] = log ? buf[q].v[i] - m - ls : exp(buf[q].v[i] - m) * inv;
                yr[lane + q * 32] = buf[q];
            }
    }
}

TensorRefs masked_softmax_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    auto out = alloc(call.shape, call.dtype);
    if (x.shape.numel() == 0) return {out};
    const MaskRef mask = mask_ref(&as_cuda(in[1]));
    const int64_t n = x.shape[x.shape.rank() - 1], rows = x.shape.numel() / n;
    cudaStream_t s = ctx().stream;
    const double fill_value = call.attrs<attrs::MaskedSoftmax>().fill;
    dispatch_float(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* px = x.data<T>();
        T* py = out->data<T>();
        const T fill = T(fill_value);
        constexpr int V = 16 / sizeof(T);
        const bool vec = n % V == 0 && reinterpret_cast<uintptr_t>(px) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(py) % 16 == 0;
        if (vec && n <= 32 * 2 * V)
            softmax_warp_reg_k<T, V, 2>
                <<<blocks_for(rows * 32), kThreads, 0, s>>>(px, py, mask, rows, n, fill, false);
        else if (vec && n <= 1024)
            softmax_warp_reg_k<T, V, 1024 / (32 * V)>
                <<<blocks_for(rows * 32), kThreads, 0, s>>>(px, py, mask, rows, n, fill, false);
        else if (n <= 1024)
            softmax_row_k<32, 1, T>
                <<<blocks_for(rows * 32), kThreads, 0, s>>>(px, py, mask, rows, n, fill, false);
        else
            softmax_row_k<kThreads, 1, T>
                <<<blocks_for(rows * kThreads), kThreads, 0, s>>>(px, py, mask, rows, n, fill, false);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

TensorRefs softmax_kernel(const OpCall& call, TensorRefs& in) {
    const bool log = call.op == OpId::log_softmax;
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    TensorRef src = contiguous(in[0]);
    const CudaTensor& x = as_cuda(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
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
            softmax_row_k<kThreads, V, T><<<blocks_for(g.outer * kThreads), kThreads, 0, s>>>(
                px, py, MaskRef{}, g.outer, g.n, T(0), log);
        else if (g.inner == 1 && g.n > 1024)
            softmax_row_k<kThreads, 1, T><<<blocks_for(g.outer * kThreads), kThreads, 0, s>>>(
                px, py, MaskRef{}, g.outer, g.n, T(0), log);
        else if (g.inner == 1 && vec && g.n <= 32 * 2 * V)
            softmax_warp_reg_k<T, V, 2>
                <<<blocks_for(g.outer * 32), kThreads, 0, s>>>(px, py, MaskRef{}, g.outer, g.n, T(0), log);
        else if (g.inner == 1 && vec)
            softmax_warp_reg_k<T, V, 1024 / (32 * V)>
                <<<blocks_for(g.outer * 32), kThreads, 0, s>>>(px, py, MaskRef{}, g.outer, g.n, T(0), log);
        else if (g.inner == 1)
            softmax_row_k<32, 1, T>
                <<<blocks_for(g.outer * 32), kThreads, 0, s>>>(px, py, MaskRef{}, g.outer, g.n, T(0), log);
        else
            softmax_col_k<T>
                <<<blocks_for(g.outer * g.inner), kThreads, 0, s>>>(px, py, g.outer, g.n, g.inner, log);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

// ---- softmax_backward: s = sum(g * y) (log: sum(g)) per row, then dx = y * (g - s) (log:
// g - exp(y) * s); sums in double like the CPU. Rows: a group of TPR threads per row (the second read
// mostly from L2); columns: a thread per column.
struct SumRed {
    using Acc = double;
    __device__ double init() const { return 0; }
    __device__ double combine(double a, double b) const { return a + b; }
};

template <int TPR, int V, class T>
__global__ void softmax_bwd_row_k(const T* y, const T* g, T* dx, MaskRef mask, int64_t rows, int64_t n,
                                  bool log) {
    constexpr int kGroups = kThreads / TPR;
    using VT = VecT<T, V>;
    const int grp = threadIdx.x / TPR, t = threadIdx.x % TPR;
    __shared__ double bcast[kGroups];
    const int64_t nv = n / V;
    for (int64_t r0 = static_cast<int64_t>(blockIdx.x) * kGroups; r0 < rows;
         r0 += int64_t(gridDim.x) * kGroups) {
        const int64_t r = r0 + grp;
        const bool live = r < rows;
        const VT* yr = reinterpret_cast<const VT*>(y + r * n);
        const VT* gr = reinterpret_cast<const VT*>(g + r * n);
        VT* dr = reinterpret_cast<VT*>(dx + r * n);
        double acc = 0;
        if (live)
            for (int64_t k = t; k < nv; k += TPR) {
                const VT gv = gr[k];
                if (log) {
#pragma unroll
                    for (int q = 0; q < V; ++q) acc += double(gv.v[q]);
                } else {
                    const VT yv = yr[k];
#pragma unroll
                    for (int q = 0; q < V; ++q) acc += double(gv.v[q]) * double(yv.v[q]);
                }
            }
        acc = group_reduce<TPR>(SumRed{}, acc);
        if (TPR > 32) __syncthreads();
        if (t == 0) bcast[grp] = acc;
        if (TPR > 32)
            __syncthreads();
        else
            __syncwarp();
        const T sc = T(bcast[grp]);
        const bool* mr = live && mask.p ? mask.row(r) : nullptr;
        if (live)
            for (int64_t k = t; k < nv; k += TPR) {
                const VT yv = yr[k];
                VT gv = gr[k];
#pragma unroll
                for (int q = 0; q < V; ++q) {
                    gv.v[q] = log ? gv.v[q] - exp(yv.v[q]) * sc : yv.v[q] * (gv.v[q] - sc);
                    if (mr && mr[(k * V + q) * mask.ms]) gv.v[q] = T(0);
                }
                dr[k] = gv;
            }
        if (TPR > 32)
            __syncthreads();
        else
            __syncwarp();
    }
}

/// Rows of up to 32 * R vectors: a warp per row holding y and g in registers (one read each).
template <class T, int V, int R>
__global__ void softmax_bwd_warp_reg_k(const T* y, const T* g, T* dx, MaskRef mask, int64_t rows, int64_t n,
                                       bool log) {
    using VT = VecT<T, V>;
    const int64_t nv = n / V;
    const int lane = threadIdx.x & 31;
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x >> 5);
    for (int64_t r = int64_t(blockIdx.x) * (blockDim.x >> 5) + (threadIdx.x >> 5); r < rows; r += warps) {
        const VT* yr = reinterpret_cast<const VT*>(y + r * n);
        const VT* gr = reinterpret_cast<const VT*>(g + r * n);
        VT* dr = reinterpret_cast<VT*>(dx + r * n);
        VT yb[R], gb[R];
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv) {
                yb[q] = yr[lane + q * 32];
                gb[q] = gr[lane + q * 32];
            }
        double acc = 0;
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv)
#pragma unroll
                for (int i = 0; i < V; ++i)
                    acc += log ? double(gb[q].v[i]) : double(gb[q].v[i]) * double(yb[q].v[i]);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) acc += shfl_xor(acc, d);
        const T sc = T(acc);
        const bool* mr = mask.p ? mask.row(r) : nullptr;
        const bool vm = mr && mask.ms == 1 && reinterpret_cast<uintptr_t>(mr) % V == 0;
#pragma unroll
        for (int q = 0; q < R; ++q)
            if (lane + q * 32 < nv) {
                const int64_t kv = lane + q * 32;
#pragma unroll
                for (int i = 0; i < V; ++i)
                    gb[q].v[i] = log ? gb[q].v[i] - exp(yb[q].v[i]) * sc : yb[q].v[i] * (gb[q].v[i] - sc);
                if (vm) {
                    const VecT<bool, V> mv = reinterpret_cast<const VecT<bool, V>*>(mr)[kv];
#pragma unroll
                    for (int i = 0; i < V; ++i)
                        if (mv.v[i]) gb[q].v[i] = T(0);
                } else if (mr) {
#pragma unroll
                    for (int i = 0; i < V; ++i)
                        if (mr[(kv * V + i) * mask.ms]) gb[q].v[i] = T(0);
                }
                dr[kv] = gb[q];
            }
    }
}

template <class T>
__global__ void softmax_bwd_col_k(const T* y, const T* g, T* dx, int64_t outer, int64_t n, int64_t inner,
                                  bool log) {
    BURN_GRID_STRIDE(c, outer * inner) {
        const int64_t o = c / inner, j = c - o * inner;
        const int64_t base = o * n * inner + j;
        double acc = 0;
        for (int64_t k = 0; k < n; ++k) {
            const int64_t i = base + k * inner;
            acc += log ? double(g[i]) : double(g[i]) * double(y[i]);
        }
        const T sc = T(acc);
        for (int64_t k = 0; k < n; ++k) {
            const int64_t i = base + k * inner;
            dx[i] = log ? g[i] - exp(y[i]) * sc : y[i] * (g[i] - sc);
        }
    }
}

TensorRefs softmax_backward_kernel(const OpCall& call, TensorRefs& in) {
    const auto sa = call.attrs<attrs::SoftmaxBackward>();
    const bool log = sa.log;
    TensorRef ys = contiguous(in[0]), gs = contiguous(in[1]);
    const CudaTensor& y = as_cuda(ys);
    const CudaTensor& g = as_cuda(gs);
    auto out = alloc(call.shape, call.dtype);
    const Geometry geo = geometry(y.shape, static_cast<int>(sa.dim));
    if (y.shape.numel() == 0) return {out};
    const MaskRef mask = mask_ref(in.size() > 2 ? &as_cuda(in[2]) : nullptr);  // the frontend: dim is last
    cudaStream_t s = ctx().stream;
    dispatch_float(y.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T *py = y.data<T>(), *pg = g.data<T>();
        T* pd = out->data<T>();
        constexpr int V = 16 / sizeof(T);
        const bool vec = geo.n % V == 0 && reinterpret_cast<uintptr_t>(py) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(pg) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(pd) % 16 == 0;
        const int64_t r = geo.outer, n = geo.n;
        const unsigned b32 = blocks_for(r * 32), bbl = blocks_for(r * kThreads);
        if (geo.inner != 1)
            softmax_bwd_col_k<T>
                <<<blocks_for(r * geo.inner), kThreads, 0, s>>>(py, pg, pd, r, n, geo.inner, log);
        else if (n > 1024 && vec)
            softmax_bwd_row_k<kThreads, V, T><<<bbl, kThreads, 0, s>>>(py, pg, pd, mask, r, n, log);
        else if (n > 1024)
            softmax_bwd_row_k<kThreads, 1, T><<<bbl, kThreads, 0, s>>>(py, pg, pd, mask, r, n, log);
        else if (vec && n <= 32 * 2 * V)
            softmax_bwd_warp_reg_k<T, V, 2><<<b32, kThreads, 0, s>>>(py, pg, pd, mask, r, n, log);
        else if (vec)
            softmax_bwd_warp_reg_k<T, V, 1024 / (32 * V)>
                <<<b32, kThreads, 0, s>>>(py, pg, pd, mask, r, n, log);
        else
            softmax_bwd_row_k<32, 1, T><<<b32, kThreads, 0, s>>>(py, pg, pd, mask, r, n, log);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

bool float_ok(const OpCall&, const TensorRefs& in) {
    return !in.empty() && is_float(in[0]->dtype);
}

}  // namespace

void register_softmax(KernelTable& t) {
    t[idx(OpId::softmax)] = {&widening<&softmax_kernel>, &float_ok};
    t[idx(OpId::log_softmax)] = {&widening<&softmax_kernel>, &float_ok};
    t[idx(OpId::softmax_backward)] = {&widening<&softmax_backward_kernel>, &float_ok};
    t[idx(OpId::masked_softmax)] = {&widening<&masked_softmax_kernel>, &float_ok};
}

}  // namespace burn::cuda
