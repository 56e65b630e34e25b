#pragma once
// The transforms of Winograd F(2x2, 3x3) and F(4x4, 3x3) (Lavin and Gray, 2015) for conv_winograd.cpp:
// with d an A x A input tile (A = M + 2) and g a 3 x 3 kernel, the M x M outputs of the tile are
// A^T [(G g G^T) .* (B^T d B)] A, with
//   F(2x2, 3x3): B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],  G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1],
//                A^T = [1 1 1 0; 0 1 -1 -1];
//   F(4x4, 3x3): B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0;
//                       0 4 0 -5 0 1],
//                G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1],
//                A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
// Written out by hand, one formula per row: the loops over tiles then vectorise (clang and GCC), and
// no helper is left for the wasm linker to inline into one huge function (which V8 then runs 2x
// slower). Internal to the CPU backend.
#include <algorithm>
#include <cstdint>

// clang's cost model declines F(4x4, 3x3)'s loops over tiles (the output's 36 load streams), which run
// 2.5x faster vectorised in V8.
#if defined(__clang__)
#define BURN_WINOGRAD_VECTORIZE _Pragma("clang loop vectorize(enable)")
#else
#define BURN_WINOGRAD_VECTORIZE
#endif

namespace burn::cpu::winograd {

/// Rows of the padded input split by column phase: split[r * M * len + p * len + j] =
/// x[row0 + r][M * j + p - pad_w] (zero outside x [ih, iw]), for r < n.
template <int M>
inline void split_rows(const float* xc, int64_t ih, int64_t iw, int64_t row0, int64_t n, int64_t pad_w,
                       int64_t len, float* split) {
    for (int64_t r = 0; r < n; ++r) {
        const int64_t i = row0 + r;
        float* d = split + r * M * len;
        if (i < 0 || i >= ih) {
            std::fill(d, d + M * len, 0.0f);
            continue;
        }
        const float* row = xc + i * iw;
        for (int64_t j = 0; j < len; ++j)
            for (int p = 0; p < M; ++p) {
                const int64_t col = M * j + p - pad_w;
                d[p * len + j] = col >= 0 && col < iw ? row[col] : 0.0f;
            }
    }
}

struct F2 {
    static constexpr int M = 2, A = 4;

    /// B^T d B for one tile row: r[k] the k-th input row of the tiles, split (len = tw + 1); out[xi * ld +
    /// x].
    static void input_row(const float* const (&r)[A], int64_t len, int64_t tw, float* z, float* out,
                          int64_t ld) {
        const int64_t w = M * len;
        float* z0 = z;
        float* z1 = z0 + w;
        float* z2 = z1 + w;
        float* z3 = z2 + w;
        for (int64_t j = 0; j < w; ++j) {
            z0[j] = r[0][j] - r[2][j];
            z1[j] = r[1][j] + r[2][j];
            z2[j] = r[2][j] - r[1][j];
            z3[j] = r[1][j] - r[3][j];
        }
        for (int64_t i = 0; i < A; ++i) {
            const float* e = z + i * w;
            const float* o = e + len;
            float* t0 = out + (i * A) * ld;
            float* t1 = t0 + ld;
            float* t2 = t1 + ld;
            float* t3 = t2 + ld;
            for (int64_t x = 0; x < tw; ++x) {
                t0[x] = e[x] - e[x + 1];
                t1[x] = o[x] + e[x + 1];
                t2[x] = e[x + 1] - o[x];
                t3[x] = o[x] - o[x + 1];
            }
        }
    }

    /// A^T m A + b for n tiles: m[xi * ld + t] -> q[(i * M + j) * qld + t].
    static void output(const float* __restrict m, int64_t ld, int64_t n, float b, float* __restrict q,
                       int64_t qld) {
        for (int64_t t = 0; t < n; ++t) {
            float s0[4], s1[4];
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k) {
                const float m0 = m[k * ld + t], m1 = m[(4 + k) * ld + t], m2 = m[(8 + k) * ld + t],
                            m3 = m[(12 + k) * ld + t];
                s0[k] = m0 + m1 + m2;
                s1[k] = m1 - m2 - m3;
            }
            q[t] = s0[0] + s0[1] + s0[2] + b;
            q[qld + t] = s0[1] - s0[2] - s0[3] + b;
            q[2 * qld + t] = s1[0] + s1[1] + s1[2] + b;
            q[3 * qld + t] = s1[1] - s1[2] - s1[3] + b;
        }
    }

    /// G g G^T for L kernels side by side: g[k][l] tap k (row-major) of kernel l -> u[xi][l].
    template <int L>
    static void weights(const float (&g)[9][L], float (&u)[A * A][L]) {
        float t[A][3][L];
        for (int j = 0; j < 3; ++j)
            for (int l = 0; l < L; ++l) {
                const float a = g[j][l], b = g[3 + j][l], d = g[6 + j][l];
                t[0][j][l] = a;
                t[1][j][l] = 0.5f * (a + b + d);
                t[2][j][l] = 0.5f * (a - b + d);
                t[3][j][l] = d;
            }
        for (int i = 0; i < A; ++i)
            for (int l = 0; l < L; ++l) {
                const float a = t[i][0][l], b = t[i][1][l], d = t[i][2][l];
                u[i * A + 0][l] = a;
                u[i * A + 1][l] = 0.5f * (a + b + d);
                u[i * A + 2][l] = 0.5f * (a - b + d);
                u[i * A + 3][l] = d;
            }
    }
};

struct F4 {
    static constexpr int M = 4, A = 6;

    static void input_row(const float* const (&r)[A], int64_t len, int64_t tw, float* z, float* out,
                          int64_t ld) {
        const int64_t w = M * len;
        float* z0 = z;
        float* z1 = z0 + w;
        float* z2 = z1 + w;
        float* z3 = z2 + w;
        float* z4 = z3 + w;
        float* z5 = z4 + w;
        for (int64_t j = 0; j < w; ++j) {
            const float d0 = r[0][j], d1 = r[1][j], d2 = r[2][j], d3 = r[3][j], d4 = r[4][j], d5 = r[5][j];
            z0[j] = 4 * d0 - 5 * d2 + d4;
            z1[j] = d3 + d4 - 4 * (d1 + d2);
            z2[j] = d4 - d3 + 4 * (d1 - d2);
            z3[j] = d4 - d2 + 2 * (d3 - d1);
            z4[j] = d4 - d2 + 2 * (d1 - d3);
            z5[j] = 4 * d1 - 5 * d3 + d5;
        }
        for (int64_t i = 0; i < A; ++i) {
            // Tile x's columns: p0[x], p1[x], p2[x], p3[x], p0[x + 1], p1[x + 1].
            const float* p0 = z + i * w;
            const float* p1 = p0 + len;
            const float* p2 = p1 + len;
            const float* p3 = p2 + len;
            float* t0 = out + (i * A) * ld;
            BURN_WINOGRAD_VECTORIZE
            for (int64_t x = 0; x < tw; ++x) {
                const float d0 = p0[x], d1 = p1[x], d2 = p2[x], d3 = p3[x], d4 = p0[x + 1], d5 = p1[x + 1];
                t0[x] = 4 * d0 - 5 * d2 + d4;
                t0[ld + x] = d3 + d4 - 4 * (d1 + d2);
                t0[2 * ld + x] = d4 - d3 + 4 * (d1 - d2);
                t0[3 * ld + x] = d4 - d2 + 2 * (d3 - d1);
                t0[4 * ld + x] = d4 - d2 + 2 * (d1 - d3);
                t0[5 * ld + x] = 4 * d1 - 5 * d3 + d5;
            }
        }
    }

    static void output(const float* __restrict m, int64_t ld, int64_t n, float b, float* __restrict q,
                       int64_t qld) {
        BURN_WINOGRAD_VECTORIZE
        for (int64_t t = 0; t < n; ++t) {
            float s[4][6];  // A^T on the rows
#pragma GCC unroll 6
            for (int k = 0; k < 6; ++k) {
                const float m0 = m[k * ld + t], m1 = m[(6 + k) * ld + t], m2 = m[(12 + k) * ld + t],
                            m3 = m[(18 + k) * ld + t], m4 = m[(24 + k) * ld + t], m5 = m[(30 + k) * ld + t];
                const float a = m1 + m2, c = m1 - m2, e = m3 + m4, f = m3 - m4;
                s[0][k] = m0 + a + e;
                s[1][k] = c + 2 * f;
                s[2][k] = a + 4 * e;
                s[3][k] = c + 8 * f + m5;
            }
#pragma GCC unroll 4
            for (int i = 0; i < 4; ++i) {  // then on the columns
                const float* r = s[i];
                const float a = r[1] + r[2], c = r[1] - r[2], e = r[3] + r[4], f = r[3] - r[4];
                q[(i * 4 + 0) * qld + t] = r[0] + a + e + b;
                q[(i * 4 + 1) * qld + t] = c + 2 * f + b;
                q[(i * 4 + 2) * qld + t] = a + 4 * e + b;
                q[(i * 4 + 3) * qld + t] = c + 8 * f + r[5] + b;
            }
        }
    }

    template <int L>
    static void weights(const float (&g)[9][L], float (&u)[A * A][L]) {
        float t[A][3][L];
        for (int j = 0; j < 3; ++j)
            for (int l = 0; l < L; ++l) {
                const float a = g[j][l], b = g[3 + j][l], d = g[6 + j][l];
                t[0][j][l] = a / 4;
                t[1][j][l] = -(a + b + d) / 6;
                t[2][j][l] = -(a - b + d) / 6;
                t[3][j][l] = a / 24 + b / 12 + d / 6;
                t[4][j][l] = a / 24 - b / 12 + d / 6;
                t[5][j][l] = d;
            }
        for (int i = 0; i < A; ++i)
            for (int l = 0; l < L; ++l) {
                const float a = t[i][0][l], b = t[i][1][l], d = t[i][2][l];
                u[i * A + 0][l] = a / 4;
                u[i * A + 1][l] = -(a + b + d) / 6;
                u[i * A + 2][l] = -(a - b + d) / 6;
                u[i * A + 3][l] = a / 24 + b / 12 + d / 6;
                u[i * A + 4][l] = a / 24 - b / 12 + d / 6;
                u[i * A + 5][l] = d;
            }
    }
};

}  // namespace burn::cpu::winograd
