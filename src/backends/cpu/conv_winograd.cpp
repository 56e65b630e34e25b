// Winograd F(2x2, 3x3) (Lavin and Gray, 2015) for the CPU backend's f32 convolutions (conv_winograd.hpp).
// With d a 4 x 4 input tile, g a 3 x 3 kernel and
//   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],  G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1],
//   A^T = [1 1 1 0; 0 1 -1 -1],
// the 2 x 2 outputs of the tile are A^T [(G g G^T) .* (B^T d B)] A. Summed over the input channels, the
// 16 elementwise products become 16 matrix products M[xi] = U[xi] (og x cg) * V[xi] (cg x tiles), run by
// the built-in GEMM's generic micro-kernel straight on panels that the transforms write in its packed
// layout (no im2col matrix, no packing pass). Tiles go in chunks of whole tile rows so that V and M stay
// in cache; the bias is added in the output transform.
#include "backends/cpu/conv_winograd.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/gemm_kernels.hpp"
#include "backends/cpu/nn_common.hpp"
#include "platform/env.hpp"

namespace burn::cpu::winograd {

namespace {

using gemm_kernels::ceil_div;
using gemm_kernels::round_up;

// The generic micro-kernel's tile, as gemm.cpp's baseline variant: 4 x 8 on WebAssembly (V8 spills a
// larger tile), 6 x 8 elsewhere; NR = two 16-byte vectors of f32.
#if defined(__wasm_simd128__)
constexpr int kMR = 4;
#else
constexpr int kMR = 6;
#endif
constexpr int kNV = 2, kVB = 16;
constexpr int64_t kNR = kNV * kVB / 4;
platform::EnvSwitch g_enabled("BURN_CPU_WINOGRAD", true);

// V and M of one chunk of tile rows stay within about this many floats (512 KB).
constexpr int64_t kChunkFloats = int64_t(1) << 17;

/// Transforms one chunk of `rows` tile rows (starting at tile row ty0) of channel c into the packed V
/// panels: V[xi] holds element (c, t) at [(t / NR) * cg * NR + c * NR + t % NR].
void input_chunk(const Conv3x3& s, const float* xc, int64_t c, int64_t ty0, int64_t rows, int64_t tw,
                 int64_t tr, float* split, float* tmp, float* v) {
    const int64_t half = tw + 1;  // even and odd columns of a padded row, each tw + 1 long
    const int64_t srows = 2 * rows + 2;
    // The padded input rows of the chunk, columns split by parity: split[r][parity][j] = x[i][2 j + parity].
    for (int64_t r = 0; r < srows; ++r) {
        const int64_t i = 2 * ty0 + r - s.pad_h;
        float* ev = split + r * 2 * half;
        float* od = ev + half;
        if (i < 0 || i >= s.ih) {
            std::fill(ev, ev + 2 * half, 0.0f);
            continue;
        }
        const float* row = xc + i * s.iw;
        for (int64_t j = 0; j < half; ++j) {
            const int64_t a = 2 * j - s.pad_w, b = a + 1;
            ev[j] = a >= 0 && a < s.iw ? row[a] : 0.0f;
            od[j] = b >= 0 && b < s.iw ? row[b] : 0.0f;
        }
    }
    float z[2 * 4][64];  // one row combination (B^T d) per tile row, both parities
    float* zbuf = half <= 64 ? &z[0][0] : tmp + 16 * tr;
    for (int64_t y = 0; y < rows; ++y) {
        const float* r0 = split + (2 * y) * 2 * half;
        const float* r1 = r0 + 2 * half;
        const float* r2 = r1 + 2 * half;
        const float* r3 = r2 + 2 * half;
        float* z0 = zbuf;
        float* z1 = z0 + 2 * half;
        float* z2 = z1 + 2 * half;
        float* z3 = z2 + 2 * half;
        for (int64_t j = 0; j < 2 * half; ++j) {
            z0[j] = r0[j] - r2[j];
            z1[j] = r1[j] + r2[j];
            z2[j] = r2[j] - r1[j];
            z3[j] = r1[j] - r3[j];
        }
        for (int64_t i = 0; i < 4; ++i) {
            const float* e = zbuf + i * 2 * half;
            const float* o = e + half;
            float* t0 = tmp + (i * 4) * tr + y * tw;
            float* t1 = t0 + tr;
            float* t2 = t1 + tr;
            float* t3 = t2 + tr;
            for (int64_t x = 0; x < tw; ++x) {
                t0[x] = e[x] - e[x + 1];
                t1[x] = o[x] + e[x + 1];
                t2[x] = e[x + 1] - o[x];
                t3[x] = o[x] - o[x + 1];
            }
        }
    }
    // Into the panels: NR consecutive tiles of one channel are one row of a panel.
    for (int64_t xi = 0; xi < 16; ++xi) {
        const float* src = tmp + xi * tr;
        float* dst = v + xi * s.cg * tr + c * kNR;
        for (int64_t p = 0; p < tr; p += kNR, dst += s.cg * kNR)
            std::memcpy(dst, src + p, kNR * sizeof(float));
    }
}

/// y rows of one chunk from M [16][og][tr]: A^T m A per tile, plus the bias.
void output_chunk(const Conv3x3& s, const float* m, int64_t ty0, int64_t rows, int64_t tw, int64_t tr,
                  const float* bias, float* y) {
    const int64_t plane = s.og * tr;
    const int64_t full = s.ow / 2;  // tiles whose two columns are both inside the output
    for (int64_t o = 0; o < s.og; ++o) {
        const float b = bias ? bias[o] : 0.0f;
        float* yo = y + o * s.oh * s.ow;
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t i = 2 * (ty0 + r);
            const float* mm = m + o * tr + r * tw;
            float* y0 = yo + i * s.ow;
            float* y1 = i + 1 < s.oh ? y0 + s.ow : nullptr;
            float top[2][64], bot[2][64];
            for (int64_t x0 = 0; x0 < tw; x0 += 64) {
                const int64_t n = std::min<int64_t>(64, tw - x0);
                for (int64_t x = 0; x < n; ++x) {
                    float q[16];
                    for (int64_t k = 0; k < 16; ++k) q[k] = mm[k * plane + x0 + x];
                    // A^T q: rows 0 + 1 + 2 and 1 - 2 - 3, then the same on the columns.
                    float s0[4], s1[4];
                    for (int64_t k = 0; k < 4; ++k) {
                        s0[k] = q[k] + q[4 + k] + q[8 + k];
                        s1[k] = q[4 + k] - q[8 + k] - q[12 + k];
                    }
                    top[0][x] = s0[0] + s0[1] + s0[2] + b;
                    top[1][x] = s0[1] - s0[2] - s0[3] + b;
                    bot[0][x] = s1[0] + s1[1] + s1[2] + b;
                    bot[1][x] = s1[1] - s1[2] - s1[3] + b;
                }
                const int64_t nf = std::max<int64_t>(0, std::min(n, full - x0));
                float* d0 = y0 + 2 * x0;
                for (int64_t x = 0; x < nf; ++x) {
                    d0[2 * x] = top[0][x];
                    d0[2 * x + 1] = top[1][x];
                }
                if (nf < n) d0[2 * nf] = top[0][nf];  // an odd width: the last tile's left column
                if (y1) {
                    float* d1 = y1 + 2 * x0;
                    for (int64_t x = 0; x < nf; ++x) {
                        d1[2 * x] = bot[0][x];
                        d1[2 * x + 1] = bot[1][x];
                    }
                    if (nf < n) d1[2 * nf] = bot[0][nf];
                }
            }
        }
    }
}

/// Whether the n floats at a and b have the same bits (an OR of XORs that the compiler vectorises).
bool same_bits(const float* a, const float* b, int64_t n) {
    constexpr int64_t kBlock = 1024;
    for (int64_t i = 0; i < n; i += kBlock) {
        const int64_t e = std::min(n, i + kBlock);
        uint32_t diff = 0;
        for (int64_t j = i; j < e; ++j) {
            uint32_t x, y;
            std::memcpy(&x, a + j, 4);
            std::memcpy(&y, b + j, 4);
            diff |= x ^ y;
        }
        if (diff) return false;
    }
    return true;
}

/// A weight tensor seen before and its transform.
struct Cached {
    std::vector<float> w, u;
    int64_t groups = 0, og = 0, cg = 0;
    uint64_t used = 0;
};
// At most this many tensors and floats (weights and transforms) per thread: a model's 3 x 3 layers at
// inference; larger weights are transformed on every call.
constexpr std::size_t kCacheEntries = 8;
constexpr int64_t kCacheFloats = int64_t(4) << 20;

}  // namespace

const float* weights(const float* w, int64_t groups, int64_t og, int64_t cg) {
    const int64_t per = weights_size(og, cg), n = groups * og * cg * 9, floats = n + groups * per;
    if (floats > kCacheFloats) {
        float* u = nn::scratch<float>(3, groups * per);
        for (int64_t gi = 0; gi < groups; ++gi) transform_weights(w + gi * og * cg * 9, og, cg, u + gi * per);
        return u;
    }
    static BURN_THREAD_LOCAL std::vector<Cached> cache;
    static BURN_THREAD_LOCAL uint64_t clock = 0;
    ++clock;
    for (Cached& e : cache)
        if (e.groups == groups && e.og == og && e.cg == cg && same_bits(e.w.data(), w, n)) {
            e.used = clock;
            return e.u.data();
        }
    // Evict the least recently used entries until the new one fits.
    auto total = [&] {
        int64_t t = 0;
        for (const Cached& e : cache) t += static_cast<int64_t>(e.w.size() + e.u.size());
        return t;
    };
    while (!cache.empty() && (cache.size() >= kCacheEntries || total() + floats > kCacheFloats)) {
        auto old = std::min_element(cache.begin(), cache.end(),
                                    [](const Cached& a, const Cached& b) { return a.used < b.used; });
        cache.erase(old);
    }
    Cached e;
    e.w.assign(w, w + n);
    e.u.resize(static_cast<std::size_t>(groups * per));
    e.groups = groups;
    e.og = og;
    e.cg = cg;
    e.used = clock;
    for (int64_t gi = 0; gi < groups; ++gi)
        transform_weights(w + gi * og * cg * 9, og, cg, e.u.data() + gi * per);
    cache.push_back(std::move(e));
    return cache.back().u.data();
}

void set_enabled(bool on) {
    g_enabled.set(on);
}

// Measured in node 20 against im2col + GEMM (one image, 3 x 3 with padding 1, docs/wasm.md): 1.3x to
// 2.1x faster from 8 input and 8 output channels up (8 -> 8 at 28 x 28 1.55x, 16 -> 8 at 14 x 14 2.1x,
// 32 -> 64 at 14 x 14 1.5x, 64 -> 64 at 4 x 4 1.4x), level or slower with fewer input channels or
// 8 -> 64 (0.95x), 3.3x slower for 1 -> 32.
bool preferred(int64_t cg, int64_t og, int64_t oh, int64_t ow) {
    return g_enabled.on() && cg >= 8 && og >= 8 && (cg >= 16 || og <= 16) && oh >= 4 && ow >= 4;
}

int64_t weights_size(int64_t og, int64_t cg) {
    return 16 * round_up(og, kMR) * cg;
}

void transform_weights(const float* w, int64_t og, int64_t cg, float* u) {
    const int64_t ogr = round_up(og, kMR);
    for (int64_t o0 = 0; o0 < ogr; o0 += kMR)
        for (int64_t c = 0; c < cg; ++c) {
            // kMR output channels side by side (the lanes of a packed A panel), zeros past og.
            float g[9][kMR], t[4][3][kMR];
            for (int l = 0; l < kMR; ++l)
                for (int k = 0; k < 9; ++k) g[k][l] = o0 + l < og ? w[((o0 + l) * cg + c) * 9 + k] : 0.0f;
            for (int j = 0; j < 3; ++j)
                for (int l = 0; l < kMR; ++l) {
                    const float a = g[j][l], b = g[3 + j][l], d = g[6 + j][l];
                    t[0][j][l] = a;
                    t[1][j][l] = 0.5f * (a + b + d);
                    t[2][j][l] = 0.5f * (a - b + d);
                    t[3][j][l] = d;
                }
            float* dst = u + o0 * cg + c * kMR;  // panel o0 / kMR, row c
            const int64_t step = ogr * cg;       // one xi
            for (int i = 0; i < 4; ++i)
                for (int l = 0; l < kMR; ++l) {
                    const float a = t[i][0][l], b = t[i][1][l], d = t[i][2][l];
                    dst[(i * 4 + 0) * step + l] = a;
                    dst[(i * 4 + 1) * step + l] = 0.5f * (a + b + d);
                    dst[(i * 4 + 2) * step + l] = 0.5f * (a - b + d);
                    dst[(i * 4 + 3) * step + l] = d;
                }
        }
}

void conv3x3(const Conv3x3& s, const float* x, const float* u, const float* bias, float* y) {
    if (s.og <= 0 || s.oh <= 0 || s.ow <= 0) return;
    const int64_t th = ceil_div(s.oh, 2), tw = ceil_div(s.ow, 2);
    const int64_t ogr = round_up(s.og, kMR);
    const int64_t per_row = 16 * (s.cg + s.og) * tw;
    const int64_t rows_max = std::clamp<int64_t>(kChunkFloats / std::max<int64_t>(1, per_row), 1, th);
    const int64_t tr_max = round_up(rows_max * tw, kNR);
    float* v = nn::scratch<float>(0, 16 * s.cg * tr_max);
    float* m = nn::scratch<float>(1, 16 * s.og * tr_max);
    const int64_t half = tw + 1;
    float* split = nn::scratch<float>(2, (2 * rows_max + 2) * 2 * half + 16 * tr_max + 8 * half);
    float* tmp = split + (2 * rows_max + 2) * 2 * half;
    for (int64_t ty0 = 0; ty0 < th; ty0 += rows_max) {
        const int64_t rows = std::min(rows_max, th - ty0), tiles = rows * tw, tr = round_up(tiles, kNR);
        // Columns past the last tile feed whole panels: zeros (the products there are not read).
        for (int64_t xi = 0; xi < 16; ++xi) std::fill(tmp + xi * tr + tiles, tmp + (xi + 1) * tr, 0.0f);
        for (int64_t c = 0; c < s.cg; ++c)
            input_chunk(s, x + c * s.ih * s.iw, c, ty0, rows, tw, tr, split, tmp, v);
        for (int64_t xi = 0; xi < 16; ++xi)
            gemm_kernels::macro_impl<float, kMR, kNV, kVB>(s.og, tr, s.cg, u + xi * ogr * s.cg,
                                                           v + xi * s.cg * tr, m + xi * s.og * tr, tr, true);
        output_chunk(s, m, ty0, rows, tw, tr, bias, y);
    }
}

}  // namespace burn::cpu::winograd
