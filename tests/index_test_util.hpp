#pragma once
// Shared helpers of the index tests (index_test.cpp, index_additive_test.cpp): host reference data,
// tensors in contiguous / transposed / flipped layouts, row-major coordinates, error checks.
#include <gtest/gtest.h>

#include <array>
#include <burn/burn.hpp>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/cpu_tensor.hpp"

namespace burn::index_test {

struct Host {
    std::vector<double> v;
    Dims shape;
};

inline constexpr DType kAll[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                                 DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};
inline constexpr DType kNumeric[] = {DType::f32, DType::f64, DType::f16, DType::bf16,
                                     DType::i64, DType::i32, DType::i8,  DType::u8};
inline constexpr DType kIndex[] = {DType::i32, DType::i64, DType::i16, DType::u8};

// Values exact in every dtype of their family (small halves, small ints, 0/1).
inline double gen(DType dt, std::mt19937& rng) {
    if (is_bool(dt)) return static_cast<double>(rng() % 2);
    if (dt == DType::u8) return static_cast<double>(rng() % 20);
    if (is_int(dt)) return static_cast<double>(static_cast<int>(rng() % 41) - 20);
    return (static_cast<int>(rng() % 81) - 40) * 0.5;
}

inline Host random_host(const Dims& shape, DType dt, std::mt19937& rng) {
    Host h{std::vector<double>(static_cast<std::size_t>(shape.numel())), shape};
    for (auto& x : h.v) x = gen(dt, rng);
    return h;
}

inline Host random_indices(const Dims& shape, int64_t bound, std::mt19937& rng) {
    Host h{std::vector<double>(static_cast<std::size_t>(shape.numel())), shape};
    for (auto& x : h.v) x = static_cast<double>(rng() % static_cast<unsigned>(bound));
    return h;
}

inline bool contiguous(const TensorAny& t) {
    return cpu::as_cpu(t.ref()).is_contiguous();
}

/// A tensor holding h's values in dtype dt. layout 0: contiguous; 1: a transposed view (dims 0 and
/// -1 swapped); 2: a view with every dim flipped (negative strides).
inline TensorAny make(const Host& h, DType dt, int layout) {
    TensorAny a = ops::cast(ops::from_data(TensorData(h.v, h.shape), Device::cpu()), dt);
    if (layout == 1 && a.rank() >= 2) return ops::swap_dims(ops::contiguous(ops::swap_dims(a, 0, -1)), 0, -1);
    if (layout == 2) {
        Dims all_axes;
        for (int d = 0; d < a.rank(); ++d) all_axes.push_back(d);
        return ops::flip(ops::contiguous(ops::flip(a, all_axes)), all_axes);
    }
    return a;
}

inline std::vector<double> read(const TensorAny& t) {
    TensorData d = ops::into_data(t);
    std::vector<double> out(static_cast<std::size_t>(d.numel()));
    for (int64_t i = 0; i < d.numel(); ++i) out[static_cast<std::size_t>(i)] = d.value_as_double(i);
    return out;
}

inline void expect_equal(const TensorAny& t, DType dt, const Host& ref, const std::string& what) {
    ASSERT_EQ(t.dtype(), dt) << what;
    ASSERT_EQ(t.shape(), ref.shape) << what;
    auto got = read(t);
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], ref.v[i]) << what << " at flat " << i;
}

// Row-major coordinates.
inline std::array<int64_t, kMaxRank> unravel(int64_t flat, const Dims& shape) {
    std::array<int64_t, kMaxRank> c{};
    for (int d = shape.rank() - 1; d >= 0; --d) {
        c[d] = flat % shape[d];
        flat /= shape[d];
    }
    return c;
}
inline int64_t ravel(const std::array<int64_t, kMaxRank>& c, const Dims& shape) {
    int64_t f = 0;
    for (int d = 0; d < shape.rank(); ++d) f = f * shape[d] + c[d];
    return f;
}

inline std::string tag(DType dt, int dim, int layout) {
    return std::string(name(dt)) + " dim " + std::to_string(dim) + " layout " + std::to_string(layout);
}

template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected one mentioning " << *parts.begin();
    } catch (const E& e) {
        for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "wrong exception type: " << e.what();
    }
}

}  // namespace burn::index_test
