// CUDA attention_backward (the adjoint of the attention row), flash-attention-2 style without atomics:
// the probabilities are recomputed tile by tile from the saved logsumexp, p = exp(s - lse), never
// stored whole. Three launches:
//   1. delta = rowsum(g * out) per query row (f32), one warp per row;
//   2. dk, dv: a block owns 64 keys (bf16/f16; 32 for f32) and streams the query rows in tiles (32 at
//      head dims up to 64, else 64; BURN_CUDA_ATTN_BQ=64 forces 64; 32 for f32): s^T = k q^T, p^T,
//      dp^T = v g^T, ds^T = p^T (dp^T - delta), dv += p^T g, dk += ds^T q;
//   3. dq: a block owns query rows and streams the keys: s, p, dp = g v^T, ds, dq += ds k.
// Deterministic (each output element is written by one thread after a fixed-order sum). bf16/f16 use
// the tensor cores (mma.sync, f32 accumulators; p and ds stay in registers as A fragments, operands
// through ldmatrix / ldmatrix.trans, the streamed tiles double-buffered with cp.async; only tiles on the
// causal diagonal, masked or ragged ones test each element); f32 exact FMA. Masked keys, and rows with
// no key left (lse = -inf), contribute nothing.
#include <cmath>

#include "backends/cuda/attention.cuh"
#include "platform/env.hpp"

namespace burn::cuda {

namespace {

using namespace attn;

template <class T>
__global__ void delta_k(Params p) {
    const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (row >= p.batch * p.lq) return;
    const int64_t b = row / p.lq, i = row % p.lq;
    const T* g = static_cast<const T*>(p.g) + p.lg_.off(b) + i * p.lg_.sr;
    const T* o = static_cast<const T*>(p.o) + p.lo_.off(b) + i * p.lo_.sr;
    float s = 0.f;
    for (int c = lane; c < p.dv_dim; c += 32) s += to_f(g[c]) * to_f(o[c]);
#pragma unroll
    for (int k = 16; k > 0; k >>= 1) s += __shfl_xor_sync(0xffffffffu, s, k);
    if (lane == 0) const_cast<float*>(p.delta)[row] = s;
}

/// p (log2 domain: x = s * scale * log2e, l2 = lse * log2e) or 0 when hidden or the row is empty.
__device__ __forceinline__ float prob(const Params& p, const bool* mrow, int i, int j, float x, float l2) {
    if (hidden(p, mrow, i, j) || l2 == -INFINITY) return 0.f;
    return exp2f(x - l2);
}

constexpr int kB = 64, kWarps = 4;

/// Whether every (query, key) pair of the tiles [q0, q0 + nq) x [k0, k0 + nk) is visible: no element
/// needs the mask, causal or bounds test (and no row of it is empty).
__device__ __forceinline__ bool full_tile(const Params& p, const bool* mrow, int q0, int nq, int k0, int nk) {
    return !mrow && q0 + nq <= p.lq && k0 + nk <= p.lk && (!p.causal || k0 + nk - 1 <= q0 + p.lk - p.lq);
}

// ---- bf16 / f16, dk and dv: warp w owns keys k0 + 16 w .. + 16; query tiles of BQ rows stream
// through two stages of {q, g, lse, delta}. Query tiles of 32 (the default at head dims up to 64) are
// held to 168 registers (3 blocks per SM; a few bytes spill).
template <class T, int DP, int BQ>
__global__ void __launch_bounds__(kWarps * 32, BQ == 32 && DP == 64 ? 3 : 1) dkdv_mma_k(Params p, bool vec) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    constexpr int LD = DP + 8, kTile = kB * LD, kTileQ = BQ * LD;
    T* ks = reinterpret_cast<T*>(smem_raw);
    T* vs = ks + kTile;
    T* qg = vs + kTile;                                        // [stage][q | g][BQ][LD]
    float* stats = reinterpret_cast<float*>(qg + 4 * kTileQ);  // [stage][l2 | delta][BQ]
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int64_t b = blockIdx.y;
    const int k0 = blockIdx.x * kB;
    const T* qb = static_cast<const T*>(p.q) + p.lq_.off(b);
    const T* gb = static_cast<const T*>(p.g) + p.lg_.off(b);
    const bool* mrow = p.mask.batch(b);
    int qstart = 0;
    if (p.causal) qstart = max(0, (k0 - (p.lk - p.lq)) / BQ * BQ);
    auto load = [&](int q0, int stage) {
        T* dst = qg + stage * 2 * kTileQ;
        load_tile<T, BQ, DP>(dst, LD, qb, p.lq_.sr, q0, p.lq, p.d, vec);
        load_tile<T, BQ, DP>(dst + kTileQ, LD, gb, p.lg_.sr, q0, p.lq, p.dv_dim, vec);
        float* st = stats + stage * 2 * BQ;
        for (int i = threadIdx.x; i < BQ; i += blockDim.x) {
            const bool in = q0 + i < p.lq;
            st[i] = in ? p.lse[b * p.lq + q0 + i] * kLog2e : -INFINITY;
            st[BQ + i] = in ? p.delta[b * p.lq + q0 + i] : 0.f;
        }
    };
    load_tile<T, kB, DP>(ks, LD, static_cast<const T*>(p.k) + p.lk_.off(b), p.lk_.sr, k0, p.lk, p.d, vec);
    load_tile<T, kB, DP>(vs, LD, static_cast<const T*>(p.v) + p.lv_.off(b), p.lv_.sr, k0, p.lk, p.dv_dim,
                         vec);
    if (qstart < p.lq) load(qstart, 0);
    cp_async_commit();
    float dk[DP / 8][4] = {}, dv[DP / 8][4] = {};
    const float sl2 = p.scale * kLog2e;
    const int keys[2] = {k0 + warp * 16 + g, k0 + warp * 16 + g + 8};
    for (int q0 = qstart, stage = 0; q0 < p.lq; q0 += BQ, stage ^= 1) {
        cp_async_wait<0>();
        __syncthreads();
        if (q0 + BQ < p.lq) load(q0 + BQ, stage ^ 1);
        cp_async_commit();
        const T* qs = qg + stage * 2 * kTileQ;
        const T* gs = qs + kTileQ;
        const float* l2s = stats + stage * 2 * BQ;
        const float* dls = l2s + BQ;
        float s[BQ / 8][4] = {}, dp[BQ / 8][4] = {};
#pragma unroll
        for (int kc = 0; kc < DP / 16; kc += 2) {
            uint32_t a[2][4], av[2][4];
            load_a(a[0], ks, LD, warp * 16, kc * 16, lane);
            load_a(a[1], ks, LD, warp * 16, kc * 16 + 16, lane);
            load_a(av[0], vs, LD, warp * 16, kc * 16, lane);
            load_a(av[1], vs, LD, warp * 16, kc * 16 + 16, lane);
#pragma unroll
            for (int nt = 0; nt < BQ / 8; ++nt) {
                uint32_t bq[4], bg[4];
                load_b(bq, qs, LD, nt * 8, kc * 16, lane);
                mma<T>(s[nt], a[0], bq[0], bq[1]);
                mma<T>(s[nt], a[1], bq[2], bq[3]);
                load_b(bg, gs, LD, nt * 8, kc * 16, lane);
                mma<T>(dp[nt], av[0], bg[0], bg[1]);
                mma<T>(dp[nt], av[1], bg[2], bg[3]);
            }
        }
        const bool full = full_tile(p, mrow, q0, BQ, k0, kB);
#pragma unroll
        for (int nt = 0; nt < BQ / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int qi = nt * 8 + 2 * t + (e & 1);
                const float x = s[nt][e] * sl2;
                const float pe = full ? exp2f(x - l2s[qi]) : prob(p, mrow, q0 + qi, keys[e / 2], x, l2s[qi]);
                s[nt][e] = pe;
                dp[nt][e] = pe * (dp[nt][e] - dls[qi]);
            }
#pragma unroll
        for (int kc = 0; kc < BQ / 16; ++kc) {
            uint32_t ap[4], ad[4];
            c_to_a<T>(ap, s[2 * kc], s[2 * kc + 1]);
            c_to_a<T>(ad, dp[2 * kc], dp[2 * kc + 1]);
#pragma unroll
            for (int nt = 0; nt < DP / 8; nt += 2) {
                uint32_t bg[4], bq[4];
                load_bt(bg, gs, LD, kc * 16, nt * 8, lane);
                mma<T>(dv[nt], ap, bg[0], bg[1]);
                mma<T>(dv[nt + 1], ap, bg[2], bg[3]);
                load_bt(bq, qs, LD, kc * 16, nt * 8, lane);
                mma<T>(dk[nt], ad, bq[0], bq[1]);
                mma<T>(dk[nt + 1], ad, bq[2], bq[3]);
            }
        }
    }
    cp_async_wait<0>();
    T* dkb = static_cast<T*>(p.dk) + p.ldk.off(b);
    T* dvb = static_cast<T*>(p.dv) + p.ldv.off(b);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int j = keys[h];
        if (j >= p.lk) continue;
#pragma unroll
        for (int nt = 0; nt < DP / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int c = nt * 8 + 2 * t + e;
                if (c < p.d) dkb[j * p.ldk.sr + c] = from_f<T>(dk[nt][2 * h + e] * p.scale);
                if (c < p.dv_dim) dvb[j * p.ldv.sr + c] = from_f<T>(dv[nt][2 * h + e]);
            }
    }
}

// ---- bf16 / f16, dq: warp w owns queries q0 + 16 w .. + 16; key tiles of kB stream through two
// stages of {k, v}.
template <class T, int DP>
__global__ void __launch_bounds__(kWarps * 32) dq_mma_k(Params p, bool vec) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    constexpr int LD = DP + 8, kTile = kB * LD;
    T* qs = reinterpret_cast<T*>(smem_raw);
    T* gs = qs + kTile;
    T* kv = gs + kTile;  // [stage][k | v][kB][LD]
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int64_t b = blockIdx.y;
    const int q0 = (p.causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * kB;
    const T* kb = static_cast<const T*>(p.k) + p.lk_.off(b);
    const T* vb = static_cast<const T*>(p.v) + p.lv_.off(b);
    const bool* mrow = p.mask.batch(b);
    int kend = p.lk;
    if (p.causal) kend = max(0, min(p.lk, q0 + kB + p.lk - p.lq));
    load_tile<T, kB, DP>(qs, LD, static_cast<const T*>(p.q) + p.lq_.off(b), p.lq_.sr, q0, p.lq, p.d, vec);
    load_tile<T, kB, DP>(gs, LD, static_cast<const T*>(p.g) + p.lg_.off(b), p.lg_.sr, q0, p.lq, p.dv_dim,
                         vec);
    if (kend > 0) {
        load_tile<T, kB, DP>(kv, LD, kb, p.lk_.sr, 0, p.lk, p.d, vec);
        load_tile<T, kB, DP>(kv + kTile, LD, vb, p.lv_.sr, 0, p.lk, p.dv_dim, vec);
    }
    cp_async_commit();
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};
    float l2[2], dl[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const bool in = rows[h] < p.lq;
        l2[h] = in ? p.lse[b * p.lq + rows[h]] * kLog2e : -INFINITY;
        dl[h] = in ? p.delta[b * p.lq + rows[h]] : 0.f;
    }
    float dq[DP / 8][4] = {};
    const float sl2 = p.scale * kLog2e;
    for (int k0 = 0, stage = 0; k0 < kend; k0 += kB, stage ^= 1) {
        cp_async_wait<0>();
        __syncthreads();
        if (k0 + kB < kend) {
            T* nk = kv + (stage ^ 1) * 2 * kTile;
            load_tile<T, kB, DP>(nk, LD, kb, p.lk_.sr, k0 + kB, p.lk, p.d, vec);
            load_tile<T, kB, DP>(nk + kTile, LD, vb, p.lv_.sr, k0 + kB, p.lk, p.dv_dim, vec);
        }
        cp_async_commit();
        const T* ks = kv + stage * 2 * kTile;
        const T* vs = ks + kTile;
        float s[kB / 8][4] = {}, dp[kB / 8][4] = {};
#pragma unroll
        for (int kc = 0; kc < DP / 16; kc += 2) {
            uint32_t a[2][4], ag[2][4];
            load_a(a[0], qs, LD, warp * 16, kc * 16, lane);
            load_a(a[1], qs, LD, warp * 16, kc * 16 + 16, lane);
            load_a(ag[0], gs, LD, warp * 16, kc * 16, lane);
            load_a(ag[1], gs, LD, warp * 16, kc * 16 + 16, lane);
#pragma unroll
            for (int nt = 0; nt < kB / 8; ++nt) {
                uint32_t bk[4], bv[4];
                load_b(bk, ks, LD, nt * 8, kc * 16, lane);
                mma<T>(s[nt], a[0], bk[0], bk[1]);
                mma<T>(s[nt], a[1], bk[2], bk[3]);
                load_b(bv, vs, LD, nt * 8, kc * 16, lane);
                mma<T>(dp[nt], ag[0], bv[0], bv[1]);
                mma<T>(dp[nt], ag[1], bv[2], bv[3]);
            }
        }
        const bool full = full_tile(p, mrow, q0, kB, k0, kB);
#pragma unroll
        for (int nt = 0; nt < kB / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int j = k0 + nt * 8 + 2 * t + (e & 1);
                const float x = s[nt][e] * sl2;
                const float pe = full ? exp2f(x - l2[e / 2]) : prob(p, mrow, rows[e / 2], j, x, l2[e / 2]);
                dp[nt][e] = pe * (dp[nt][e] - dl[e / 2]);
            }
#pragma unroll
        for (int kc = 0; kc < kB / 16; ++kc) {
            uint32_t ad[4];
            c_to_a<T>(ad, dp[2 * kc], dp[2 * kc + 1]);
#pragma unroll
            for (int nt = 0; nt < DP / 8; nt += 2) {
                uint32_t bk[4];
                load_bt(bk, ks, LD, kc * 16, nt * 8, lane);
                mma<T>(dq[nt], ad, bk[0], bk[1]);
                mma<T>(dq[nt + 1], ad, bk[2], bk[3]);
            }
        }
    }
    cp_async_wait<0>();
    T* dqb = static_cast<T*>(p.dq) + p.ldq.off(b);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        if (rows[h] >= p.lq) continue;
#pragma unroll
        for (int nt = 0; nt < DP / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int c = nt * 8 + 2 * t + e;
                if (c < p.d) dqb[rows[h] * p.ldq.sr + c] = from_f<T>(dq[nt][2 * h + e] * p.scale);
            }
    }
}

// ---- f32 (exact FMA): 8 threads per owned row, 32 rows per block, tiles of 32 of the other side.
constexpr int kF = 32, kFThreads = 256;

/// kKeys: the block owns keys (dk, dv) and streams queries; else it owns queries (dq).
template <int DP, bool kKeys>
__global__ void __launch_bounds__(kFThreads) bwd_f32_k(Params p, bool vec) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    constexpr int LD = DP + 4;
    float* own_a = reinterpret_cast<float*>(smem_raw);  // keys: k; queries: q
    float* own_b = own_a + kF * LD;                     // keys: v; queries: g
    float* oth_a = own_b + kF * LD;                     // keys: q; queries: k
    float* oth_b = oth_a + kF * LD;                     // keys: g; queries: v
    float* ps = oth_b + kF * LD;                        // [kF][kF + 4]: p (keys only)
    float* ds = ps + kF * (kF + 4);                     // [kF][kF + 4]
    float* l2s = ds + kF * (kF + 4);
    float* dls = l2s + kF;
    const int row = threadIdx.x / 8, part = threadIdx.x % 8;
    const int64_t b = blockIdx.y;
    const int r0 = blockIdx.x * kF, me = r0 + row;
    const float* qb = static_cast<const float*>(p.q) + p.lq_.off(b);
    const float* kb = static_cast<const float*>(p.k) + p.lk_.off(b);
    const float* vb = static_cast<const float*>(p.v) + p.lv_.off(b);
    const float* gb = static_cast<const float*>(p.g) + p.lg_.off(b);
    const bool* mrow = p.mask.batch(b);
    if constexpr (kKeys) {
        load_tile<float, kF, DP>(own_a, LD, kb, p.lk_.sr, r0, p.lk, p.d, vec);
        load_tile<float, kF, DP>(own_b, LD, vb, p.lv_.sr, r0, p.lk, p.dv_dim, vec);
    } else {
        load_tile<float, kF, DP>(own_a, LD, qb, p.lq_.sr, r0, p.lq, p.d, vec);
        load_tile<float, kF, DP>(own_b, LD, gb, p.lg_.sr, r0, p.lq, p.dv_dim, vec);
    }
    float acc_a[DP / 8] = {}, acc_b[DP / 8] = {};  // keys: dk, dv; queries: dq
    float my_l2 = -INFINITY, my_dl = 0.f;
    if (!kKeys && me < p.lq) my_l2 = p.lse[b * p.lq + me] * kLog2e, my_dl = p.delta[b * p.lq + me];
    const float sl2 = p.scale * kLog2e;
    int start = 0, end = kKeys ? p.lq : p.lk;
    if (p.causal && kKeys) start = max(0, (r0 - (p.lk - p.lq)) / kF * kF);
    if (p.causal && !kKeys) end = min(p.lk, r0 + kF + p.lk - p.lq);
    for (int o0 = start; o0 < end; o0 += kF) {
        __syncthreads();
        if constexpr (kKeys) {
            load_tile<float, kF, DP>(oth_a, LD, qb, p.lq_.sr, o0, p.lq, p.d, vec);
            load_tile<float, kF, DP>(oth_b, LD, gb, p.lg_.sr, o0, p.lq, p.dv_dim, vec);
            for (int i = threadIdx.x; i < kF; i += blockDim.x) {
                const bool in = o0 + i < p.lq;
                l2s[i] = in ? p.lse[b * p.lq + o0 + i] * kLog2e : -INFINITY;
                dls[i] = in ? p.delta[b * p.lq + o0 + i] : 0.f;
            }
        } else {
            load_tile<float, kF, DP>(oth_a, LD, kb, p.lk_.sr, o0, p.lk, p.d, vec);
            load_tile<float, kF, DP>(oth_b, LD, vb, p.lv_.sr, o0, p.lk, p.dv_dim, vec);
        }
        cp_async_commit();
        cp_async_wait<0>();
        __syncthreads();
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int o = part + 8 * u;
            const float s = dot4<DP>(own_a + row * LD, oth_a + o * LD);
            const float dp = dot4<DP>(own_b + row * LD, oth_b + o * LD);
            const int i = kKeys ? o0 + o : me, j = kKeys ? me : o0 + o;
            const float l2 = kKeys ? l2s[o] : my_l2, dl = kKeys ? dls[o] : my_dl;
            const float pe = prob(p, mrow, i, j, s * sl2, l2);
            if constexpr (kKeys) ps[row * (kF + 4) + o] = pe;
            ds[row * (kF + 4) + o] = pe * (dp - dl);
        }
        __syncwarp();
#pragma unroll 2
        for (int o = 0; o < kF; o += 4) {
            const float4 d = *reinterpret_cast<const float4*>(ds + row * (kF + 4) + o);
            axpy4<DP>(acc_a, d.x, oth_a + o * LD, part);
            axpy4<DP>(acc_a, d.y, oth_a + (o + 1) * LD, part);
            axpy4<DP>(acc_a, d.z, oth_a + (o + 2) * LD, part);
            axpy4<DP>(acc_a, d.w, oth_a + (o + 3) * LD, part);
            if constexpr (kKeys) {
                const float4 pe = *reinterpret_cast<const float4*>(ps + row * (kF + 4) + o);
                axpy4<DP>(acc_b, pe.x, oth_b + o * LD, part);
                axpy4<DP>(acc_b, pe.y, oth_b + (o + 1) * LD, part);
                axpy4<DP>(acc_b, pe.z, oth_b + (o + 2) * LD, part);
                axpy4<DP>(acc_b, pe.w, oth_b + (o + 3) * LD, part);
            }
        }
    }
    cp_async_wait<0>();
    if (me >= (kKeys ? p.lk : p.lq)) return;
    const Layout& la = kKeys ? p.ldk : p.ldq;
    float* da = static_cast<float*>(kKeys ? p.dk : p.dq) + la.off(b) + me * la.sr;
#pragma unroll
    for (int u = 0; u < DP / 8; ++u)
        if (col4(part, u) < p.d) da[col4(part, u)] = acc_a[u] * p.scale;
    if constexpr (kKeys) {
        float* db = static_cast<float*>(p.dv) + p.ldv.off(b) + me * p.ldv.sr;
#pragma unroll
        for (int u = 0; u < DP / 8; ++u)
            if (col4(part, u) < p.dv_dim) db[col4(part, u)] = acc_b[u];
    }
}

template <class K>
void launch(K kernel, dim3 grid, int threads, std::size_t smem, const Params& p, bool vec) {
    if (smem > 48 * 1024)
        BURN_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    kernel<<<grid, threads, smem, ctx().stream>>>(p, vec);
    BURN_CUDA_LAUNCHED();
}

template <class T, int DP>
void run_bwd(const Params& p, bool vec) {
    const unsigned nb = static_cast<unsigned>(p.batch);
    if constexpr (std::is_same_v<T, float>) {
        const std::size_t smem = sizeof(float) * (4 * kF * (DP + 4) + 2 * kF * (kF + 4) + 2 * kF);
        if (p.lk > 0) launch(bwd_f32_k<DP, true>, dim3((p.lk + kF - 1) / kF, nb), kFThreads, smem, p, vec);
        launch(bwd_f32_k<DP, false>, dim3((p.lq + kF - 1) / kF, nb), kFThreads, smem, p, vec);
    } else {
        // query tiles of the dk/dv kernel: 32 rows at head dims up to 64 (168 registers, 3 blocks per SM),
        // else 64 (188 registers at D 64, 2 blocks per SM). On an H100 tiles of 32 made GPT-2 small's
        // attention forward and backward 0.747 ms against 0.785 and the gpt_train_amp step 0.2-0.5 ms
        // shorter (docs/mixed_precision.md). BURN_CUDA_ATTN_BQ=64 keeps 64 everywhere, for comparisons.
        static const int bq_env = [] {
            const auto v = platform::env_var("BURN_CUDA_ATTN_BQ");
            return v && *v == "64" ? 64 : 32;
        }();
        const bool bq64 = bq_env == 64 || DP > 64;  // 128: tiles of 32 not measured there
        if (p.lk > 0) {
            const dim3 grid((p.lk + kB - 1) / kB, nb);
            if (bq64)
                launch(dkdv_mma_k<T, DP, 64>, grid, kWarps * 32,
                       sizeof(T) * (2 * kB + 4 * 64) * (DP + 8) + 4 * 64 * sizeof(float), p, vec);
            else
                launch(dkdv_mma_k<T, DP, 32>, grid, kWarps * 32,
                       sizeof(T) * (2 * kB + 4 * 32) * (DP + 8) + 4 * 32 * sizeof(float), p, vec);
        }
        const std::size_t s2 = sizeof(T) * 6 * kB * (DP + 8);
        launch(dq_mma_k<T, DP>, dim3((p.lq + kB - 1) / kB, nb), kWarps * 32, s2, p, vec);
    }
}

}  // namespace

TensorRefs attention_backward_kernel(const OpCall& call, TensorRefs& in) {
    // g, q, k, v and out are read in place (strided heads included); dq, dk and dv are laid out as q, k
    // and v are (alloc_like), so that the transposes back to the projections' layout are views
    Params p{};
    p.lg_ = operand_layout(in[0]);
    p.lq_ = operand_layout(in[1]);
    p.lk_ = operand_layout(in[2]);
    p.lv_ = operand_layout(in[3]);
    p.lo_ = operand_layout(in[4]);
    in[5] = contiguous(in[5]);
    if (in.size() > 6 && in[6]) in[6] = contiguous(in[6]);
    const Dims& qs = in[1]->shape;
    const int r = qs.rank();
    auto dq = alloc_like(qs, in[1]->dtype, as_cuda(in[1]));
    auto dk = alloc_like(in[2]->shape, in[2]->dtype, as_cuda(in[2]));
    auto dv = alloc_like(in[3]->shape, in[3]->dtype, as_cuda(in[3]));
    p.ldq = layout_of(*dq), p.ldk = layout_of(*dk), p.ldv = layout_of(*dv);
    p.lq = static_cast<int>(qs[r - 2]);
    p.d = static_cast<int>(qs[r - 1]);
    p.lk = static_cast<int>(in[2]->shape[r - 2]);
    p.dv_dim = static_cast<int>(in[3]->shape[r - 1]);
    p.batch = p.lq ? in[5]->shape.numel() / p.lq : 0;
    if (p.batch == 0 || p.lq == 0 || p.lk == 0) {  // nothing attended: zero gradients
        for (const auto& t : {dq, dk, dv})
            if (t->shape.numel())
                BURN_CUDA_CHECK(
                    cudaMemsetAsync(t->raw(), 0, t->shape.numel() * size_of(t->dtype), ctx().stream));
        return {dq, dk, dv};
    }
    const auto a = call.attrs<attrs::Attention>();
    p.scale = static_cast<float>(a.scale);
    p.causal = a.causal;
    p.mask = mask_params(a.has_mask ? &as_cuda(in[6]) : nullptr, qs);
    p.g = as_cuda(in[0]).raw(), p.q = as_cuda(in[1]).raw(), p.k = as_cuda(in[2]).raw();
    p.v = as_cuda(in[3]).raw(), p.o = as_cuda(in[4]).raw();
    p.lse = const_cast<float*>(as_cuda(in[5]).data<float>());
    auto delta = alloc(in[5]->shape, DType::f32);
    p.delta = delta->data<float>();
    p.dq = dq->raw(), p.dk = dk->raw(), p.dv = dv->raw();
    const int kv = call.dtype == DType::f32 ? 4 : 8;
    const int es = static_cast<int>(size_of(call.dtype));
    const bool vec = p.d % kv == 0 && p.dv_dim % kv == 0 && rows_aligned(p.q, p.lq_, es) &&
                     rows_aligned(p.k, p.lk_, es) && rows_aligned(p.v, p.lv_, es) &&
                     rows_aligned(p.g, p.lg_, es);
    const bool wide = std::max(p.d, p.dv_dim) > 64;
    auto go = [&](auto tag) {
        using T = decltype(tag);
        const int64_t rows = p.batch * p.lq;
        delta_k<T><<<static_cast<unsigned>((rows * 32 + 255) / 256), 256, 0, ctx().stream>>>(p);
        BURN_CUDA_LAUNCHED();
        if (wide)
            run_bwd<T, 128>(p, vec);
        else
            run_bwd<T, 64>(p, vec);
    };
    if (call.dtype == DType::f32)
        go(float{});
    else if (call.dtype == DType::bf16)
        go(__nv_bfloat16{});
    else
        go(__half{});
    return {dq, dk, dv};
}

}  // namespace burn::cuda
