#pragma once
// The building blocks of the built-in GEMM (gemm.cpp): compute types, the register-tiled micro-kernel,
// the macro-kernel over packed blocks and the packing routines. Templates only; gemm.cpp instantiates
// them once per instruction-set variant. Internal to the CPU backend.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "burn/core/dtype.hpp"

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

namespace burn::cpu::gemm_kernels {

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

inline int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
inline int64_t round_up(int64_t a, int64_t b) {
    return ceil_div(a, b) * b;
}

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
    // Fetch C's tile while the k loop runs (it is read or written once at the end).
    for (int i = 0; i < MR; ++i) {
        __builtin_prefetch(c + i * ldc, 1);
        __builtin_prefetch(c + i * ldc + NR - 1, 1);
    }
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
BURN_GEMM_INLINE void macro_impl(int64_t mc, int64_t nc, int64_t kc, const P* ap, const P* bp, P* c,
                                 int64_t ldc, bool first) {
    constexpr int64_t NR = NV * VB / static_cast<int64_t>(sizeof(P));
    for (int64_t j = 0; j < nc; j += NR)
        for (int64_t i = 0; i < mc; i += MR)
            micro<P, MR, NV, VB>(kc, ap + i * kc, bp + j * kc, c + i * ldc + j, ldc,
                                 std::min<int64_t>(MR, mc - i), std::min<int64_t>(NR, nc - j), first);
}

// ---------------------------------------------------------------- packing
// A panel of W lanes: dst[p * W + l] = src[l * lane_stride + p * k_stride] for l < lanes, zero-padded
// to W lanes. A's MR-row panels have lanes = rows; B's NR-column panels have lanes = columns. When
// the source's lanes are contiguous this is a row copy; when its k is contiguous (row-major A,
// transposed B) it is a transpose, done in 16-byte blocks with vector shuffles where available.
#if BURN_GEMM_VECEXT
typedef uint32_t U32x4 __attribute__((vector_size(16)));
typedef int32_t I32x4 __attribute__((vector_size(16)));
typedef uint64_t U64x2 __attribute__((vector_size(16)));
typedef int64_t I64x2 __attribute__((vector_size(16)));
#if defined(__clang__)
#define BURN_SHUF(M, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define BURN_SHUF(M, a, b, ...) __builtin_shuffle(a, b, M{__VA_ARGS__})
#endif

/// dst[q * W + l] = src[l * ld + q] for a block of L x L elements (L = 16 / sizeof(E)).
template <class E, int64_t W>
BURN_GEMM_INLINE void transpose_block(const E* src, int64_t ld, E* dst) {
    if constexpr (sizeof(E) == 4) {
        U32x4 r0, r1, r2, r3;
        std::memcpy(&r0, src, 16);
        std::memcpy(&r1, src + ld, 16);
        std::memcpy(&r2, src + 2 * ld, 16);
        std::memcpy(&r3, src + 3 * ld, 16);
        const U32x4 t0 = BURN_SHUF(I32x4, r0, r1, 0, 4, 1, 5), t1 = BURN_SHUF(I32x4, r0, r1, 2, 6, 3, 7);
        const U32x4 t2 = BURN_SHUF(I32x4, r2, r3, 0, 4, 1, 5), t3 = BURN_SHUF(I32x4, r2, r3, 2, 6, 3, 7);
        const U32x4 c0 = BURN_SHUF(I32x4, t0, t2, 0, 1, 4, 5), c1 = BURN_SHUF(I32x4, t0, t2, 2, 3, 6, 7);
        const U32x4 c2 = BURN_SHUF(I32x4, t1, t3, 0, 1, 4, 5), c3 = BURN_SHUF(I32x4, t1, t3, 2, 3, 6, 7);
        std::memcpy(dst, &c0, 16);
        std::memcpy(dst + W, &c1, 16);
        std::memcpy(dst + 2 * W, &c2, 16);
        std::memcpy(dst + 3 * W, &c3, 16);
    } else {
        U64x2 r0, r1;
        std::memcpy(&r0, src, 16);
        std::memcpy(&r1, src + ld, 16);
        const U64x2 c0 = BURN_SHUF(I64x2, r0, r1, 0, 2), c1 = BURN_SHUF(I64x2, r0, r1, 1, 3);
        std::memcpy(dst, &c0, 16);
        std::memcpy(dst + W, &c1, 16);
    }
}
#endif

template <class P, class S, int64_t W>
BURN_GEMM_INLINE void pack_panel(int64_t lanes, int64_t kc, const S* src, int64_t lane_stride,
                                 int64_t k_stride, P* dst) {
    if (lanes < W) std::fill(dst, dst + W * kc, P(0));
    if (lane_stride == 1) {
        for (int64_t p = 0; p < kc; ++p) {
            const S* s = src + p * k_stride;
            P* d = dst + p * W;
            if (lanes == W) {
                for (int64_t l = 0; l < W; ++l) d[l] = cvt<P>(s[l]);
            } else {
                for (int64_t l = 0; l < lanes; ++l) d[l] = cvt<P>(s[l]);
            }
        }
        return;
    }
    int64_t l0 = 0;
#if BURN_GEMM_VECEXT
    // Same-size integer or float source: move bits in L x L blocks.
    if constexpr (std::is_same_v<S, P> && (sizeof(P) == 4 || sizeof(P) == 8) && W % (16 / sizeof(P)) == 0) {
        constexpr int64_t L = 16 / sizeof(P);
        if (k_stride == 1) {
            const int64_t kb = kc - kc % L;
            for (; l0 + L <= lanes; l0 += L) {
                const S* s = src + l0 * lane_stride;
                for (int64_t p = 0; p < kb; p += L)
                    transpose_block<P, W>(s + p, lane_stride, dst + p * W + l0);
                for (int64_t p = kb; p < kc; ++p)
                    for (int64_t l = 0; l < L; ++l) dst[p * W + l0 + l] = s[l * lane_stride + p];
            }
        }
    }
#endif
    for (int64_t l = l0; l < lanes; ++l) {
        const S* s = src + l * lane_stride;
        for (int64_t p = 0; p < kc; ++p) dst[p * W + l] = cvt<P>(s[p * k_stride]);
    }
}

/// A block (mc x kc) into MR-row panels: panel r holds element (r * MR + i, p) at [p * MR + i].
template <class P, class S, int64_t MR>
BURN_GEMM_INLINE void pack_a_impl(int64_t mc, int64_t kc, const S* a, int64_t rs, int64_t cs, P* dst) {
    for (int64_t i0 = 0; i0 < mc; i0 += MR, dst += MR * kc)
        pack_panel<P, S, MR>(std::min(MR, mc - i0), kc, a + i0 * rs, rs, cs, dst);
}

/// B panel (kc x nc) into NR-column panels: panel q holds element (p, q * NR + j) at [p * NR + j].
template <class P, class S, int64_t NR>
BURN_GEMM_INLINE void pack_b_impl(int64_t kc, int64_t nc, const S* b, int64_t rs, int64_t cs, P* dst) {
    for (int64_t j0 = 0; j0 < nc; j0 += NR, dst += NR * kc)
        pack_panel<P, S, NR>(std::min(NR, nc - j0), kc, b + j0 * cs, cs, rs, dst);
}

}  // namespace burn::cpu::gemm_kernels
