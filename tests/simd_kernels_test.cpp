// The CPU kernels with WebAssembly SIMD variants (docs/wasm.md, "SIMD"), checked on every build against
// float64 loops written here: the single-row product (simd::dot_rows, a Linear layer on one sample),
// max_pool2d's 2 x 2 / stride 2 window (values and indices, ties and NaN) and relu (NaN, infinities,
// in place: simd::relu in WebAssembly). The wasm suite runs them on the wasm128 kernels; natively they
// check the portable or Highway ones with the same expectations.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "backends/cpu/simd_act.hpp"

using namespace burn;

TEST(SimdKernels, DotRowsMatchFloat64) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (int64_t n : {1, 3, 4, 5, 8, 13})
        for (int64_t k : {0, 1, 3, 4, 7, 16, 37, 3136}) {
            const int64_t ldw = k + 3;  // rows with gaps between them
            std::vector<float> x(static_cast<std::size_t>(k + 1)), w(static_cast<std::size_t>(n * ldw + 1));
            for (auto& v : x) v = dist(rng);
            for (auto& v : w) v = dist(rng);
            std::vector<float> y(static_cast<std::size_t>(n + 1), 9.0f);
            cpu::simd::dot_rows(x.data(), w.data(), ldw, k, y.data(), n);
            for (int64_t j = 0; j < n; ++j) {
                double want = 0;
                for (int64_t p = 0; p < k; ++p)
                    want += static_cast<double>(x[static_cast<std::size_t>(p)]) *
                            static_cast<double>(w[static_cast<std::size_t>(j * ldw + p)]);
                ASSERT_NEAR(y[static_cast<std::size_t>(j)], want, 1e-6 * static_cast<double>(k + 1))
                    << "n " << n << " k " << k << " row " << j;
            }
            EXPECT_EQ(y[static_cast<std::size_t>(n)], 9.0f) << "wrote past row " << n;
        }
}

namespace {

/// max_pool2d 2 x 2, stride 2 on x [planes, h, w] in float64: PyTorch's order of taps, a later tap wins
/// when larger or NaN; values and the index h * w + w of the winner.
void max_pool_reference(const std::vector<float>& x, int64_t planes, int64_t h, int64_t w,
                        std::vector<double>& y, std::vector<int32_t>& ind) {
    const int64_t oh = h / 2, ow = w / 2;
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t i = 0; i < oh; ++i)
            for (int64_t j = 0; j < ow; ++j) {
                double best = -std::numeric_limits<double>::infinity();
                int64_t at = (2 * i) * w + 2 * j;
                for (int64_t a = 0; a < 2; ++a)
                    for (int64_t b = 0; b < 2; ++b) {
                        const int64_t q = (2 * i + a) * w + 2 * j + b;
                        const double v = x[static_cast<std::size_t>(p * h * w + q)];
                        if (v > best || std::isnan(v)) {
                            best = v;
                            at = q;
                        }
                    }
                y.push_back(best);
                ind.push_back(static_cast<int32_t>(at));
            }
}

}  // namespace

TEST(SimdKernels, MaxPool2x2MatchesFloat64) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> level(-3, 3);  // few distinct values: many ties
    const Dims shapes[] = {Dims{1, 32, 28, 28}, Dims{2, 3, 7, 9}, Dims{1, 1, 2, 2}, Dims{1, 2, 5, 19}};
    for (const Dims& s : shapes) {
        const int64_t planes = s[0] * s[1], h = s[2], w = s[3];
        std::vector<float> x(static_cast<std::size_t>(planes * h * w));
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<float>(level(rng));
            if (i % 37 == 5) x[i] = std::numeric_limits<float>::quiet_NaN();
            if (i % 41 == 3) x[i] = -std::numeric_limits<float>::infinity();
        }
        std::vector<double> want;
        std::vector<int32_t> want_ind;
        max_pool_reference(x, planes, h, w, want, want_ind);
        auto [y, ind] = ops::max_pool2d_with_indices(ops::from_data(TensorData(x, s), Device::cpu()), {2, 2},
                                                     {2, 2}, {0, 0});
        const auto got = ops::into_data(y).to_vec<float>();
        const auto got_ind = ops::into_data(ops::cast(ind, DType::i32)).to_vec<int32_t>();
        ASSERT_EQ(got.size(), want.size());
        const std::string what = "shape " + std::to_string(h) + "x" + std::to_string(w);
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (std::isnan(want[i]))
                ASSERT_TRUE(std::isnan(got[i])) << what << " at " << i;
            else
                ASSERT_EQ(static_cast<double>(got[i]), want[i]) << what << " at " << i;
            ASSERT_EQ(got_ind[i], want_ind[i]) << what << " at " << i;
        }
    }
}

TEST(SimdKernels, ReluMatchesItsDefinition) {
    // WebAssembly routes contiguous f32 relu to simd::relu (f32x4, tails scalar); natively the generic
    // loop: x < 0 ? 0 : x either way, NaN kept. (The sign of a zero is not checked: clang compiles the
    // scalar select to wasm's f32.max, which turns -0 into +0.)
    for (int64_t n : {1, 3, 4, 5, 37, 1000}) {
        std::vector<float> x(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            x[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 11) - 5.5f;
        const float specials[] = {
            std::numeric_limits<float>::quiet_NaN(),   -0.0f,
            -std::numeric_limits<float>::infinity(),   std::numeric_limits<float>::infinity(),
            -std::numeric_limits<float>::denorm_min(), 0.0f};
        for (std::size_t i = 0; i < x.size() && i < 6; ++i) x[x.size() - 1 - i] = specials[i];
        for (bool in_place : {false, true}) {
            TensorAny t = ops::from_data(TensorData(x, Dims{n}), Device::cpu());
            const TensorAny keep = in_place ? TensorAny() : t;  // a second handle: no reuse of t's buffer
            const auto got = ops::into_data(ops::relu(std::move(t))).to_vec<float>();
            ASSERT_EQ(got.size(), x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
                const float want = x[i] < 0.0f ? 0.0f : x[i];
                if (std::isnan(want))
                    ASSERT_TRUE(std::isnan(got[i])) << "n " << n << " at " << i;
                else
                    ASSERT_EQ(got[i], want) << "n " << n << " at " << i << (in_place ? " (in place)" : "");
            }
        }
    }
}
