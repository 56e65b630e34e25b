// CUDA attention (the attention row): flash-attention-2 style. A block owns a tile of query rows and
// streams the keys and values through shared memory in tiles, keeping an online softmax (running max
// and sum per row, the output rescaled when the max grows), so the Lq x Lk scores are never stored;
// it writes the output and the per-row logsumexp (natural log) that attention_backward recomputes the
// probabilities from. Under causal masking a block stops at its last visible key tile.
//  - bf16 / f16: 4 warps, 64 query rows (16 per warp) x 64-key tiles, q k^T and p v on the tensor cores
//    (mma.sync m16n8k16, f32 accumulators; fragments through ldmatrix, v's through ldmatrix.trans); p
//    stays in registers (a C fragment re-read as an A fragment); the k/v tiles are double-buffered
//    (cp.async: the next tile streams in while this one is used); causal blocks start with the longest
//    query tiles; head dims padded to 64 or 128 (zeros), so any D, Dv <= 128 runs.
//  - f32: exact f32 FMA (no TF32): 256 threads, 32 query rows x 32-key tiles, 8 threads per row, each
//    with 4 keys of a tile and 4-column groups of the output (16-byte shared loads).
// Other dtypes, or head dims above 128, take the row's decomposition.
#include <cmath>

#include "backends/cuda/attention.cuh"

namespace burn::cuda {

namespace attn {

MaskP mask_params(const CudaTensor* m, const Dims& q_shape) {
    MaskP p;
    if (!m) return p;
    const int r = q_shape.rank();
    auto stride = [&](int dim) { return m->shape[dim] == 1 ? int64_t{0} : m->strides[dim]; };
    p.p = m->data<bool>();
    p.si = stride(r - 2);
    p.sj = stride(r - 1);
    p.nlead = r - 2;
    for (int d = 0; d < r - 2; ++d) {
        p.size[d] = q_shape[d];
        p.stride[d] = stride(d);
    }
    return p;
}

Layout layout_of(const CudaTensor& x) {
    const int r = x.shape.rank();
    auto st = [&](int d) { return x.shape[d] == 1 ? int64_t{0} : x.strides[d]; };
    Layout l;
    l.sr = st(r - 2);
    if (r == 4) l.s0 = st(0), l.s1 = st(1), l.n1 = x.shape[1];
    if (r == 3) l.s0 = st(0);
    return l;
}

Layout operand_layout(TensorRef& t) {
    const int r = t->shape.rank();
    const CudaTensor& x = as_cuda(t);
    if (r <= 4 && (x.shape[r - 1] == 1 || x.strides[r - 1] == 1) && (x.is_contiguous() || keep_layout()))
        return layout_of(x);
    t = contiguous(t);  // rows not in one run, or more than two leading dims: dense [batch, L, dim]
    Layout l;
    l.sr = t->shape[r - 1];
    l.s0 = t->shape[r - 2] * l.sr;
    return l;
}

std::shared_ptr<CudaTensor> alloc_like(const Dims& shape, DType dtype, const CudaTensor& like) {
    const Dims& ls = like.shape;
    const Dims& st = like.strides;
    const bool heads = shape.rank() == 4 && ls.rank() == 4 && ls[1] > 1 && ls[2] > 1 && st[3] == 1 &&
                       st[1] == ls[3] && st[2] == ls[1] * ls[3] && (ls[0] == 1 || st[0] == ls[2] * st[2]);
    if (!heads || !keep_layout()) return alloc(shape, dtype);
    const int64_t h = shape[1], l = shape[2], d = shape[3];
    return alloc_strided(shape, dtype, Dims{l * h * d, d, h * d, 1});
}

bool rows_aligned(const void* base, const Layout& l, int elem_bytes) {
    auto ok = [&](int64_t s) { return (s * elem_bytes) % 16 == 0; };
    return reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && ok(l.s0) && ok(l.s1) && ok(l.sr);
}

}  // namespace attn

namespace {

using namespace attn;

constexpr int kBr = 64, kBc = 64, kWarps = 4;

template <class T, int DP>
__global__ void __launch_bounds__(kWarps * 32) fwd_mma_k(Params p, bool vec) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    constexpr int LD = DP + 8, kTile = kBc * LD;
    T* qs = reinterpret_cast<T*>(smem_raw);
    T* kv = qs + kBr * LD;  // two stages of {k, v} tiles: [stage][k | v][kBc][LD]
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int64_t b = blockIdx.y;
    // heavy (causal: long) query tiles first, so that the last wave is short ones
    const int q0 = (p.causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * kBr;
    const T* qb = static_cast<const T*>(p.q) + p.lq_.off(b);
    const T* kb = static_cast<const T*>(p.k) + p.lk_.off(b);
    const T* vb = static_cast<const T*>(p.v) + p.lv_.off(b);
    const bool* mrow = p.mask.batch(b);
    int kend = p.lk;
    if (p.causal) kend = max(0, min(p.lk, q0 + kBr + p.lk - p.lq));
    load_tile<T, kBr, DP>(qs, LD, qb, p.lq_.sr, q0, p.lq, p.d, vec);
    if (kend > 0) {
        load_tile<T, kBc, DP>(kv, LD, kb, p.lk_.sr, 0, p.lk, p.d, vec);
        load_tile<T, kBc, DP>(kv + kTile, LD, vb, p.lv_.sr, 0, p.lk, p.dv_dim, vec);
    }
    cp_async_commit();
    uint32_t qf[DP / 16][4];
    float o[DP / 8][4] = {};
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    const float sl2 = p.scale * kLog2e;
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};
    for (int k0 = 0, stage = 0; k0 < kend; k0 += kBc, stage ^= 1) {
        cp_async_wait<0>();
        __syncthreads();  // this tile is in; every warp is done with the other stage
        if (k0 == 0)
#pragma unroll
            for (int kc = 0; kc < DP / 16; ++kc) load_a(qf[kc], qs, LD, warp * 16, kc * 16, lane);
        if (k0 + kBc < kend) {  // the next tile streams in while this one is used
            T* nk = kv + (stage ^ 1) * 2 * kTile;
            load_tile<T, kBc, DP>(nk, LD, kb, p.lk_.sr, k0 + kBc, p.lk, p.d, vec);
            load_tile<T, kBc, DP>(nk + kTile, LD, vb, p.lv_.sr, k0 + kBc, p.lk, p.dv_dim, vec);
        }
        cp_async_commit();
        const T* ks = kv + stage * 2 * kTile;
        const T* vs = ks + kTile;
        float s[kBc / 8][4] = {};
#pragma unroll
        for (int kc = 0; kc < DP / 16; kc += 2)
#pragma unroll
            for (int nt = 0; nt < kBc / 8; ++nt) {
                uint32_t bf[4];
                load_b(bf, ks, LD, nt * 8, kc * 16, lane);
                mma<T>(s[nt], qf[kc], bf[0], bf[1]);
                mma<T>(s[nt], qf[kc + 1], bf[2], bf[3]);
            }
        const bool edge = k0 + kBc > p.lk || mrow || (p.causal && k0 + kBc - 1 > q0 + p.lk - p.lq);
        float mx[2] = {m[0], m[1]};
#pragma unroll
        for (int nt = 0; nt < kBc / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float x = s[nt][e] * sl2;
                if (edge && hidden(p, mrow, rows[e / 2], k0 + nt * 8 + 2 * t + (e & 1))) x = -INFINITY;
                s[nt][e] = x;
                mx[e / 2] = fmaxf(mx[e / 2], x);
            }
        float alpha[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
            const float base = mx[h] == -INFINITY ? 0.f : mx[h];  // no key yet: nothing to rescale
            alpha[h] = exp2f(m[h] - base);
            m[h] = mx[h];
            l[h] *= alpha[h];
            mx[h] = base;
        }
#pragma unroll
        for (int nt = 0; nt < kBc / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float pe = exp2f(s[nt][e] - mx[e / 2]);
                s[nt][e] = pe;
                l[e / 2] += pe;
            }
#pragma unroll
        for (int nt = 0; nt < DP / 8; ++nt) {
            o[nt][0] *= alpha[0], o[nt][1] *= alpha[0];
            o[nt][2] *= alpha[1], o[nt][3] *= alpha[1];
        }
#pragma unroll
        for (int kc = 0; kc < kBc / 16; ++kc) {
            uint32_t a[4];
            c_to_a<T>(a, s[2 * kc], s[2 * kc + 1]);
#pragma unroll
            for (int nt = 0; nt < DP / 8; nt += 2) {
                uint32_t bf[4];
                load_bt(bf, vs, LD, kc * 16, nt * 8, lane);
                mma<T>(o[nt], a, bf[0], bf[1]);
                mma<T>(o[nt + 1], a, bf[2], bf[3]);
            }
        }
    }
    cp_async_wait<0>();  // none in flight at exit (kend = 0: the q tile)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        l[h] += __shfl_xor_sync(0xffffffffu, l[h], 1);
        l[h] += __shfl_xor_sync(0xffffffffu, l[h], 2);
    }
    T* ob = static_cast<T*>(p.out) + p.lout.off(b);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int i = rows[h];
        if (i >= p.lq) continue;
        const float inv = l[h] > 0 ? 1.f / l[h] : NAN;
#pragma unroll
        for (int nt = 0; nt < DP / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int c = nt * 8 + 2 * t + e;
                if (c < p.dv_dim) ob[i * p.lout.sr + c] = from_f<T>(o[nt][2 * h + e] * inv);
            }
        if (t == 0) p.lse[b * p.lq + i] = l[h] > 0 ? (m[h] + log2f(l[h])) / kLog2e : -INFINITY;
    }
}

// ---- f32: 8 threads per query row; each owns 4 of a tile's 32 keys and DP / 8 output columns.
constexpr int kFr = 32, kFc = 32, kFThreads = 256;

template <int DP>
__global__ void __launch_bounds__(kFThreads) fwd_f32_k(Params p, bool vec) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    constexpr int LD = DP + 4;
    float* qs = reinterpret_cast<float*>(smem_raw);
    float* ks = qs + kFr * LD;
    float* vs = ks + kFc * LD;
    float* ps = vs + kFc * LD;  // [kFr][kFc + 4]
    const int row = threadIdx.x / 8, part = threadIdx.x % 8;
    const int64_t b = blockIdx.y;
    const int q0 = blockIdx.x * kFr, i = q0 + row;
    const float* qb = static_cast<const float*>(p.q) + p.lq_.off(b);
    const float* kb = static_cast<const float*>(p.k) + p.lk_.off(b);
    const float* vb = static_cast<const float*>(p.v) + p.lv_.off(b);
    const bool* mrow = p.mask.batch(b);
    load_tile<float, kFr, DP>(qs, LD, qb, p.lq_.sr, q0, p.lq, p.d, vec);
    float o[DP / 8] = {};
    float m = -INFINITY, l = 0.f;
    int kend = p.lk;
    if (p.causal) kend = min(p.lk, q0 + kFr + p.lk - p.lq);
    for (int k0 = 0; k0 < kend; k0 += kFc) {
        __syncthreads();
        load_tile<float, kFc, DP>(ks, LD, kb, p.lk_.sr, k0, p.lk, p.d, vec);
        load_tile<float, kFc, DP>(vs, LD, vb, p.lv_.sr, k0, p.lk, p.dv_dim, vec);
        cp_async_commit();
        cp_async_wait<0>();
        __syncthreads();
        float s[4];
        float mx = m;
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j = part + 8 * u;
            const float acc = dot4<DP>(qs + row * LD, ks + j * LD);
            s[u] = hidden(p, mrow, i, k0 + j) ? -INFINITY : acc * p.scale;
            mx = fmaxf(mx, s[u]);
        }
#pragma unroll
        for (int o2 = 1; o2 < 8; o2 <<= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o2));
        const float base = mx == -INFINITY ? 0.f : mx;
        const float alpha = expf(m - base);
        m = mx;
        float sum = 0.f;
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const float pe = expf(s[u] - base);
            ps[row * (kFc + 4) + part + 8 * u] = pe;
            sum += pe;
        }
#pragma unroll
        for (int o2 = 1; o2 < 8; o2 <<= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o2);
        l = l * alpha + sum;
        __syncwarp();
#pragma unroll
        for (int u = 0; u < DP / 8; ++u) o[u] *= alpha;
#pragma unroll 2
        for (int j = 0; j < kFc; j += 4) {
            const float4 pj = *reinterpret_cast<const float4*>(ps + row * (kFc + 4) + j);
            axpy4<DP>(o, pj.x, vs + j * LD, part);
            axpy4<DP>(o, pj.y, vs + (j + 1) * LD, part);
            axpy4<DP>(o, pj.z, vs + (j + 2) * LD, part);
            axpy4<DP>(o, pj.w, vs + (j + 3) * LD, part);
        }
    }
    cp_async_wait<0>();
    if (i >= p.lq) return;
    float* ob = static_cast<float*>(p.out) + p.lout.off(b) + i * p.lout.sr;
    const float inv = l > 0 ? 1.f / l : NAN;
#pragma unroll
    for (int u = 0; u < DP / 8; ++u)
        if (col4(part, u) < p.dv_dim) ob[col4(part, u)] = o[u] * inv;
    if (part == 0) p.lse[b * p.lq + i] = l > 0 ? m + logf(l) : -INFINITY;
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
void run_fwd(const Params& p, bool vec) {
    if constexpr (std::is_same_v<T, float>) {
        const std::size_t smem = sizeof(float) * ((kFr + 2 * kFc) * (DP + 4) + kFr * (kFc + 4));
        launch(fwd_f32_k<DP>, dim3((p.lq + kFr - 1) / kFr, static_cast<unsigned>(p.batch)), kFThreads, smem,
               p, vec);
    } else {
        const std::size_t smem = sizeof(T) * (kBr + 4 * kBc) * (DP + 8);
        launch(fwd_mma_k<T, DP>, dim3((p.lq + kBr - 1) / kBr, static_cast<unsigned>(p.batch)), kWarps * 32,
               smem, p, vec);
    }
}

TensorRefs attention_kernel(const OpCall& call, TensorRefs& in) {
    // q, k and v are read in place (strided heads included); only the mask is made contiguous
    Params p{};
    p.lq_ = operand_layout(in[0]);
    p.lk_ = operand_layout(in[1]);
    p.lv_ = operand_layout(in[2]);
    if (in.size() > 3 && in[3]) in[3] = contiguous(in[3]);
    const std::vector<TensorMeta> metas = call.outputs();
    auto out = alloc_like(metas[0].shape, metas[0].dtype, as_cuda(in[0]));
    auto lse = alloc(metas[1].shape, metas[1].dtype);
    p.lout = layout_of(*out);
    const Dims& qs = in[0]->shape;
    const int r = qs.rank();
    p.lq = static_cast<int>(qs[r - 2]);
    p.d = static_cast<int>(qs[r - 1]);
    p.lk = static_cast<int>(in[1]->shape[r - 2]);
    p.dv_dim = static_cast<int>(in[2]->shape[r - 1]);
    p.batch = p.lq ? metas[1].shape.numel() / p.lq : 0;
    if (p.batch == 0 || p.lq == 0) return {out, lse};
    const auto a = call.attrs<attrs::Attention>();
    p.scale = static_cast<float>(a.scale);
    p.causal = a.causal;
    p.mask = mask_params(a.has_mask ? &as_cuda(in[3]) : nullptr, qs);
    p.q = as_cuda(in[0]).raw(), p.k = as_cuda(in[1]).raw(), p.v = as_cuda(in[2]).raw();
    p.out = out->raw();
    p.lse = lse->data<float>();
    const int kv = call.dtype == DType::f32 ? 4 : 8;
    const int es = static_cast<int>(size_of(call.dtype));
    const bool vec = p.d % kv == 0 && p.dv_dim % kv == 0 && rows_aligned(p.q, p.lq_, es) &&
                     rows_aligned(p.k, p.lk_, es) && rows_aligned(p.v, p.lv_, es);
    const bool wide = std::max(p.d, p.dv_dim) > 64;
    auto go = [&](auto tag) {
        using T = decltype(tag);
        if (wide)
            run_fwd<T, 128>(p, vec);
        else
            run_fwd<T, 64>(p, vec);
    };
    if (call.dtype == DType::f32)
        go(float{});
    else if (call.dtype == DType::bf16)
        go(__nv_bfloat16{});
    else
        go(__half{});
    return {out, lse};
}

}  // namespace

/// The CUDA attention kernels take f32 / f16 / bf16 with head dims up to 128 and at most 65535
/// (batch, head) pairs (the grid's y); others decompose.
bool attention_supported(const OpCall& call, const TensorRefs& in) {
    const DType d = call.dtype;
    if (d != DType::f32 && d != DType::f16 && d != DType::bf16) return false;
    const std::size_t qi = call.op == OpId::attention ? 0 : 1;
    const Dims& q = in[qi]->shape;
    const int r = q.rank();
    int64_t batch = 1;
    for (int i = 0; i + 2 < r; ++i) batch *= q[i];
    return q[r - 1] <= 128 && in[qi + 2]->shape[r - 1] <= 128 && q[r - 2] < (1 << 30) &&
           in[qi + 1]->shape[r - 2] < (1 << 30) && batch <= 65535;
}

TensorRefs attention_backward_kernel(const OpCall& call, TensorRefs& in);  // attention_backward.cu

void register_attention(KernelTable& t) {
    t[idx(OpId::attention)] = {&attention_kernel, &attention_supported};
    t[idx(OpId::attention_backward)] = {&attention_backward_kernel, &attention_supported};
}

}  // namespace burn::cuda
