#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
// generator, so element i of a random tensor depends only on (seed, offset + i) on every backend
// and whatever the thread count.
#include <array>
#include <cmath>
#include <cstdint>

#ifndef BURN_HD
#ifdef __CUDACC__
#define BURN_HD __host__ __device__
#else
#define BURN_HD
#endif
#endif

namespace burn::rng {

BURN_HD inline std::array<uint32_t, 4> philox(uint64_t key, uint64_t counter) {
    uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int r = 0; r < 10; ++r) {
        uint64_t p0 = uint64_t(0xD2511F53u) * c0;
        uint64_t p1 = uint64_t(0xCD9E8D57u) * c2;
        uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
        uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
        c1 = static_cast<uint32_t>(p1);
        c3 = static_cast<uint32_t>(p0);
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return {c0, c1, c2, c3};
}

/// Sample element i of a distribution: kind 0 uniform [a, b), 1 normal (a mean, b std), 2 bernoulli (a).
BURN_HD inline double sample(int kind, double a, double b, uint64_t key, uint64_t counter) {
    auto r = philox(key, counter);
    double u = static_cast<double>((uint64_t(r[0]) << 32 | r[1]) >> 11) * 0x1.0p-53;
    if (kind == 0) return a + (b - a) * u;
    if (kind == 2) return u < a ? 1.0 : 0.0;
    // Box-Muller with a second uniform from the same block; 1 - u keeps log away from 0.
    double v = static_cast<double>((uint64_t(r[2]) << 32 | r[3]) >> 11) * 0x1.0p-53;
    double radius = std::sqrt(-2.0 * std::log(1.0 - u));
    return a + b * radius * std::cos(6.283185307179586476925 * v);
}

}  // namespace burn::rng
