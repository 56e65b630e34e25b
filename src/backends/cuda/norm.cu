// Fused layer_norm and cross_entropy on CUDA (ops.def family nn): a block per row (grid-stride over
// rows), 16-byte vector loads when the row length and the pointers allow, sums in f32 (f64 for f64)
// through a fixed shuffle tree, so results are deterministic. dgamma/dbeta: per-block partial column
// sums over fixed chunks of rows, then a second pass adding the chunks in order. f16/bf16 compute in
// f32 and keep f32 statistics. An out-of-range target is flagged on the device and raised by the host
// after the forward (like gather's index check).
#include <cmath>
#include <cstdint>

#include "backends/cuda/error_slots.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

constexpr int kRowThreads = 256;
constexpr int kChunkRows = 128;  // rows per partial column sum (layer_norm_backward)

template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
    T v[V];
};

template <class T>
constexpr int pack_width() {
    return static_cast<int>(16 / sizeof(T));
}

/// Whether rows of d elements starting at each pointer can be read as 16-byte packs.
template <class T>
bool packable(int64_t d, std::initializer_list<const void*> ptrs) {
    if (d % pack_width<T>() != 0) return false;
    for (const void* p : ptrs)
        if (p && reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return false;
    return true;
}

/// f(j, value) for the elements of a row this thread owns.
template <int V, class T, class F>
__device__ __forceinline__ void each(const T* xr, int64_t d, F&& f) {
    if constexpr (V == 1) {
        for (int64_t j = threadIdx.x; j < d; j += blockDim.x) f(j, xr[j]);
    } else {
        const Pack<T, V>* p = reinterpret_cast<const Pack<T, V>*>(xr);
        for (int64_t q = threadIdx.x; q < d / V; q += blockDim.x) {
            const Pack<T, V> pk = p[q];
#pragma unroll
            for (int k = 0; k < V; ++k) f(q * V + k, pk.v[k]);
        }
    }
}

/// yr[j] = f(j, xr[j]) (yr may alias xr).
template <int V, class T, class F>
__device__ __forceinline__ void map(const T* xr, T* yr, int64_t d, F&& f) {
    if constexpr (V == 1) {
        for (int64_t j = threadIdx.x; j < d; j += blockDim.x) yr[j] = f(j, xr[j]);
    } else {
        const Pack<T, V>* p = reinterpret_cast<const Pack<T, V>*>(xr);
        Pack<T, V>* o = reinterpret_cast<Pack<T, V>*>(yr);
        for (int64_t q = threadIdx.x; q < d / V; q += blockDim.x) {
            const Pack<T, V> pk = p[q];
            Pack<T, V> out;
#pragma unroll
            for (int k = 0; k < V; ++k) out.v[k] = f(q * V + k, pk.v[k]);
            o[q] = out;
        }
    }
}

/// The block's sum of v (every thread gets it); sh holds 32 values. Fixed order: deterministic.
template <class A>
__device__ A block_sum(A v, A* sh) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();  // earlier readers of sh are done
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    A t = 0;
    for (int i = 0; i < static_cast<int>(blockDim.x >> 5); ++i) t += sh[i];
    return t;
}

unsigned row_blocks(int64_t rows) {
    return static_cast<unsigned>(rows < (1 << 20) ? (rows > 0 ? rows : 1) : (1 << 20));
}

template <class F>
void dispatch_floats(DType d, F&& f) {
    if (!dispatch_float_if(d, f)) no_kernel_for(d);
}

// ---- layer_norm

template <class T, int V>
__global__ void ln_fwd_k(const T* x, const T* gam, const T* bet, T* y, dc_t<T>* mean, dc_t<T>* rstd,
                         int64_t rows, int64_t d, double eps, bool rms) {
    using A = dc_t<T>;
    __shared__ A sh[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T* xr = x + r * d;
        A m = 0;  // rms (uniform over the block): no centring
        if (!rms && d > 0) {
            A s = 0;
            each<V>(xr, d, [&](int64_t, T v) { s += A(v); });
            m = block_sum(s, sh) / A(d);
        }
        A q = 0;
        each<V>(xr, d, [&](int64_t, T v) {
            const A t = A(v) - m;
            q += t * t;
        });
        const A var = d > 0 ? block_sum(q, sh) / A(d) : A(0);
        const A rs = A(1) / sqrt(var + A(eps));
        if (threadIdx.x == 0) {
            mean[r] = m;
            rstd[r] = rs;
        }
        map<V>(xr, y + r * d, d, [&](int64_t j, T v) {
            A h = (A(v) - m) * rs;
            if (gam) h *= A(gam[j]);
            if (bet) h += A(bet[j]);
            return T(h);
        });
    }
}

template <class T, int V>
__global__ void ln_bwd_k(const T* g, const T* x, const dc_t<T>* mean, const dc_t<T>* rstd, const T* gam,
                         T* dx, int64_t rows, int64_t d, bool rms) {
    using A = dc_t<T>;
    __shared__ A sh[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T* gr = g + r * d;
        const T* xr = x + r * d;
        const A m = mean[r], rs = rstd[r];
        A s1 = 0, s2 = 0;
        if constexpr (V == 1) {
            for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
                const A gh = gam ? A(gr[j]) * A(gam[j]) : A(gr[j]);
                s1 += gh;
                s2 += gh * (A(xr[j]) - m) * rs;
            }
        } else {
            const Pack<T, V>* pg = reinterpret_cast<const Pack<T, V>*>(gr);
            const Pack<T, V>* px = reinterpret_cast<const Pack<T, V>*>(xr);
            for (int64_t q = threadIdx.x; q < d / V; q += blockDim.x) {
                const Pack<T, V> a = pg[q], b = px[q];
#pragma unroll
                for (int k = 0; k < V; ++k) {
                    const A gh = gam ? A(a.v[k]) * A(gam[q * V + k]) : A(a.v[k]);
                    s1 += gh;
                    s2 += gh * (A(b.v[k]) - m) * rs;
                }
            }
        }
        const A mg = rms ? A(0) : block_sum(s1, sh) / A(d);  // rms is uniform over the block
        const A mgx = block_sum(s2, sh) / A(d);
        // dx may alias g: each element is read by the thread that writes it.
        T* o = dx + r * d;
        for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
            const A gh = gam ? A(gr[j]) * A(gam[j]) : A(gr[j]);
            o[j] = T(rs * (gh - mg - (A(xr[j]) - m) * rs * mgx));
        }
    }
}

/// part[chunk][0..d) = sum over the chunk's rows of g * xhat, part[chunk][d..2d) = sum of g.
/// Block (32, 8): 32 columns, 8 row lanes; grid (column tiles, chunks).
template <class T>
__global__ void ln_part_k(const T* g, const T* x, const dc_t<T>* mean, const dc_t<T>* rstd, dc_t<T>* part,
                          int64_t rows, int64_t d) {
    using A = dc_t<T>;
    __shared__ A sa[8][33], sb[8][33];
    const int64_t col = static_cast<int64_t>(blockIdx.x) * 32 + threadIdx.x;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kChunkRows;
    const int64_t r1 = r0 + kChunkRows < rows ? r0 + kChunkRows : rows;
    A a = 0, b = 0;
    if (col < d)
        for (int64_t r = r0 + threadIdx.y; r < r1; r += 8) {
            const A gv = A(g[r * d + col]);
            a += gv * (A(x[r * d + col]) - mean[r]) * rstd[r];
            b += gv;
        }
    sa[threadIdx.y][threadIdx.x] = a;
    sb[threadIdx.y][threadIdx.x] = b;
    __syncthreads();
    if (threadIdx.y == 0 && col < d) {
        A ta = 0, tb = 0;
        for (int k = 0; k < 8; ++k) {
            ta += sa[k][threadIdx.x];
            tb += sb[k][threadIdx.x];
        }
        part[static_cast<int64_t>(blockIdx.y) * 2 * d + col] = ta;
        part[static_cast<int64_t>(blockIdx.y) * 2 * d + d + col] = tb;
    }
}

template <class T>
__global__ void ln_final_k(const dc_t<T>* part, T* dgamma, T* dbeta, int64_t chunks, int64_t d) {
    using A = dc_t<T>;
    BURN_GRID_STRIDE(col, d) {
        A a = 0, b = 0;
        for (int64_t k = 0; k < chunks; ++k) {
            a += part[k * 2 * d + col];
            b += part[k * 2 * d + d + col];
        }
        dgamma[col] = T(a);
        dbeta[col] = T(b);
    }
}

int64_t lead_rows(const Dims& s) {
    int64_t r = 1;
    for (int i = 0; i + 1 < s.rank(); ++i) r *= s[i];
    return r;
}

TensorRefs layer_norm_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const auto la = call.attrs<attrs::LayerNorm>();
    const bool has_g = la.has_gamma, has_b = la.has_beta;
    const bool rms = la.rms;
    const Dims s = in[0]->shape;
    const int64_t d = s.back(), rows = lead_rows(s);
    const DType sd = widened(call.dtype);
    auto mean = alloc(Dims{rows}, sd);
    auto rstd = alloc(Dims{rows}, sd);
    auto y = reuse_or_alloc(in, {0}, s, call.dtype);
    if (rows == 0) return {y, mean, rstd};
    const CudaTensor* g = has_g ? &as_cuda(in[1]) : nullptr;
    const CudaTensor* b = has_b ? &as_cuda(in[has_g ? 2 : 1]) : nullptr;
    dispatch_floats(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        using A = dc_t<T>;
        const T* xp = as_cuda(in[0]).data<T>();
        const T* gp = g ? g->data<T>() : nullptr;
        const T* bp = b ? b->data<T>() : nullptr;
        T* yp = y->data<T>();
        if (packable<T>(d, {xp, yp}))
            ln_fwd_k<T, pack_width<T>()><<<row_blocks(rows), kRowThreads, 0, ctx().stream>>>(
                xp, gp, bp, yp, mean->data<A>(), rstd->data<A>(), rows, d, la.eps, rms);
        else
            ln_fwd_k<T, 1><<<row_blocks(rows), kRowThreads, 0, ctx().stream>>>(
                xp, gp, bp, yp, mean->data<A>(), rstd->data<A>(), rows, d, la.eps, rms);
    });
    BURN_CUDA_LAUNCHED();
    return {y, mean, rstd};
}

TensorRefs layer_norm_backward_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const auto la = call.attrs<attrs::LayerNormBackward>();
    const bool has_g = la.has_gamma, want = la.want_params;
    const bool rms = la.rms;
    const Dims s = in[1]->shape;
    const int64_t d = s.back(), rows = lead_rows(s);
    auto dgamma = alloc(Dims{want ? d : 0}, call.dtype);
    auto dbeta = alloc(Dims{want ? d : 0}, call.dtype);
    dispatch_floats(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        using A = dc_t<T>;
        const T* gp = as_cuda(in[0]).data<T>();
        const T* xp = as_cuda(in[1]).data<T>();
        const A* mp = as_cuda(in[2]).data<A>();
        const A* rp = as_cuda(in[3]).data<A>();
        if (want && d > 0) {  // before dx, which may overwrite g
            if (rows == 0) {
                BURN_CUDA_CHECK(cudaMemsetAsync(dgamma->raw(), 0, d * sizeof(T), ctx().stream));
                BURN_CUDA_CHECK(cudaMemsetAsync(dbeta->raw(), 0, d * sizeof(T), ctx().stream));
            } else {
                const int64_t chunks = (rows + kChunkRows - 1) / kChunkRows;
                auto part = scratch(static_cast<std::size_t>(chunks * 2 * d) * sizeof(A));
                A* pp = static_cast<A*>(part->data);
                dim3 grid(static_cast<unsigned>((d + 31) / 32), static_cast<unsigned>(chunks));
                ln_part_k<T><<<grid, dim3(32, 8), 0, ctx().stream>>>(gp, xp, mp, rp, pp, rows, d);
                BURN_CUDA_LAUNCHED();
                ln_final_k<T><<<blocks_for(d), kThreads, 0, ctx().stream>>>(pp, dgamma->data<T>(),
                                                                            dbeta->data<T>(), chunks, d);
                BURN_CUDA_LAUNCHED();
            }
        }
    });
    auto dx = reuse_or_alloc(in, {0}, s, call.dtype);
    if (rows == 0 || d == 0) return {dx, dgamma, dbeta};
    dispatch_floats(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        using A = dc_t<T>;
        const T* gp = as_cuda(in[0]).data<T>();
        const T* xp = as_cuda(in[1]).data<T>();
        const T* gm = has_g ? as_cuda(in[4]).data<T>() : nullptr;
        T* o = dx->data<T>();
        const A* mp = as_cuda(in[2]).data<A>();
        const A* rp = as_cuda(in[3]).data<A>();
        if (packable<T>(d, {gp, xp}))
            ln_bwd_k<T, pack_width<T>()>
                <<<row_blocks(rows), kRowThreads, 0, ctx().stream>>>(gp, xp, mp, rp, gm, o, rows, d, rms);
        else
            ln_bwd_k<T, 1>
                <<<row_blocks(rows), kRowThreads, 0, ctx().stream>>>(gp, xp, mp, rp, gm, o, rows, d, rms);
    });
    BURN_CUDA_LAUNCHED();
    return {dx, dgamma, dbeta};
}

// ---- cross_entropy

/// (m, s) += (m2, s2): running max and sum of exp(x - max).
template <class A>
__device__ __forceinline__ void lse_merge(A& m, A& s, A m2, A s2) {
    if (m2 > m) {
        const A t = m;
        m = m2;
        m2 = t;
        const A u = s;
        s = s2;
        s2 = u;
    }
    if (m2 != -INFINITY) s += s2 * exp(m2 - m);  // NaN propagates; -inf holds nothing
}

template <class T, class I, int V>
__global__ void ce_fwd_k(const T* x, const I* tg, T* loss, dc_t<T>* lse, int64_t rows, int64_t c,
                         double smooth, long long* flag) {
    using A = dc_t<T>;
    __shared__ A sm[32], ss[32], sx[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T* xr = x + r * c;
        A m = -INFINITY, s = 0, sum = 0;
        each<V>(xr, c, [&](int64_t, T tv) {
            const A v = A(tv);
            if (v > m) {
                s = s * exp(m - v) + A(1);
                m = v;
            } else {
                s += v == -INFINITY ? A(0) : exp(v - m);
            }
            sum += v;
        });
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const A m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
            lse_merge(m, s, m2, s2);
            sum += __shfl_xor_sync(0xffffffffu, sum, o);
        }
        __syncthreads();
        if ((threadIdx.x & 31) == 0) {
            sm[threadIdx.x >> 5] = m;
            ss[threadIdx.x >> 5] = s;
            sx[threadIdx.x >> 5] = sum;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            A bm = sm[0], bs = ss[0], bx = sx[0];
            for (int i = 1; i < static_cast<int>(blockDim.x >> 5); ++i) {
                lse_merge(bm, bs, sm[i], ss[i]);
                bx += sx[i];
            }
            const A l = bm + log(bs);
            const long long t = static_cast<long long>(tg[r]);
            A out;
            if (t < 0 || t >= c) {
                if (atomicExch(reinterpret_cast<unsigned long long*>(flag), 1ull) == 0ull) flag[1] = t;
                out = A(NAN);
            } else {
                out = l - A(1.0 - smooth) * A(xr[t]) - A(smooth) * bx / A(c);
            }
            loss[r] = T(out);
            lse[r] = l;
        }
    }
}

template <class T, class I, int V>
__global__ void ce_bwd_k(const T* g, const T* x, const I* tg, const dc_t<T>* lse, T* dx, int64_t rows,
                         int64_t c, double smooth) {
    using A = dc_t<T>;
    const A u = A(smooth / static_cast<double>(c)), hit = A(1.0 - smooth);
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const A l = lse[r], gr = A(g[r]);
        const int64_t t = static_cast<int64_t>(tg[r]);
        map<V>(x + r * c, dx + r * c, c, [&](int64_t j, T v) {
            A p = exp(A(v) - l) - u;
            if (j == t) p -= hit;
            return T(p * gr);
        });
    }
}

template <class F>
void dispatch_targets(DType d, F&& f) {
    if (d == DType::i32)
        f(int32_t{});
    else
        f(int64_t{});
}

std::string describe_bad_target(const ErrorInfo& e, long long v) {
    return detail::msg("[", e.op, "] target ", v, " is out of range for ", e.size,
                       " classes; targets must lie in [0, ", e.size, ")");
}

TensorRefs cross_entropy_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const int64_t n = in[0]->shape[0], c = in[0]->shape[1];
    auto loss = alloc(Dims{n}, call.dtype);
    auto lse = alloc(Dims{n}, widened(call.dtype));
    if (n == 0) return {loss, lse};
    // raised at the next synchronisation
    long long* flag = ctx().errors->take(ErrorInfo{&describe_bad_target, "cross_entropy", 1, c, {}, {}});
    dispatch_targets(in[1]->dtype, [&](auto itag) {
        using I = decltype(itag);
        dispatch_floats(call.dtype, [&](auto tag) {
            using T = decltype(tag);
            using A = dc_t<T>;
            const T* xp = as_cuda(in[0]).data<T>();
            const I* tp = as_cuda(in[1]).data<I>();
            if (packable<T>(c, {xp}))
                ce_fwd_k<T, I, pack_width<T>()><<<row_blocks(n), kRowThreads, 0, ctx().stream>>>(
                    xp, tp, loss->data<T>(), lse->data<A>(), n, c,
                    call.attrs<attrs::CrossEntropy>().smoothing, flag);
            else
                ce_fwd_k<T, I, 1><<<row_blocks(n), kRowThreads, 0, ctx().stream>>>(
                    xp, tp, loss->data<T>(), lse->data<A>(), n, c,
                    call.attrs<attrs::CrossEntropy>().smoothing, flag);
        });
    });
    BURN_CUDA_LAUNCHED();
    return {loss, lse};
}

TensorRefs cross_entropy_backward_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const int64_t n = in[1]->shape[0], c = in[1]->shape[1];
    auto dx = reuse_or_alloc(in, {1}, in[1]->shape, call.dtype);
    if (n == 0) return {dx};
    dispatch_targets(in[2]->dtype, [&](auto itag) {
        using I = decltype(itag);
        dispatch_floats(call.dtype, [&](auto tag) {
            using T = decltype(tag);
            using A = dc_t<T>;
            const T* gp = as_cuda(in[0]).data<T>();
            const T* xp = as_cuda(in[1]).data<T>();
            const I* tp = as_cuda(in[2]).data<I>();
            const A* lp = as_cuda(in[3]).data<A>();
            T* o = dx->data<T>();
            if (packable<T>(c, {xp, o}))
                ce_bwd_k<T, I, pack_width<T>()><<<row_blocks(n), kRowThreads, 0, ctx().stream>>>(
                    gp, xp, tp, lp, o, n, c, call.attrs<attrs::CrossEntropy>().smoothing);
            else
                ce_bwd_k<T, I, 1><<<row_blocks(n), kRowThreads, 0, ctx().stream>>>(
                    gp, xp, tp, lp, o, n, c, call.attrs<attrs::CrossEntropy>().smoothing);
        });
    });
    BURN_CUDA_LAUNCHED();
    return {dx};
}

bool float_ok(const OpCall& call, const TensorRefs&) {
    return is_float(call.dtype);
}

bool ce_ok(const OpCall& call, const TensorRefs& in) {
    const std::size_t ti = call.op == OpId::cross_entropy ? 1 : 2;
    return is_float(call.dtype) &&
           (in.size() <= ti || in[ti]->dtype == DType::i32 || in[ti]->dtype == DType::i64);
}

}  // namespace

void register_norm(KernelTable& t) {
    t[idx(OpId::layer_norm)] = {&layer_norm_kernel, &float_ok};
    t[idx(OpId::layer_norm_backward)] = {&layer_norm_backward_kernel, &float_ok};
    t[idx(OpId::cross_entropy)] = {&cross_entropy_kernel, &ce_ok};
    t[idx(OpId::cross_entropy_backward)] = {&cross_entropy_backward_kernel, &ce_ok};
}

}  // namespace burn::cuda
