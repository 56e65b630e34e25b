// The built-in blocked GEMM (see gemm.hpp), organised like BLIS: B is packed into kc x NR column panels
// shared by all threads, each thread packs an mc x kc block of A into MR-row panels, and an MR x NR
// register-tiled micro-kernel accumulates over kc. The micro-kernel uses GCC/Clang vector extensions
// (plain loops elsewhere), so it vectorises on any target; on x86-64 it is also compiled for AVX2 and
// AVX-512 and the best variant is picked at run time.
#include "backends/cpu/gemm.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "platform/parallel.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define BURN_GEMM_VECEXT 1
#define BURN_GEMM_INLINE inline __attribute__((always_inline))
#define BURN_GEMM_UNROLL _Pragma("GCC unroll 32")
#else
#define BURN_GEMM_VECEXT 0
#define BURN_GEMM_INLINE inline
#define BURN_GEMM_UNROLL
#endif
#if BURN_GEMM_VECEXT && defined(__x86_64__) && !defined(BURN_GEMM_NO_DISPATCH)
#define BURN_GEMM_X86 1
#else
#define BURN_GEMM_X86 0
#endif

namespace burn::cpu {

namespace {

// ---------------------------------------------------------------- compute types
// f16/bf16 compute in f32; integers in unsigned arithmetic (well-defined wrap-around, same bits as
// two's complement), 32-bit for the narrow ones.
template <class T>
struct ComputeOf {
    using type = T;
};
template <>
struct ComputeOf<f16> {
    using type = float;
};
template <>
struct ComputeOf<bf16> {
    using type = float;
};
template <>
struct ComputeOf<int64_t> {
    using type = uint64_t;
};
template <>
struct ComputeOf<int32_t> {
    using type = uint32_t;
};
template <>
struct ComputeOf<int16_t> {
    using type = uint32_t;
};
template <>
struct ComputeOf<int8_t> {
    using type = uint32_t;
};
template <>
struct ComputeOf<uint8_t> {
    using type = uint32_t;
};

template <class P, class S>
BURN_GEMM_INLINE P cvt(const S& x) {
    if constexpr (std::is_same_v<S, f16> || std::is_same_v<S, bf16>) {
        return static_cast<float>(x);
    } else {
        return static_cast<P>(x);
    }
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// ---------------------------------------------------------------- micro-kernel
// acc[MR][NR] += A panel (kc x MR, one MR-column per k) * B panel (kc x NR, one NR-row per k), then
// stored to (first) or added into C. NR = NV vectors of VB bytes.
#if BURN_GEMM_VECEXT
template <class P, int VB>
struct Vec {
    typedef P type __attribute__((vector_size(VB)));
};

template <class P, int MR, int NV, int VB>
BURN_GEMM_INLINE void micro(int64_t kc, const P* __restrict ap, const P* __restrict bp, P* __restrict c,
                            int64_t ldc, int64_t mr, int64_t nr, bool first) {
    using V = typename Vec<P, VB>::type;
    constexpr int L = VB / static_cast<int>(sizeof(P));
    constexpr int NR = NV * L;
    V acc[MR][NV];
    BURN_GEMM_UNROLL for (int i = 0; i < MR; ++i) {
        BURN_GEMM_UNROLL for (int v = 0; v < NV; ++v) acc[i][v] = V{};
    }
    for (int64_t p = 0; p < kc; ++p) {
        V bv[NV];
        BURN_GEMM_UNROLL for (int v = 0; v < NV; ++v) std::memcpy(&bv[v], bp + v * L, sizeof(V));
        BURN_GEMM_UNROLL for (int i = 0; i < MR; ++i) {
            const P s = ap[i];
            BURN_GEMM_UNROLL for (int v = 0; v < NV; ++v) acc[i][v] += bv[v] * s;
        }
        ap += MR;
        bp += NR;
    }
    if (mr == MR && nr == NR) {
        BURN_GEMM_UNROLL for (int i = 0; i < MR; ++i) {
            P* row = c + i * ldc;
            BURN_GEMM_UNROLL for (int v = 0; v < NV; ++v) {
                V out = acc[i][v];
                if (!first) {
                    V old;
                    std::memcpy(&old, row + v * L, sizeof(V));
                    out += old;
                }
                std::memcpy(row + v * L, &out, sizeof(V));
            }
        }
    } else {
        P tile[MR * NR];
        std::memcpy(tile, acc, sizeof(tile));
        for (int64_t i = 0; i < mr; ++i)
            for (int64_t j = 0; j < nr; ++j)
                c[i * ldc + j] = first ? tile[i * NR + j] : P(c[i * ldc + j] + tile[i * NR + j]);
    }
}
#else
template <class P, int MR, int NV, int VB>
BURN_GEMM_INLINE void micro(int64_t kc, const P* ap, const P* bp, P* c, int64_t ldc, int64_t mr, int64_t nr,
                            bool first) {
    constexpr int NR = NV * VB / static_cast<int>(sizeof(P));
    P acc[MR][NR] = {};
    for (int64_t p = 0; p < kc; ++p, ap += MR, bp += NR)
        for (int i = 0; i < MR; ++i)
            for (int j = 0; j < NR; ++j) acc[i][j] += ap[i] * bp[j];
    for (int64_t i = 0; i < mr; ++i)
        for (int64_t j = 0; j < nr; ++j) c[i * ldc + j] = first ? acc[i][j] : P(c[i * ldc + j] + acc[i][j]);
}
#endif

// The macro-kernel: every MR x NR tile of an mc x nc block from packed A (mc x kc) and B (kc x nc).
template <class P, int MR, int NV, int VB>
BURN_GEMM_INLINE void macro_impl(int64_t mc, int64_t nc, int64_t kc, const P* ap, const P* bp, P* c, int64_t ldc,
                                 bool first) {
    constexpr int64_t NR = NV * VB / static_cast<int64_t>(sizeof(P));
    for (int64_t j = 0; j < nc; j += NR)
        for (int64_t i = 0; i < mc; i += MR)
            micro<P, MR, NV, VB>(kc, ap + i * kc, bp + j * kc, c + i * ldc + j, ldc, std::min<int64_t>(MR, mc - i),
                                 std::min<int64_t>(NR, nc - j), first);
}

template <class P>
using MacroFn = void (*)(int64_t, int64_t, int64_t, const P*, const P*, P*, int64_t, bool);

template <class P>
struct Variant {
    int64_t mr, nr;
    MacroFn<P> fn;
};

#define BURN_GEMM_DEFINE(NAME, ATTR, P, MR, NV, VB)                                                            \
    ATTR void NAME(int64_t mc, int64_t nc, int64_t kc, const P* ap, const P* bp, P* c, int64_t ldc, bool first) { \
        macro_impl<P, MR, NV, VB>(mc, nc, kc, ap, bp, c, ldc, first);                                          \
    }                                                                                                          \
    constexpr Variant<P> NAME##_v{MR, NV * VB / static_cast<int64_t>(sizeof(P)), &NAME};

// Baseline: 16-byte vectors (SSE2, NEON, wasm simd128); 6 x 2 accumulators fit 16 registers.
BURN_GEMM_DEFINE(generic_f32, , float, 6, 2, 16)
BURN_GEMM_DEFINE(generic_f64, , double, 6, 2, 16)
BURN_GEMM_DEFINE(generic_u32, , uint32_t, 6, 2, 16)
BURN_GEMM_DEFINE(generic_u64, , uint64_t, 6, 2, 16)
#if BURN_GEMM_X86
#define BURN_GEMM_AVX2 __attribute__((target("avx2,fma")))
#define BURN_GEMM_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
// AVX2: 16 ymm registers, 6 x 2 accumulators. AVX-512: 32 zmm registers, 12 x 2 accumulators.
BURN_GEMM_DEFINE(avx2_f32, BURN_GEMM_AVX2, float, 6, 2, 32)
BURN_GEMM_DEFINE(avx2_f64, BURN_GEMM_AVX2, double, 6, 2, 32)
BURN_GEMM_DEFINE(avx2_u32, BURN_GEMM_AVX2, uint32_t, 6, 2, 32)
BURN_GEMM_DEFINE(avx2_u64, BURN_GEMM_AVX2, uint64_t, 6, 2, 32)
BURN_GEMM_DEFINE(avx512_f32, BURN_GEMM_AVX512, float, 12, 2, 64)
BURN_GEMM_DEFINE(avx512_f64, BURN_GEMM_AVX512, double, 12, 2, 64)
BURN_GEMM_DEFINE(avx512_u32, BURN_GEMM_AVX512, uint32_t, 12, 2, 64)
BURN_GEMM_DEFINE(avx512_u64, BURN_GEMM_AVX512, uint64_t, 12, 2, 64)
#endif

GemmIsa detect_isa() {
#if BURN_GEMM_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
        return GemmIsa::avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return GemmIsa::avx2;
#endif
    return GemmIsa::generic;
}

std::atomic<int>& isa_state() {
    static std::atomic<int> state{static_cast<int>(detect_isa())};
    return state;
}

template <class P>
Variant<P> variant(GemmIsa isa) {
#define BURN_GEMM_PICK(SUFFIX)                                      \
    switch (isa) {                                                  \
        case GemmIsa::avx512: BURN_GEMM_PICK_X86(avx512_##SUFFIX##_v) \
        case GemmIsa::avx2: BURN_GEMM_PICK_X86(avx2_##SUFFIX##_v)     \
        case GemmIsa::generic: break;                               \
    }                                                               \
    return generic_##SUFFIX##_v;
#if BURN_GEMM_X86
#define BURN_GEMM_PICK_X86(V) return V;
#else
#define BURN_GEMM_PICK_X86(V) break;
#endif
    if constexpr (std::is_same_v<P, float>) {
        BURN_GEMM_PICK(f32)
    } else if constexpr (std::is_same_v<P, double>) {
        BURN_GEMM_PICK(f64)
    } else if constexpr (std::is_same_v<P, uint32_t>) {
        BURN_GEMM_PICK(u32)
    } else {
        static_assert(std::is_same_v<P, uint64_t>);
        BURN_GEMM_PICK(u64)
    }
#undef BURN_GEMM_PICK
#undef BURN_GEMM_PICK_X86
}

// ---------------------------------------------------------------- packing
// A block (mc x kc) into MR-row panels: panel r holds element (r * MR + i, p) at [p * MR + i].
template <class P, class S>
void pack_a(int64_t mc, int64_t kc, const S* a, int64_t rs, int64_t cs, int64_t mr, P* dst) {
    for (int64_t i0 = 0; i0 < mc; i0 += mr, dst += mr * kc) {
        const int64_t rows = std::min(mr, mc - i0);
        const S* src = a + i0 * rs;
        if (rows < mr) std::fill(dst, dst + mr * kc, P(0));
        if (cs == 1 && rs != 1) {
            for (int64_t i = 0; i < rows; ++i) {
                const S* row = src + i * rs;
                for (int64_t p = 0; p < kc; ++p) dst[p * mr + i] = cvt<P>(row[p]);
            }
        } else {
            for (int64_t p = 0; p < kc; ++p) {
                const S* col = src + p * cs;
                for (int64_t i = 0; i < rows; ++i) dst[p * mr + i] = cvt<P>(col[i * rs]);
            }
        }
    }
}

// B panel (kc x nc) into NR-column panels: panel q holds element (p, q * NR + j) at [p * NR + j].
template <class P, class S>
void pack_b(int64_t kc, int64_t nc, const S* b, int64_t rs, int64_t cs, int64_t nr, P* dst) {
    for (int64_t j0 = 0; j0 < nc; j0 += nr, dst += nr * kc) {
        const int64_t cols = std::min(nr, nc - j0);
        const S* src = b + j0 * cs;
        if (cols < nr) std::fill(dst, dst + nr * kc, P(0));
        if (cs == 1 || rs != 1) {
            for (int64_t p = 0; p < kc; ++p) {
                const S* row = src + p * rs;
                P* d = dst + p * nr;
                if (cs == 1) {
                    for (int64_t j = 0; j < cols; ++j) d[j] = cvt<P>(row[j]);
                } else {
                    for (int64_t j = 0; j < cols; ++j) d[j] = cvt<P>(row[j * cs]);
                }
            }
        } else {
            for (int64_t j = 0; j < cols; ++j) {
                const S* col = src + j * cs;
                for (int64_t p = 0; p < kc; ++p) dst[p * nr + j] = cvt<P>(col[p]);
            }
        }
    }
}

/// A 64-byte aligned view of at least n elements of buf (grown as needed, kept for reuse).
template <class P>
P* aligned(std::vector<P>& buf, int64_t n) {
    const std::size_t need = static_cast<std::size_t>(n) + 64 / sizeof(P);
    if (buf.size() < need) buf.resize(need);
    auto p = reinterpret_cast<std::uintptr_t>(buf.data());
    return reinterpret_cast<P*>((p + 63) & ~static_cast<std::uintptr_t>(63));
}

constexpr int64_t kKC = 256;   // depth of a packed block (B micro-panel kc x NR stays in L1)
constexpr int64_t kMC = 240;   // rows of a packed A block (mc x kc stays in L2)
constexpr int64_t kNC = 4096;  // columns of a packed B panel
constexpr double kSerialFlops = 64.0 * 64.0 * 64.0;  // below this, threads cost more than they gain

// Few rows (a vector-matrix product): no packing, stream B's rows into C's rows.
template <class P, class S>
void gemm_rows(int64_t m, int64_t n, int64_t k, const S* a, int64_t a_rs, int64_t a_cs, const S* b, int64_t b_rs,
               P* c, int64_t ldc, bool parallel) {
    auto cols = [&](int64_t j0, int64_t j1) {
        for (int64_t i = 0; i < m; ++i) {
            P* crow = c + i * ldc;
            std::fill(crow + j0, crow + j1, P(0));
            for (int64_t p = 0; p < k; ++p) {
                const P s = cvt<P>(a[i * a_rs + p * a_cs]);
                const S* brow = b + p * b_rs;
                for (int64_t j = j0; j < j1; ++j) crow[j] += s * cvt<P>(brow[j]);
            }
        }
    };
    if (parallel)
        platform::parallel_for(n, 512, cols);
    else
        cols(0, n);
}

template <class P, class S>
void gemm_packed(int64_t m, int64_t n, int64_t k, const S* a, int64_t a_rs, int64_t a_cs, const S* b,
                 int64_t b_rs, int64_t b_cs, P* c, int64_t ldc) {
    const double flops = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    const int64_t threads = flops < kSerialFlops ? 1 : std::max(1, platform::threads());
    if (m <= 2 && b_cs == 1) return gemm_rows<P, S>(m, n, k, a, a_rs, a_cs, b, b_rs, c, ldc, threads > 1);

    const Variant<P> var = variant<P>(gemm_isa());
    const int64_t MR = var.mr, NR = var.nr;
    // Row blocks: a multiple of the thread count (balanced), each at most kMC rows.
    int64_t grid_m = std::min(round_up(ceil_div(m, kMC), threads), ceil_div(m, MR));
    const int64_t mc = round_up(ceil_div(m, grid_m), MR);
    grid_m = ceil_div(m, mc);
    // Even depth and column blocks (k = 300 gives 150 + 150, not 256 + 44).
    const int64_t kc_full = ceil_div(k, ceil_div(k, kKC));
    const int64_t nc_full = round_up(ceil_div(n, ceil_div(n, kNC)), NR);
    static thread_local std::vector<P> b_buf;
    P* bp = aligned(b_buf, kc_full * nc_full);

    for (int64_t jc = 0; jc < n; jc += nc_full) {
        const int64_t nc = std::min(nc_full, n - jc);
        // Too few row blocks for the threads: split the columns too.
        int64_t grid_n = grid_m < threads ? std::min(ceil_div(threads, grid_m), ceil_div(nc, NR)) : 1;
        const int64_t ncb = round_up(ceil_div(nc, grid_n), NR);
        grid_n = ceil_div(nc, ncb);
        for (int64_t pc = 0; pc < k; pc += kc_full) {
            const int64_t kc = std::min(kc_full, k - pc);
            pack_b(kc, nc, b + pc * b_rs + jc * b_cs, b_rs, b_cs, NR, bp);
            auto tiles = [&](int64_t t0, int64_t t1) {
                static thread_local std::vector<P> a_buf;
                P* ap = aligned(a_buf, mc * kc);
                int64_t packed = -1;
                for (int64_t t = t0; t < t1; ++t) {
                    const int64_t ib = t / grid_n, jb = t % grid_n;
                    const int64_t i0 = ib * mc, rows = std::min(mc, m - i0);
                    const int64_t j0 = jb * ncb, cols = std::min(ncb, nc - j0);
                    if (ib != packed) {
                        pack_a(rows, kc, a + i0 * a_rs + pc * a_cs, a_rs, a_cs, MR, ap);
                        packed = ib;
                    }
                    var.fn(rows, cols, kc, ap, bp + j0 * kc, c + i0 * ldc + jc + j0, ldc, pc == 0);
                }
            };
            const int64_t ntiles = grid_m * grid_n;
            if (threads > 1 && ntiles > 1)
                platform::parallel_for(ntiles, 1, tiles);
            else
                tiles(0, ntiles);
        }
    }
}

}  // namespace

GemmIsa gemm_isa() { return static_cast<GemmIsa>(isa_state().load(std::memory_order_relaxed)); }

GemmIsa gemm_cpu_isa() {
    static const GemmIsa best = detect_isa();
    return best;
}

GemmIsa set_gemm_isa(GemmIsa isa) {
    const GemmIsa best = gemm_cpu_isa();
    const GemmIsa use = static_cast<int>(isa) > static_cast<int>(best) ? best : isa;
    isa_state().store(static_cast<int>(use));
    return use;
}

const char* gemm_isa_name(GemmIsa isa) {
    switch (isa) {
        case GemmIsa::avx512: return "avx512";
        case GemmIsa::avx2: return "avx2";
        case GemmIsa::generic: break;
    }
    return "generic";
}

template <class T>
void gemm_fallback(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b,
                   int64_t b_rs, int64_t b_cs, T* c, int64_t ldc) {
    using P = typename ComputeOf<T>::type;
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T{});
        return;
    }
    if constexpr (std::is_same_v<P, T>) {
        gemm_packed<P, T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == sizeof(P)) {
        // int32/int64 results are the unsigned results' bits (signed and unsigned types may alias).
        gemm_packed<P, T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, reinterpret_cast<P*>(c), ldc);
    } else {
        std::vector<P> tmp(static_cast<std::size_t>(m * n));
        gemm_packed<P, T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, tmp.data(), n);
        platform::parallel_for(m, std::max<int64_t>(1, 32768 / n), [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i)
                for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = static_cast<T>(tmp[static_cast<std::size_t>(i * n + j)]);
        });
    }
}

#define BURN_GEMM_INSTANTIATE(T)                                                                              \
    template void gemm_fallback<T>(int64_t, int64_t, int64_t, const T*, int64_t, int64_t, const T*, int64_t, \
                                   int64_t, T*, int64_t);
BURN_GEMM_INSTANTIATE(float)
BURN_GEMM_INSTANTIATE(double)
BURN_GEMM_INSTANTIATE(f16)
BURN_GEMM_INSTANTIATE(bf16)
BURN_GEMM_INSTANTIATE(int64_t)
BURN_GEMM_INSTANTIATE(int32_t)
BURN_GEMM_INSTANTIATE(int16_t)
BURN_GEMM_INSTANTIATE(int8_t)
BURN_GEMM_INSTANTIATE(uint8_t)

}  // namespace burn::cpu
