#pragma once
// max_pool2d's most common window (2 x 2, stride 2, no padding, every window inside the input) for
// f32 on WebAssembly SIMD: four outputs per step from two vector loads of each input row, the even and
// odd columns split by shuffles, values and indices chosen branch-free. Same rules as the general
// kernel (pool.cpp): taps in PyTorch's order (0,0), (0,1), (1,0), (1,1); a later tap wins when it is
// larger or NaN. Internal to the CPU backend; only compiled with -msimd128.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstdint>

namespace burn::cpu::pool_simd128 {

/// One output row i of one plane: y[j], ind[j] for j < ow from input rows 2i and 2i + 1 (width w).
inline void max_pool_2x2_row(const float* __restrict x, int64_t w, int64_t i, int64_t ow, float* __restrict y,
                             int32_t* __restrict ind) {
    const float* r0 = x + 2 * i * w;
    const float* r1 = r0 + w;
    const auto base = static_cast<int32_t>(2 * i * w);
    const auto wi = static_cast<int32_t>(w);
    int64_t j = 0;
    for (; j + 4 <= ow; j += 4) {
        const v128_t a0 = wasm_v128_load(r0 + 2 * j), a1 = wasm_v128_load(r0 + 2 * j + 4);
        const v128_t b0 = wasm_v128_load(r1 + 2 * j), b1 = wasm_v128_load(r1 + 2 * j + 4);
        const v128_t taps[4] = {
            wasm_i32x4_shuffle(a0, a1, 0, 2, 4, 6), wasm_i32x4_shuffle(a0, a1, 1, 3, 5, 7),
            wasm_i32x4_shuffle(b0, b1, 0, 2, 4, 6), wasm_i32x4_shuffle(b0, b1, 1, 3, 5, 7)};
        const auto c = static_cast<int32_t>(2 * j);
        const v128_t i00 = wasm_i32x4_make(base + c, base + c + 2, base + c + 4, base + c + 6);
        const v128_t offs[4] = {wasm_i32x4_splat(0), wasm_i32x4_splat(1), wasm_i32x4_splat(wi),
                                wasm_i32x4_splat(wi + 1)};
        v128_t best = taps[0], idx = i00;
        for (int t = 1; t < 4; ++t) {
            const v128_t v = taps[t];
            const v128_t take = wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
            best = wasm_v128_bitselect(v, best, take);
            idx = wasm_v128_bitselect(wasm_i32x4_add(i00, offs[t]), idx, take);
        }
        wasm_v128_store(y + j, best);
        wasm_v128_store(ind + j, idx);
    }
    for (; j < ow; ++j) {
        const int64_t c = 2 * j;
        const float v[4] = {r0[c], r0[c + 1], r1[c], r1[c + 1]};
        const int32_t at[4] = {0, 1, wi, wi + 1};
        float best = v[0];
        int32_t k = 0;
        for (int t = 1; t < 4; ++t)
            if (v[t] > best || v[t] != v[t]) {
                best = v[t];
                k = t;
            }
        y[j] = best;
        ind[j] = base + static_cast<int32_t>(c) + at[k];
    }
}

}  // namespace burn::cpu::pool_simd128
#endif
