// CPU convolution kernels (ops.def rows conv, conv_backward_input, conv_backward_weight) for 1 to 3
// spatial dims, by im2col + GEMM per image and group:
//   forward        y[n, g]  = W[g] (og x Kg) * col(x[n, g]) (Kg x L)            (+ bias)
//   input grad     dx[n, g] = col2im(W[g]^T (Kg x og) * dy[n, g] (og x L))
//   weight grad    dW[g]    = sum_n dy[n, g] (og x L) * col(x[n, g])^T         (images batched along L)
// with Kg = C/groups * kernel volume and L the output's spatial volume. A 1x1 kernel with stride 1 and
// no padding skips im2col (x itself is the column matrix). Images run in parallel with a serial GEMM
// each; f16/bf16 compute in f32. The f32 forward goes to oneDNN first when the build has it
// (dnnl_conv.cpp), and 3x3 stride-1 ones on the generic GEMM to Winograd (conv_winograd.cpp).
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "backends/cpu/conv_winograd.hpp"
#include "backends/cpu/dnnl_conv.hpp"
#include "backends/cpu/gemm.hpp"
#include "backends/cpu/nn_common.hpp"

namespace burn::cpu {

namespace {

/// A convolution's sizes, spatial dims right-aligned into 3 (leading ones of size 1).
struct Geo {
    int64_t n = 0, c = 0, o = 0, groups = 1, cg = 0, og = 0;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
    int64_t in_vol = 1, k_vol = 1, out_vol = 1, kg = 0;

    /// 1x1 kernel, stride 1, no padding: the input is already the column matrix.
    bool pointwise() const {
        for (int i = 0; i < 3; ++i)
            if (k[i] != 1 || stride[i] != 1 || pad[i] != 0 || in[i] != out[i]) return false;
        return true;
    }
};

Geo conv_geometry(const attrs::Conv& a, const Dims& x, const Dims& w, const Dims& y) {
    Geo g;
    const int s = x.rank() - 2, off = 3 - s;
    g.n = x[0];
    g.c = x[1];
    g.o = w[0];
    g.groups = a.groups;
    g.cg = g.c / g.groups;
    g.og = g.o / g.groups;
    for (int i = 0; i < s; ++i) {
        g.in[off + i] = x[i + 2];
        g.k[off + i] = w[i + 2];
        g.out[off + i] = y[i + 2];
        const auto k = static_cast<std::size_t>(i);
        g.stride[off + i] = a.stride[k];
        g.pad[off + i] = a.pad_begin[k];
        g.dil[off + i] = a.dilation[k];
    }
    for (int i = 0; i < 3; ++i) {
        g.in_vol *= g.in[i];
        g.k_vol *= g.k[i];
        g.out_vol *= g.out[i];
    }
    g.kg = g.cg * g.k_vol;
    return g;
}

/// The range [lo, hi) of output positions o whose input position o * s - p + kk * d lies in [0, in).
inline void valid_range(int64_t out, int64_t in, int64_t s, int64_t p, int64_t kk, int64_t d, int64_t& lo,
                        int64_t& hi) {
    const int64_t first = p - kk * d;          // o * s >= first
    const int64_t last = in - 1 + p - kk * d;  // o * s <= last
    lo = first <= 0 ? 0 : (first + s - 1) / s;
    hi = last < 0 ? 0 : std::min(out, last / s + 1);
    if (hi < lo) hi = lo;
}

// Rows here are short (an image row): GCC would turn the copy and zero loops into memcpy / memset
// calls whose overhead exceeds the work, so they stay (vectorised) loops, inlined into variants
// compiled for AVX2 and AVX-512 (picked at run time with the GEMM's instruction set).
#if defined(__GNUC__) && !defined(__clang__)
#define BURN_NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define BURN_NO_MEMCPY
#endif
#if defined(__GNUC__)
#define BURN_INLINE_LOOPS __attribute__((always_inline)) inline
#else
#define BURN_INLINE_LOOPS inline
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#define BURN_CONV_X86 1
#define BURN_CONV_AVX2 __attribute__((target("avx2,fma")))
#define BURN_CONV_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#else
#define BURN_CONV_X86 0
#endif

/// The output ranges along each spatial dim whose tap (k0, k1, k2) reads inside the input.
struct TapRange {
    int64_t lo[3], hi[3], shift;
};

inline TapRange taps_of(const Geo& g, int64_t k0, int64_t k1, int64_t k2) {
    TapRange t;
    const int64_t k[3] = {k0, k1, k2};
    for (int i = 0; i < 3; ++i)
        valid_range(g.out[i], g.in[i], g.stride[i], g.pad[i], k[i], g.dil[i], t.lo[i], t.hi[i]);
    t.shift = k2 * g.dil[2] - g.pad[2];
    return t;
}

/// col rows [Kg] x columns [L] (row stride ld) from channels c0..c0+cg of one image x [C, in_vol].
template <class T>
BURN_INLINE_LOOPS void im2col_impl(const T* __restrict x, const Geo& g, int64_t c0, T* __restrict col,
                                   int64_t ld) {
    const int64_t o1 = g.out[1], o2 = g.out[2], s2 = g.stride[2];
    const bool block = g.stride[1] == 1 && s2 == 1 && g.in[2] == o2;
    for (int64_t c = 0; c < g.cg; ++c) {
        const T* xc = x + (c0 + c) * g.in_vol;
        int64_t row = c * g.k_vol;
        for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
            for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
                for (int64_t k2 = 0; k2 < g.k[2]; ++k2, ++row) {
                    T* dst = col + row * ld;
                    const TapRange t = taps_of(g, k0, k1, k2);
                    const int64_t lo = t.lo[2], hi = t.hi[2];
                    for (int64_t a = 0; a < g.out[0]; ++a) {
                        T* plane = dst + a * o1 * o2;
                        if (a < t.lo[0] || a >= t.hi[0]) {
                            std::fill(plane, plane + o1 * o2, T(0));
                            continue;
                        }
                        const int64_t i0 = a * g.stride[0] - g.pad[0] + k0 * g.dil[0];
                        std::fill(plane, plane + t.lo[1] * o2, T(0));
                        const int64_t rows = t.hi[1] - t.lo[1];
                        if (block && rows > 0 && hi > lo) {
                            // Rows follow each other in the input too: one copy, then zero the borders.
                            T* d = plane + t.lo[1] * o2;
                            const int64_t i1 = t.lo[1] - g.pad[1] + k1 * g.dil[1];
                            const T* src = xc + (i0 * g.in[1] + i1) * g.in[2] + t.shift;
                            std::memcpy(d + lo, src + lo,
                                        static_cast<std::size_t>((rows - 1) * o2 + hi - lo) * sizeof(T));
                            for (int64_t r = 0; r < rows; ++r) {
                                for (int64_t e = 0; e < lo; ++e) d[r * o2 + e] = T(0);
                                for (int64_t e = hi; e < o2; ++e) d[r * o2 + e] = T(0);
                            }
                        } else {
                            for (int64_t b = t.lo[1]; b < t.hi[1]; ++b) {
                                T* d = plane + b * o2;
                                const int64_t i1 = b * g.stride[1] - g.pad[1] + k1 * g.dil[1];
                                const T* src = xc + (i0 * g.in[1] + i1) * g.in[2] + t.shift;
                                for (int64_t e = 0; e < lo; ++e) d[e] = T(0);
                                if (s2 == 1) {
                                    for (int64_t e = lo; e < hi; ++e) d[e] = src[e];
                                } else {
                                    for (int64_t e = lo; e < hi; ++e) d[e] = src[e * s2];
                                }
                                for (int64_t e = hi; e < o2; ++e) d[e] = T(0);
                            }
                        }
                        std::fill(plane + t.hi[1] * o2, plane + o1 * o2, T(0));
                    }
                }
    }
}

/// Adds col rows [Kg] x [L] (row stride ld) back into channels c0..c0+cg of one image dx [C, in_vol].
/// col is scratch: the entries that fall outside the input are zeroed on the way.
template <class T>
BURN_INLINE_LOOPS void col2im_impl(T* __restrict col, const Geo& g, int64_t c0, T* __restrict dx,
                                   int64_t ld) {
    const int64_t o1 = g.out[1], o2 = g.out[2], s2 = g.stride[2];
    const bool block = g.stride[1] == 1 && s2 == 1 && g.in[2] == o2;
    for (int64_t c = 0; c < g.cg; ++c) {
        T* xc = dx + (c0 + c) * g.in_vol;
        int64_t row = c * g.k_vol;
        for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
            for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
                for (int64_t k2 = 0; k2 < g.k[2]; ++k2, ++row) {
                    T* src = col + row * ld;
                    const TapRange t = taps_of(g, k0, k1, k2);
                    const int64_t lo = t.lo[2], hi = t.hi[2], rows = t.hi[1] - t.lo[1];
                    for (int64_t a = t.lo[0]; a < t.hi[0]; ++a) {
                        const int64_t i0 = a * g.stride[0] - g.pad[0] + k0 * g.dil[0];
                        if (block && rows > 0 && hi > lo) {
                            // One long add over the rows; the columns outside the input add zeros.
                            T* s = src + (a * o1 + t.lo[1]) * o2;
                            for (int64_t r = 0; r < rows; ++r) {
                                for (int64_t e = 0; e < lo; ++e) s[r * o2 + e] = T(0);
                                for (int64_t e = hi; e < o2; ++e) s[r * o2 + e] = T(0);
                            }
                            const int64_t i1 = t.lo[1] - g.pad[1] + k1 * g.dil[1];
                            T* d = xc + (i0 * g.in[1] + i1) * g.in[2] + t.shift;
                            const int64_t end = (rows - 1) * o2 + hi;
                            for (int64_t e = lo; e < end; ++e) d[e] += s[e];
                            continue;
                        }
                        for (int64_t b = t.lo[1]; b < t.hi[1]; ++b) {
                            const int64_t i1 = b * g.stride[1] - g.pad[1] + k1 * g.dil[1];
                            const T* s = src + (a * o1 + b) * o2;
                            T* d = xc + (i0 * g.in[1] + i1) * g.in[2] + t.shift;
                            if (s2 == 1) {
                                for (int64_t e = lo; e < hi; ++e) d[e] += s[e];
                            } else {
                                for (int64_t e = lo; e < hi; ++e) d[e * s2] += s[e];
                            }
                        }
                    }
                }
    }
}

#define BURN_CONV_VARIANTS(ATTR, SUFFIX)                                                                 \
    template <class T>                                                                                   \
    ATTR BURN_NO_MEMCPY void im2col_##SUFFIX(const T* x, const Geo& g, int64_t c0, T* col, int64_t ld) { \
        im2col_impl<T>(x, g, c0, col, ld);                                                               \
    }                                                                                                    \
    template <class T>                                                                                   \
    ATTR BURN_NO_MEMCPY void col2im_##SUFFIX(T* col, const Geo& g, int64_t c0, T* dx, int64_t ld) {      \
        col2im_impl<T>(col, g, c0, dx, ld);                                                              \
    }
BURN_CONV_VARIANTS(, base)
#if BURN_CONV_X86
BURN_CONV_VARIANTS(BURN_CONV_AVX2, avx2)
BURN_CONV_VARIANTS(BURN_CONV_AVX512, avx512)
#endif

template <class T>
void im2col(const T* x, const Geo& g, int64_t c0, T* col, int64_t ld) {
#if BURN_CONV_X86
    switch (gemm_isa()) {
        case GemmIsa::avx512:
            return im2col_avx512<T>(x, g, c0, col, ld);
        case GemmIsa::avx2:
            return im2col_avx2<T>(x, g, c0, col, ld);
        default:
            break;
    }
#endif
    im2col_base<T>(x, g, c0, col, ld);
}

template <class T>
void col2im(T* col, const Geo& g, int64_t c0, T* dx, int64_t ld) {
#if BURN_CONV_X86
    switch (gemm_isa()) {
        case GemmIsa::avx512:
            return col2im_avx512<T>(col, g, c0, dx, ld);
        case GemmIsa::avx2:
            return col2im_avx2<T>(col, g, c0, dx, ld);
        default:
            break;
    }
#endif
    col2im_base<T>(col, g, c0, dx, ld);
}

/// Runs fn(n) for every image: in parallel (serial GEMMs inside) when the built-in GEMM is used and
/// there are enough images, else one image at a time (the GEMM then uses the threads).
template <class F>
void for_images(int64_t n, F&& fn) {
    if (nn::parallel_images() && n > 1 && platform::threads() > 1) {
        platform::parallel_for(n, 1, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) fn(i);
        });
    } else {
        for (int64_t i = 0; i < n; ++i) fn(i);
    }
}

/// The Winograd output tile for a 2-D 3 x 3 convolution with stride 1 and no dilation where Winograd
/// runs faster than im2col + GEMM (conv_winograd.cpp), else 0: f32 on the generic GEMM (WebAssembly,
/// Arm; the AVX2 / AVX-512 GEMMs and oneDNN are faster on x86), with enough channels.
int winograd_tile(const Geo& g) {
    if (g.in[0] != 1 || g.out[0] != 1 || g.k[1] != 3 || g.k[2] != 3 || g.stride[1] != 1 || g.stride[2] != 1 ||
        g.dil[1] != 1 || g.dil[2] != 1 || g.pad[1] < 0 || g.pad[2] < 0 || gemm_isa() != GemmIsa::generic)
        return 0;
    return winograd::tile_for(g.cg, g.og, g.out[1], g.out[2]);
}

void conv_forward_winograd(const Geo& g, int tile, const float* x, const float* w, const float* bias,
                           float* y) {
    // The transformed weights of every group, once for all images (the images use scratch slots 0 to 2
    // of their threads).
    const int64_t us = winograd::weights_size(tile, g.og, g.cg);
    const float* u = winograd::weights(w, tile, g.groups, g.og, g.cg);
    const winograd::Conv3x3 s{g.cg, g.og, g.in[1], g.in[2], g.out[1], g.out[2], g.pad[1], g.pad[2], tile};
    for_images(g.n, [&](int64_t n) {
        for (int64_t gi = 0; gi < g.groups; ++gi)
            winograd::conv3x3(s, x + (n * g.c + gi * g.cg) * g.in_vol, u + gi * us,
                              bias ? bias + gi * g.og : nullptr, y + (n * g.o + gi * g.og) * g.out_vol);
    });
}

template <class T>
void conv_forward(const Geo& g, const T* x, const T* w, const T* bias, T* y) {
    if constexpr (std::is_same_v<T, float>) {
        if (const int tile = winograd_tile(g)) return conv_forward_winograd(g, tile, x, w, bias, y);
    }
    const int64_t L = g.out_vol;
    const bool direct = g.pointwise();
    for_images(g.n, [&](int64_t n) {
        const T* xn = x + n * g.c * g.in_vol;
        T* yn = y + n * g.o * L;
        T* col = direct ? nullptr : nn::scratch<T>(0, g.kg * L);
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            const T* b = xn + gi * g.cg * g.in_vol;
            if (!direct) {
                im2col(xn, g, gi * g.cg, col, L);
                b = col;
            }
            nn::gemm<T>(g.og, L, g.kg, w + gi * g.og * g.kg, g.kg, 1, b, L, 1, yn + gi * g.og * L, L);
        }
        if (bias) {
            for (int64_t o = 0; o < g.o; ++o) {
                T* row = yn + o * L;
                const T v = bias[o];
                for (int64_t l = 0; l < L; ++l) row[l] += v;
            }
        }
    });
}

/// Images per GEMM so that its n (or depth) reaches about kBatchColumns: larger products run faster.
constexpr int64_t kBatchColumns = 768;
inline int64_t images_per_gemm(int64_t L) {
    return std::max<int64_t>(1, (kBatchColumns + L / 2) / std::max<int64_t>(1, L));
}

template <class T>
void conv_input_grad(const Geo& g, const T* dy, const T* w, T* dx) {
    const int64_t L = g.out_vol;
    if (g.pointwise()) {
        for_images(g.n, [&](int64_t n) {
            for (int64_t gi = 0; gi < g.groups; ++gi)
                nn::gemm<T>(g.kg, L, g.og, w + gi * g.og * g.kg, 1, g.kg, dy + (n * g.o + gi * g.og) * L, L,
                            1, dx + (n * g.c + gi * g.cg) * g.in_vol, L);
        });
        return;
    }
    // Chunks of nb images: col (Kg x nb L) = W^T * [dy of the nb images side by side], then col2im.
    const int64_t nb_max =
        std::min(images_per_gemm(L), std::max<int64_t>(1, g.n / std::max(1, platform::threads())));
    const int64_t chunks = (g.n + nb_max - 1) / nb_max;
    for_images(chunks, [&](int64_t ch) {
        const int64_t n0 = ch * nb_max, nb = std::min(nb_max, g.n - n0), K = nb * L;
        T* col = nn::scratch<T>(0, g.kg * K);
        T* gbuf = nb > 1 ? nn::scratch<T>(1, g.og * K) : nullptr;
        std::fill(dx + n0 * g.c * g.in_vol, dx + (n0 + nb) * g.c * g.in_vol, T(0));
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            const T* b = dy + (n0 * g.o + gi * g.og) * L;
            if (nb > 1) {
                for (int64_t j = 0; j < nb; ++j)
                    for (int64_t r = 0; r < g.og; ++r)
                        std::memcpy(gbuf + r * K + j * L, dy + ((n0 + j) * g.o + gi * g.og + r) * L,
                                    static_cast<std::size_t>(L) * sizeof(T));
                b = gbuf;
            }
            nn::gemm<T>(g.kg, K, g.og, w + gi * g.og * g.kg, 1, g.kg, b, K, 1, col, K);
            for (int64_t j = 0; j < nb; ++j)
                col2im(col + j * L, g, gi * g.cg, dx + (n0 + j) * g.c * g.in_vol, K);
        }
    });
}

/// The column block of a weight-gradient GEMM stays within this many bytes.
constexpr int64_t kWeightGradBytes = int64_t(2) << 20;

/// Adds the weight gradient of images [n0, n1) into acc [O, Kg], as dW^T (Kg x og) = col (Kg x K) *
/// dy^T (K x og) with K = images x L: the column matrix is read row-wise (the GEMM's cheap packing)
/// and only the narrow dy is transposed.
template <class T>
void weight_grad_range(const Geo& g, const T* x, const T* dy, int64_t n0, int64_t n1, T* acc) {
    const int64_t L = g.out_vol;
    const int64_t col_bytes = std::max<int64_t>(1, g.kg * L * static_cast<int64_t>(sizeof(T)));
    const int64_t per = std::max<int64_t>(1, std::min(images_per_gemm(L), kWeightGradBytes / col_bytes));
    const int64_t nb_max = std::min(per, n1 - n0);
    T* col = nn::scratch<T>(0, g.kg * L * nb_max);
    T* gbuf = nb_max > 1 ? nn::scratch<T>(1, g.og * L * nb_max) : nullptr;
    T* tmp = nn::scratch<T>(2, g.og * g.kg);
    for (int64_t n = n0; n < n1; n += nb_max) {
        const int64_t nb = std::min(nb_max, n1 - n), K = nb * L;
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            const T* b = dy + (n * g.o + gi * g.og) * L;  // one image: dy's rows as they are
            for (int64_t j = 0; j < nb; ++j) {
                const T* xn = x + (n + j) * g.c * g.in_vol;
                if (g.pointwise()) {
                    for (int64_t r = 0; r < g.kg; ++r)
                        std::memcpy(col + r * K + j * L, xn + (gi * g.cg + r) * g.in_vol,
                                    static_cast<std::size_t>(L) * sizeof(T));
                } else {
                    im2col(xn, g, gi * g.cg, col + j * L, K);
                }
                if (nb > 1) {
                    const T* gn = dy + ((n + j) * g.o + gi * g.og) * L;
                    for (int64_t r = 0; r < g.og; ++r)
                        std::memcpy(gbuf + r * K + j * L, gn + r * L,
                                    static_cast<std::size_t>(L) * sizeof(T));
                }
            }
            if (nb > 1) b = gbuf;
            nn::gemm<T>(g.kg, g.og, K, col, K, 1, b, 1, K, tmp, g.og);  // [Kg, og]
            T* a = acc + gi * g.og * g.kg;
            for (int64_t r = 0; r < g.og; ++r)
                for (int64_t q = 0; q < g.kg; ++q) a[r * g.kg + q] += tmp[q * g.og + r];
        }
    }
}

template <class T>
void conv_weight_grad(const Geo& g, const T* x, const T* dy, T* dw) {
    const int64_t size = g.o * g.kg;
    std::fill(dw, dw + size, T(0));
    if (g.n == 0 || g.out_vol == 0) return;
    const int64_t parts = nn::parallel_images() ? std::min<int64_t>(platform::threads(), g.n) : 1;
    if (parts <= 1) {
        weight_grad_range(g, x, dy, 0, g.n, dw);
        return;
    }
    // One accumulator per part, summed in a fixed order (results do not depend on scheduling).
    std::vector<T> partial(static_cast<std::size_t>(size * (parts - 1)), T(0));
    platform::parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
        for (int64_t p = p0; p < p1; ++p) {
            T* acc = p == 0 ? dw : partial.data() + (p - 1) * size;
            weight_grad_range(g, x, dy, g.n * p / parts, g.n * (p + 1) / parts, acc);
        }
    });
    for (int64_t p = 1; p < parts; ++p) {
        const T* src = partial.data() + (p - 1) * size;
        for (int64_t q = 0; q < size; ++q) dw[q] += src[q];
    }
}

TensorRefs conv_kernel(const OpCall& call, TensorRefs& in) {
    const DType dt = call.dtype;
    TensorRef w = nn::to_compute(in[1]);
    TensorRef b = in.size() > 2 ? nn::to_compute(in[2]) : nullptr;
    if (dt == DType::f32 && call.shape.numel() > 0 && dnnl_conv_available()) {
        // A channels-last input (what this path returns for 2-D) goes in as it is; other strided inputs
        // as contiguous copies, which take the same path, and give the same bits, as their originals.
        const CpuTensor& x0 = as_cpu(in[0]);
        const TensorRef xd = x0.dtype == DType::f32 && x0.is_channels_last() ? in[0] : nn::to_compute(in[0]);
        if (auto y = dnnl_conv_forward(call.attrs<attrs::Conv>(), as_cpu(xd), as_cpu(w),
                                       b ? &as_cpu(b) : nullptr, call.shape))
            return {y};
    }
    TensorRef x = nn::to_compute(in[0]);
    const Geo g = conv_geometry(call.attrs<attrs::Conv>(), x->shape, w->shape, call.shape);
    auto y = alloc(call.shape, x->dtype, in[0]->device);
    if (call.shape.numel() > 0) {
        nn::dispatch_compute(x->dtype, [&](auto tag) {
            using T = decltype(tag);
            conv_forward<T>(g, as_cpu(x).data<T>(), as_cpu(w).data<T>(), b ? as_cpu(b).data<T>() : nullptr,
                            y->data<T>());
        });
    }
    return {nn::from_compute(y, dt)};
}

TensorRefs conv_backward_input_kernel(const OpCall& call, TensorRefs& in) {
    const DType dt = call.dtype;
    TensorRef dy = nn::to_compute(in[0]), w = nn::to_compute(in[1]);
    const Geo g = conv_geometry(call.attrs<attrs::Conv>(), call.shape, w->shape, dy->shape);
    auto dx = alloc(call.shape, dy->dtype, in[0]->device);
    if (call.shape.numel() > 0) {
        nn::dispatch_compute(dy->dtype, [&](auto tag) {
            using T = decltype(tag);
            if (g.out_vol == 0 || g.o == 0) {
                std::fill(dx->data<T>(), dx->data<T>() + call.shape.numel(), T(0));
                return;
            }
            conv_input_grad<T>(g, as_cpu(dy).data<T>(), as_cpu(w).data<T>(), dx->data<T>());
        });
    }
    return {nn::from_compute(dx, dt)};
}

TensorRefs conv_backward_weight_kernel(const OpCall& call, TensorRefs& in) {
    const DType dt = call.dtype;
    TensorRef x = nn::to_compute(in[0]), dy = nn::to_compute(in[1]);
    const Geo g = conv_geometry(call.attrs<attrs::Conv>(), x->shape, call.shape, dy->shape);
    auto dw = alloc(call.shape, x->dtype, in[0]->device);
    if (call.shape.numel() > 0) {
        nn::dispatch_compute(x->dtype, [&](auto tag) {
            using T = decltype(tag);
            conv_weight_grad<T>(g, as_cpu(x).data<T>(), as_cpu(dy).data<T>(), dw->data<T>());
        });
    }
    return {nn::from_compute(dw, dt)};
}

}  // namespace

TensorRefs conv_row_kernel(const OpCall& call, TensorRefs& in) {
    return conv_kernel(call, in);
}

void register_conv(KernelTable& t) {
    t[idx(OpId::conv)] = &conv_kernel;
    t[idx(OpId::conv_backward_input)] = &conv_backward_input_kernel;
    t[idx(OpId::conv_backward_weight)] = &conv_backward_weight_kernel;
}

}  // namespace burn::cpu
