#pragma once
// Naive float64 reference helpers for the op database: host tensors as doubles, row-major index
// arithmetic and lane-wise maps along one dim. Plain loops that are obviously right; speed does not
// matter here (samples are tiny).
#include <burn/burn.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace burn::ref {

/// n values in [lo, hi) from a linear congruential generator: the same numbers on every platform and
/// compiler for a seed (std's distributions are not), for tests that compare against their own loops.
inline std::vector<float> lcg_values(std::size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
    std::vector<float> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = lo + (hi - lo) * (static_cast<float>(seed >> 8) / static_cast<float>(1u << 24));
    }
    return v;
}

/// n standard normal values from std::mt19937 (seeded): for tests that compare one device against
/// another or a kernel against its own rearrangement, where only the run-to-run sameness matters.
inline std::vector<float> normal_values(std::size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(gen);
    return v;
}

/// n values uniform in [-1, 1) drawn from rng (tests that keep one generator across several tensors).
inline std::vector<float> uniform_values(int64_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = d(rng);
    return v;
}

/// normal_values as a host tensor of this shape.
inline TensorData normal_data(const Dims& shape, uint32_t seed) {
    return TensorData(normal_values(static_cast<std::size_t>(shape.numel()), seed), shape);
}

/// A host tensor of doubles, row-major.
struct Host {
    Dims shape;
    std::vector<double> v;
    int rank() const { return shape.rank(); }
    int64_t numel() const { return static_cast<int64_t>(v.size()); }
};

inline Host host(const TensorData& d) {
    Host h{d.shape(), std::vector<double>(static_cast<std::size_t>(d.numel()))};
    for (int64_t i = 0; i < d.numel(); ++i) h.v[static_cast<std::size_t>(i)] = d.value_as_double(i);
    return h;
}

inline Host filled(const Dims& shape, double value) {
    return Host{shape, std::vector<double>(static_cast<std::size_t>(shape.numel()), value)};
}

inline std::vector<int64_t> unravel(int64_t flat, const Dims& shape) {
    std::vector<int64_t> idx(static_cast<std::size_t>(shape.rank()));
    for (int d = shape.rank() - 1; d >= 0; --d) {
        idx[static_cast<std::size_t>(d)] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    return idx;
}

inline int64_t ravel(const std::vector<int64_t>& idx, const Dims& shape) {
    int64_t flat = 0;
    for (int d = 0; d < shape.rank(); ++d) flat = flat * shape[d] + idx[static_cast<std::size_t>(d)];
    return flat;
}

inline int norm_dim(int64_t dim, int rank) {
    return static_cast<int>(dim < 0 ? dim + rank : dim);
}

/// TensorData of dtype from doubles: floats round to the dtype, ints wrap as a cast from int64 does
/// (so modular integer arithmetic done in int64 matches), bool is v != 0.
inline TensorData make_data(const Dims& shape, const std::vector<double>& v, DType dtype) {
    std::vector<uint8_t> bytes(v.size() * size_of(dtype));
    visit_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t i = 0; i < v.size(); ++i) {
            T x;
            if constexpr (std::is_same_v<T, bool>)
                x = v[i] != 0;
            else if constexpr (std::is_integral_v<T>)
                x = static_cast<T>(static_cast<int64_t>(v[i]));
            else if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
                x = T(static_cast<float>(v[i]));
            else
                x = static_cast<T>(v[i]);
            std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
        }
    });
    return TensorData(std::move(bytes), shape, dtype);
}

inline TensorData to_data(const Host& h, DType dtype = DType::f64) {
    return make_data(h.shape, h.v, dtype);
}

/// Applies f to every lane along dim (the values x[..., :, ...] with the other indices fixed); f
/// returns the output lane of length out_len, which becomes the output's size along dim.
inline Host map_lanes(const Host& x, int dim, int64_t out_len,
                      const std::function<std::vector<double>(const std::vector<double>&)>& f) {
    Dims out_shape = x.shape;
    out_shape[dim] = out_len;
    Host out = filled(out_shape, 0.0);
    const int64_t n = x.shape[dim];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; ++d) outer *= x.shape[d];
    for (int d = dim + 1; d < x.rank(); ++d) inner *= x.shape[d];
    std::vector<double> lane(static_cast<std::size_t>(n));
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            for (int64_t k = 0; k < n; ++k)
                lane[static_cast<std::size_t>(k)] = x.v[static_cast<std::size_t>((o * n + k) * inner + i)];
            std::vector<double> r = f(lane);
            for (int64_t k = 0; k < out_len; ++k)
                out.v[static_cast<std::size_t>((o * out_len + k) * inner + i)] =
                    r[static_cast<std::size_t>(k)];
        }
    }
    return out;
}

/// Reduces every lane along dim to one value, keeping dim with size 1.
inline Host reduce_dim(const Host& x, int dim, const std::function<double(const std::vector<double>&)>& f) {
    return map_lanes(x, dim, 1,
                     [&](const std::vector<double>& lane) { return std::vector<double>{f(lane)}; });
}

/// Numpy broadcast of equal-rank shapes.
inline Dims broadcast(const Dims& a, const Dims& b) {
    Dims out = a;
    for (int d = 0; d < a.rank(); ++d) out[d] = a[d] == 1 ? b[d] : a[d];
    return out;
}

/// x's value at an index of a broadcast shape (size-1 dims of x repeat).
inline double at_broadcast(const Host& x, const std::vector<int64_t>& idx) {
    int64_t flat = 0;
    for (int d = 0; d < x.rank(); ++d) {
        int64_t i = x.shape[d] == 1 ? 0 : idx[static_cast<std::size_t>(d)];
        flat = flat * x.shape[d] + i;
    }
    return x.v[static_cast<std::size_t>(flat)];
}

/// The positions one slice range {start, end, step} selects, in order: a negative step walks
/// [start, end) backwards from end - 1 (burn's rule).
inline std::vector<int64_t> slice_positions(int64_t start, int64_t end, int64_t step) {
    std::vector<int64_t> p;
    if (step > 0)
        for (int64_t i = start; i < end; i += step) p.push_back(i);
    else
        for (int64_t i = end - 1; i >= start; i += step) p.push_back(i);
    return p;
}

inline double sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

}  // namespace burn::ref
