// Winograd F(2x2, 3x3) and F(4x4, 3x3) (Lavin and Gray, 2015) for the CPU backend's f32 convolutions
// (conv_winograd.hpp; the transforms in conv_winograd_transforms.hpp). Summed over the input channels,
// the A x A elementwise products of the transformed tiles and kernels (A = M + 2) become A^2 matrix
// products M[xi] = U[xi] (og x cg) * V[xi] (cg x tiles), run by the built-in GEMM's generic micro-kernel
// straight on panels that the transforms write in its packed layout (no im2col matrix, no packing
// pass). Tiles go in chunks of whole tile rows so that V and M stay in cache; the bias is added in the
// output transform.
#include "backends/cpu/conv_winograd.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "backends/cpu/conv_winograd_transforms.hpp"
#include "backends/cpu/gemm_kernels.hpp"
#include "backends/cpu/nn_common.hpp"
#include "platform/arena.hpp"
#include "platform/env.hpp"
#include "platform/parallel.hpp"

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
std::atomic<int> g_tile{0};  // set_tile

// V and M of one chunk of tile rows stay within about this many floats (512 KB).
constexpr int64_t kChunkFloats = int64_t(1) << 17;

/// Transforms one chunk of `rows` tile rows (from tile row ty0) of channel c into the packed V panels:
/// V[xi] holds element (c, t) at [(t / NR) * cg * NR + c * NR + t % NR]. tmp holds A * A rows of tr.
template <class T>
void input_chunk(const Conv3x3& s, const float* xc, int64_t c, int64_t ty0, int64_t rows, int64_t tw,
                 int64_t tr, float* split, float* z, float* tmp, float* v) {
    constexpr int M = T::M, A = T::A;
    const int64_t len = tw + 1, width = M * len;
    split_rows<M>(xc, s.ih, s.iw, M * ty0 - s.pad_h, M * rows + 2, s.pad_w, len, split);
    for (int64_t y = 0; y < rows; ++y) {
        const float* r[A];
        for (int k = 0; k < A; ++k) r[k] = split + (M * y + k) * width;
        T::input_row(r, len, tw, z, tmp + y * tw, tr);
    }
    // Into the panels: NR consecutive tiles of one channel are one row of a panel.
    for (int64_t xi = 0; xi < A * A; ++xi) {
        const float* src = tmp + xi * tr;
        float* dst = v + xi * s.cg * tr + c * kNR;
        for (int64_t p = 0; p < tr; p += kNR, dst += s.cg * kNR)
            std::memcpy(dst, src + p, kNR * sizeof(float));
    }
}

/// The output rows of one chunk from M [A * A][og][tr], plus the bias; q is scratch (M * M * tr floats).
template <class T>
void output_chunk(const Conv3x3& s, const float* m, int64_t ty0, int64_t rows, int64_t tw, int64_t tr,
                  const float* bias, float* y, float* q) {
    constexpr int M = T::M;
    const int64_t tiles = rows * tw;
    const int64_t full = s.ow / M;  // tiles whose M columns are all inside the output
    for (int64_t o = 0; o < s.og; ++o) {
        T::output(m + o * tr, s.og * tr, tiles, bias ? bias[o] : 0.0f, q, tr);  // every tile of the chunk
        float* yo = y + o * s.oh * s.ow;
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t i0 = M * (ty0 + r), nrows = std::min<int64_t>(M, s.oh - i0);
            const float* qr = q + r * tw;
            for (int64_t i = 0; i < nrows; ++i) {
                float* d = yo + (i0 + i) * s.ow;
                const float* qi = qr + (i * M) * tr;
                for (int64_t x = 0; x < full; ++x)
                    for (int j = 0; j < M; ++j) d[M * x + j] = qi[j * tr + x];
                for (int64_t j = 0; j < s.ow - M * full; ++j)
                    d[M * full + j] = qi[j * tr + full];  // a last, partial tile
            }
        }
    }
}

template <class T>
void conv_tiles(const Conv3x3& s, const float* x, const float* u, const float* bias, float* y) {
    constexpr int M = T::M, A = T::A;
    const int64_t th = ceil_div(s.oh, M), tw = ceil_div(s.ow, M);
    const int64_t ogr = round_up(s.og, kMR);
    const int64_t per_row = A * A * (s.cg + s.og) * tw;
    const int64_t rows_max = std::clamp<int64_t>(kChunkFloats / std::max<int64_t>(1, per_row), 1, th);
    const int64_t tr_max = round_up(rows_max * tw, kNR);
    float* v = nn::scratch<float>(0, A * A * s.cg * tr_max);
    float* m = nn::scratch<float>(1, A * A * s.og * tr_max);
    const int64_t len = tw + 1, split_n = (M * rows_max + 2) * M * len, z_n = A * M * len;
    float* split = nn::scratch<float>(2, split_n + z_n + A * A * tr_max + M * M * tr_max);
    float* z = split + split_n;
    float* tmp = z + z_n;
    float* q = tmp + A * A * tr_max;
    for (int64_t ty0 = 0; ty0 < th; ty0 += rows_max) {
        const int64_t rows = std::min(rows_max, th - ty0), tiles = rows * tw, tr = round_up(tiles, kNR);
        // Columns past the last tile fill the last panel: zeros (the products there are not read).
        for (int64_t xi = 0; xi < A * A; ++xi) std::fill(tmp + xi * tr + tiles, tmp + (xi + 1) * tr, 0.0f);
        for (int64_t c = 0; c < s.cg; ++c)
            input_chunk<T>(s, x + c * s.ih * s.iw, c, ty0, rows, tw, tr, split, z, tmp, v);
        // The products are independent: on the pool's threads for one image (serial inside conv.cpp's
        // parallel loop over images, and without threads).
        platform::parallel_for(A * A, 1, [&](int64_t x0, int64_t x1) {
            for (int64_t xi = x0; xi < x1; ++xi)
                gemm_kernels::macro_impl<float, kMR, kNV, kVB>(
                    s.og, tr, s.cg, u + xi * ogr * s.cg, v + xi * s.cg * tr, m + xi * s.og * tr, tr, true);
        });
        output_chunk<T>(s, m, ty0, rows, tw, tr, bias, y, q);
    }
}

template <class T>
void transform_weights_t(const float* w, int64_t og, int64_t cg, float* u) {
    constexpr int A = T::A;
    const int64_t ogr = round_up(og, kMR);
    for (int64_t o0 = 0; o0 < ogr; o0 += kMR)
        for (int64_t c = 0; c < cg; ++c) {
            // kMR output channels side by side (the lanes of a packed A panel), zeros past og.
            float g[9][kMR], t[A * A][kMR];
            for (int l = 0; l < kMR; ++l)
                for (int k = 0; k < 9; ++k) g[k][l] = o0 + l < og ? w[((o0 + l) * cg + c) * 9 + k] : 0.0f;
            T::weights(g, t);
            float* dst = u + o0 * cg + c * kMR;  // panel o0 / kMR, row c
            for (int xi = 0; xi < A * A; ++xi)
                for (int l = 0; l < kMR; ++l) dst[xi * ogr * cg + l] = t[xi][l];
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
    int tile = 0;
    uint64_t used = 0;
};
// At most this many tensors and floats (weights and transforms) per thread: a model's 3 x 3 layers at
// inference; larger weights are transformed on every call.
constexpr std::size_t kCacheEntries = 8;
constexpr int64_t kCacheFloats = int64_t(4) << 20;

}  // namespace

const float* weights(const float* w, int tile, int64_t groups, int64_t og, int64_t cg) {
    const int64_t per = weights_size(tile, og, cg), n = groups * og * cg * 9, floats = n + groups * per;
    if (floats > kCacheFloats) {
        float* u = nn::scratch<float>(3, groups * per);
        for (int64_t gi = 0; gi < groups; ++gi)
            transform_weights(w + gi * og * cg * 9, tile, og, cg, u + gi * per);
        return u;
    }
    static BURN_THREAD_LOCAL std::vector<Cached> cache;
    static BURN_THREAD_LOCAL uint64_t clock = 0;
    ++clock;
    for (Cached& e : cache)
        if (e.tile == tile && e.groups == groups && e.og == og && e.cg == cg && same_bits(e.w.data(), w, n)) {
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
    e.tile = tile;
    e.groups = groups;
    e.og = og;
    e.cg = cg;
    e.used = clock;
    for (int64_t gi = 0; gi < groups; ++gi)
        transform_weights(w + gi * og * cg * 9, tile, og, cg, e.u.data() + gi * per);
    cache.push_back(std::move(e));
    return cache.back().u.data();
}

void set_enabled(bool on) {
    g_enabled.set(on);
}

bool enabled() {
    return g_enabled.on();
}

// Measured in node 20 against im2col + GEMM (one image, 3 x 3 with padding 1, docs/wasm.md): F(2x2, 3x3)
// is 1.2x to 2.1x faster from 8 input and 8 output channels up (16 -> 8 at 14 x 14 1.9x, 32 -> 64 at
// 14 x 14 1.65x, 64 -> 64 at 4 x 4 1.4x), level or slower with fewer input channels or 8 -> 64, 3x slower
// for 1 -> 32. F(4x4, 3x3) takes over from about 24 x 24 outputs (1.1x F(2x2)'s time at 28 x 28, 1.4x
// at 56 x 56; 0.5x to 0.95x below 16 x 16, where its tiles overhang the image and its products are thin).
// Builds with a static arena (bare metal) keep im2col: the transformed tiles, products and weights
// (about (M + 2)^2 (cg + og) floats per tile row, 85 KB for the firmware's 8 -> 16 channels at 14 x 14)
// would have to fit its few hundred KB, which is not checked yet.
int tile_for(int64_t cg, int64_t og, int64_t oh, int64_t ow) {
    if (!g_enabled.on() || platform::global_arena() || cg < 8 || og < 8 || (cg < 16 && og > 16) || oh < 4 ||
        ow < 4)
        return 0;
    const int forced = g_tile.load(std::memory_order_relaxed);
    if (forced) return forced;
    return std::min(oh, ow) >= 24 ? 4 : 2;
}

void set_tile(int tile) {
    g_tile.store(tile == 2 || tile == 4 ? tile : 0, std::memory_order_relaxed);
}
int64_t weights_size(int tile, int64_t og, int64_t cg) {
    const int64_t a = tile + 2;
    return a * a * round_up(og, kMR) * cg;
}

void transform_weights(const float* w, int tile, int64_t og, int64_t cg, float* u) {
    if (tile == 4) return transform_weights_t<F4>(w, og, cg, u);
    transform_weights_t<F2>(w, og, cg, u);
}

void conv3x3(const Conv3x3& s, const float* x, const float* u, const float* bias, float* y) {
    if (s.og <= 0 || s.oh <= 0 || s.ow <= 0) return;
    // Called through a table: binaryen (emscripten's -O2 and -O3 links) would otherwise inline the
    // kernel into its only caller, conv.cpp's op kernel, and V8 runs the loops of that much larger
    // function 2 to 3x slower (32 -> 64 channels at 14 x 14 in node 20: 0.36 against 0.12 ms).
    using Fn = void (*)(const Conv3x3&, const float*, const float*, const float*, float*);
    static Fn volatile table[2] = {&conv_tiles<F2>, &conv_tiles<F4>};
    table[s.tile == 4 ? 1 : 0](s, x, u, bias, y);
}

}  // namespace burn::cpu::winograd
