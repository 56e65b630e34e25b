// The built-in blocked GEMM (see gemm.hpp), organised like BLIS: B is packed into kc x NR column panels
// shared by all threads, each thread packs an mc x kc block of A into MR-row panels, and an MR x NR
// register-tiled micro-kernel accumulates over kc. The micro-kernel uses GCC/Clang vector extensions
// (plain loops elsewhere), so it vectorises on any target; on x86-64 it is also compiled for AVX2 and
// AVX-512 and the best variant is picked at run time.
#include "backends/cpu/gemm.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/cpu/gemm_kernels.hpp"
#include "backends/cpu/simd_act.hpp"
#include "platform/parallel.hpp"
#include "platform/sync.hpp"

namespace burn::cpu {

namespace {

using namespace gemm_kernels;

template <class P>
using MacroFn = void (*)(int64_t, int64_t, int64_t, const P*, const P*, P*, int64_t, bool);

template <class P>
using PackFn = void (*)(int64_t, int64_t, const P*, int64_t, int64_t, P*);

/// One instruction-set variant for compute type P: tile sizes, macro-kernel and packing routines
/// (for sources of type P; other sources use the generic packing templates).
template <class P>
struct Variant {
    int64_t mr, nr;
    MacroFn<P> fn;
    PackFn<P> pack_a, pack_b;
};

#define BURN_GEMM_DEFINE(NAME, ATTR, P, MR, NV, VB)                                                 \
    ATTR void NAME(int64_t mc, int64_t nc, int64_t kc, const P* ap, const P* bp, P* c, int64_t ldc, \
                   bool first) {                                                                    \
        macro_impl<P, MR, NV, VB>(mc, nc, kc, ap, bp, c, ldc, first);                               \
    }                                                                                               \
    ATTR void NAME##_pa(int64_t mc, int64_t kc, const P* a, int64_t rs, int64_t cs, P* dst) {       \
        pack_a_impl<P, P, MR>(mc, kc, a, rs, cs, dst);                                              \
    }                                                                                               \
    ATTR void NAME##_pb(int64_t kc, int64_t nc, const P* b, int64_t rs, int64_t cs, P* dst) {       \
        pack_b_impl<P, P, NV * VB / static_cast<int64_t>(sizeof(P))>(kc, nc, b, rs, cs, dst);       \
    }                                                                                               \
    constexpr Variant<P> NAME##_v{MR, NV * VB / static_cast<int64_t>(sizeof(P)), &NAME, &NAME##_pa, \
                                  &NAME##_pb};

// Baseline: 16-byte vectors (SSE2, NEON, wasm simd128); 6 x 2 accumulators fit 16 registers.
// WebAssembly: 4 x 2. The engine's register allocator (V8 maps v128 onto 16 xmm registers) spills
// some of the 6 x 2 tile's accumulators: 4 x 8 f32 tiles run 2.2x faster in node 20 (26.6 against
// 12.2 GMAC/s for a 64 x 196 x 288 block; docs/wasm.md).
#if defined(__wasm_simd128__)
constexpr int kGenericMR = 4;
#else
constexpr int kGenericMR = 6;
#endif
BURN_GEMM_DEFINE(generic_f32, , float, kGenericMR, 2, 16)
BURN_GEMM_DEFINE(generic_f64, , double, kGenericMR, 2, 16)
BURN_GEMM_DEFINE(generic_u32, , uint32_t, kGenericMR, 2, 16)
BURN_GEMM_DEFINE(generic_u64, , uint64_t, kGenericMR, 2, 16)
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
#define BURN_GEMM_PICK(SUFFIX)                      \
    switch (isa) {                                  \
        case GemmIsa::avx512:                       \
            BURN_GEMM_PICK_X86(avx512_##SUFFIX##_v) \
        case GemmIsa::avx2:                         \
            BURN_GEMM_PICK_X86(avx2_##SUFFIX##_v)   \
        case GemmIsa::generic:                      \
            break;                                  \
    }                                               \
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

/// Packing for sources of another type (f16/bf16, narrow ints): the panel widths as template arguments.
template <class P, class S>
void pack_a_any(const Variant<P>& v, int64_t mc, int64_t kc, const S* a, int64_t rs, int64_t cs, P* dst) {
    switch (v.mr) {
        case 4:
            return pack_a_impl<P, S, 4>(mc, kc, a, rs, cs, dst);
        case 6:
            return pack_a_impl<P, S, 6>(mc, kc, a, rs, cs, dst);
        case 12:
            return pack_a_impl<P, S, 12>(mc, kc, a, rs, cs, dst);
        default:
            break;
    }
}
template <class P, class S>
void pack_b_any(const Variant<P>& v, int64_t kc, int64_t nc, const S* b, int64_t rs, int64_t cs, P* dst) {
    switch (v.nr) {
        case 4:
            return pack_b_impl<P, S, 4>(kc, nc, b, rs, cs, dst);
        case 8:
            return pack_b_impl<P, S, 8>(kc, nc, b, rs, cs, dst);
        case 16:
            return pack_b_impl<P, S, 16>(kc, nc, b, rs, cs, dst);
        case 32:
            return pack_b_impl<P, S, 32>(kc, nc, b, rs, cs, dst);
        default:
            break;
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

constexpr int64_t kKC = 512;   // depth of a packed block (fewer passes over C; measured best here)
constexpr int64_t kMC = 240;   // rows of a packed A block (mc x kc stays in L2)
constexpr int64_t kNC = 4096;  // columns of a packed B panel
constexpr double kSerialFlops = 64.0 * 64.0 * 64.0;  // below this, threads cost more than they gain
constexpr int64_t kDotRows = 8;                      // up to this many rows of A: no packing (gemm_fallback)

// Few rows (a vector-matrix product): no packing, stream B's rows into C's rows.
template <class P, class S>
void gemm_rows(int64_t m, int64_t n, int64_t k, const S* a, int64_t a_rs, int64_t a_cs, const S* b,
               int64_t b_rs, P* c, int64_t ldc, bool parallel) {
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
    // Even depth and column blocks (k = 600 gives 300 + 300, not 512 + 88).
    const int64_t kc_full = ceil_div(k, ceil_div(k, kKC));
    const int64_t nc_full = round_up(ceil_div(n, ceil_div(n, kNC)), NR);
    static BURN_THREAD_LOCAL std::vector<P> b_buf;
    P* bp = aligned(b_buf, kc_full * nc_full);

    for (int64_t jc = 0; jc < n; jc += nc_full) {
        const int64_t nc = std::min(nc_full, n - jc);
        // Too few row blocks for the threads: split the columns too.
        int64_t grid_n = grid_m < threads ? std::min(ceil_div(threads, grid_m), ceil_div(nc, NR)) : 1;
        const int64_t ncb = round_up(ceil_div(nc, grid_n), NR);
        grid_n = ceil_div(nc, ncb);
        for (int64_t pc = 0; pc < k; pc += kc_full) {
            const int64_t kc = std::min(kc_full, k - pc);
            if constexpr (std::is_same_v<S, P>)
                var.pack_b(kc, nc, b + pc * b_rs + jc * b_cs, b_rs, b_cs, bp);
            else
                pack_b_any(var, kc, nc, b + pc * b_rs + jc * b_cs, b_rs, b_cs, bp);
            auto tiles = [&](int64_t t0, int64_t t1) {
                static BURN_THREAD_LOCAL std::vector<P> a_buf;
                P* ap = aligned(a_buf, mc * kc);
                int64_t packed = -1;
                for (int64_t t = t0; t < t1; ++t) {
                    const int64_t ib = t / grid_n, jb = t % grid_n;
                    const int64_t i0 = ib * mc, rows = std::min(mc, m - i0);
                    const int64_t j0 = jb * ncb, cols = std::min(ncb, nc - j0);
                    if (ib != packed) {
                        if constexpr (std::is_same_v<S, P>)
                            var.pack_a(rows, kc, a + i0 * a_rs + pc * a_cs, a_rs, a_cs, ap);
                        else
                            pack_a_any(var, rows, kc, a + i0 * a_rs + pc * a_cs, a_rs, a_cs, ap);
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

GemmIsa gemm_isa() {
    return static_cast<GemmIsa>(isa_state().load(std::memory_order_relaxed));
}

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
        case GemmIsa::avx512:
            return "avx512";
        case GemmIsa::avx2:
            return "avx2";
        case GemmIsa::generic:
            break;
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
    if constexpr (std::is_same_v<T, float>) {
        // A few rows times a matrix (a Linear layer on a small batch, an ONNX classifier's Gemm): packing
        // B would cost more than the product, which reads B once (and packs it on one thread). Dot
        // products with B's rows when B is a transposed row-major matrix (W^T), else row-vector
        // updates; in parallel over column blocks, each block of B read from cache by every row of A.
        // MobileNetV2's 8 x 1280 x 1000 classifier: 1.0 -> 0.29 ms on two threads (docs/performance.md).
        if (m <= kDotRows && a_cs == 1 && (b_rs == 1 || b_cs == 1)) {
            const int64_t grain = std::max<int64_t>(16, 32768 / k);
            platform::parallel_for(n, grain, [&](int64_t j0, int64_t j1) {
                for (int64_t i = 0; i < m; ++i) {
                    if (b_rs == 1)
                        simd::dot_rows(a + i * a_rs, b + j0 * b_cs, b_cs, k, c + i * ldc + j0, j1 - j0);
                    else
                        simd::axpy_rows(a + i * a_rs, b + j0, b_rs, k, c + i * ldc + j0, j1 - j0);
                }
            });
            return;
        }
    }
    if constexpr (std::is_same_v<P, T>) {
        gemm_packed<P, T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == sizeof(P)) {
        // int32/int64 in unsigned arithmetic: the same bits (signed and unsigned types may alias).
        gemm_packed<P, P>(m, n, k, reinterpret_cast<const P*>(a), a_rs, a_cs, reinterpret_cast<const P*>(b),
                          b_rs, b_cs, reinterpret_cast<P*>(c), ldc);
    } else {
        std::vector<P> tmp(static_cast<std::size_t>(m * n));
        gemm_packed<P, T>(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, tmp.data(), n);
        platform::parallel_for(m, std::max<int64_t>(1, 32768 / n), [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i)
                for (int64_t j = 0; j < n; ++j)
                    c[i * ldc + j] = static_cast<T>(tmp[static_cast<std::size_t>(i * n + j)]);
        });
    }
}

#define BURN_GEMM_INSTANTIATE(T)                                                                             \
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
