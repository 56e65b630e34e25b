#pragma once
/// A small, fully specified random generator for data pipelines (shuffles, sampling, splits).
/// std::shuffle and std::uniform_int_distribution differ between standard libraries; these do not,
/// so a seed gives the same order on every platform and compiler.
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace burn::data {

/// SplitMix64 finaliser: mixes a 64-bit value into a well-distributed one.
inline uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// A seed derived from a base seed and a stream number (an epoch, a class, an iteration).
inline uint64_t derive_seed(uint64_t seed, uint64_t stream) {
    return mix64(mix64(seed) ^ mix64(stream + 0x632BE59BD9B4E019ull));
}

/// xoshiro256** seeded through SplitMix64.
class Rng {
  public:
    explicit Rng(uint64_t seed) {
        for (auto& s : s_) {
            seed += 0x9E3779B97F4A7C15ull;
            s = mix64(seed - 0x9E3779B97F4A7C15ull);
        }
    }
    uint64_t next() {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    /// Uniform in [0, n) without modulo bias (n > 0).
    uint64_t below(uint64_t n) {
        const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % n);
        uint64_t x;
        do x = next();
        while (x >= limit);
        return x % n;
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

/// Fisher-Yates shuffle driven by rng.
template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i) {
        std::size_t j = static_cast<std::size_t>(rng.below(i));
        std::swap(v[i - 1], v[j]);
    }
}

/// 0 .. n-1 in a seeded random order.
inline std::vector<std::size_t> permutation(std::size_t n, uint64_t seed) {
    std::vector<std::size_t> p(n);
    std::iota(p.begin(), p.end(), std::size_t{0});
    Rng rng(seed);
    shuffle(p, rng);
    return p;
}

}  // namespace burn::data
