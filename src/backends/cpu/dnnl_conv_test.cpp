// The CPU conv forward's oneDNN path (dnnl_conv.cpp) against a naive float64 convolution, over 1, 2
// and 3 spatial dims, groups (depthwise too), stride, dilation, asymmetric padding and bias; the
// same cases through im2col + GEMM (the path taken without oneDNN); the weight cache after new
// weights and after an op that could have overwritten the cached weights in place; and clamp's
// contiguous kernel (NaN kept, bounds of either sign, in-place reuse). Winograd: the 3x3 stride-1
// geometries that reach oneDNN's Winograd kernels, plain and fused (residual + ReLU), one image split
// into row ranges and several images, against the float64 reference.
#include "backends/cpu/dnnl_conv.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "ops/module_ops_internal.hpp"
#include "reference.hpp"

namespace burn::cpu {
namespace {

struct DnnlCase {
    int s;  // spatial dims
    int64_t n, c, o, groups;
    std::array<int64_t, 3> in, k, stride, pad_lo, pad_hi, dil;
    bool bias;
};

/// y [N, O, out...] in float64, straight from the definition.
std::vector<double> dnnl_naive_conv(const DnnlCase& t, const std::vector<float>& x,
                                    const std::vector<float>& w, const std::vector<float>& b,
                                    std::array<int64_t, 3>& out) {
    std::array<int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, st{1, 1, 1}, pl{0, 0, 0}, dl{1, 1, 1};
    int64_t in_vol = 1, k_vol = 1, out_vol = 1;
    out = {1, 1, 1};
    for (int i = 0; i < t.s; ++i) {
        const auto d = static_cast<std::size_t>(3 - t.s + i), q = static_cast<std::size_t>(i);
        in[d] = t.in[q], k[d] = t.k[q], st[d] = t.stride[q], pl[d] = t.pad_lo[q], dl[d] = t.dil[q];
        out[d] = (t.in[q] + t.pad_lo[q] + t.pad_hi[q] - (t.k[q] - 1) * t.dil[q] - 1) / t.stride[q] + 1;
    }
    for (int i = 0; i < 3; ++i) in_vol *= in[i], k_vol *= k[i], out_vol *= out[i];
    const int64_t cg = t.c / t.groups, og = t.o / t.groups;
    std::vector<double> y(static_cast<std::size_t>(t.n * t.o * out_vol));
    for (int64_t n = 0; n < t.n; ++n)
        for (int64_t o = 0; o < t.o; ++o)
            for (int64_t p = 0; p < out_vol; ++p) {
                const int64_t p0 = p / (out[1] * out[2]), p1 = p / out[2] % out[1], p2 = p % out[2];
                double acc = t.bias ? b[static_cast<std::size_t>(o)] : 0.0;
                for (int64_t ci = 0; ci < cg; ++ci)
                    for (int64_t kk = 0; kk < k_vol; ++kk) {
                        const int64_t k0 = kk / (k[1] * k[2]), k1 = kk / k[2] % k[1], k2 = kk % k[2];
                        const int64_t i0 = p0 * st[0] - pl[0] + k0 * dl[0],
                                      i1 = p1 * st[1] - pl[1] + k1 * dl[1],
                                      i2 = p2 * st[2] - pl[2] + k2 * dl[2];
                        if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) continue;
                        const int64_t c = o / og * cg + ci;
                        acc += double(x[static_cast<std::size_t>((n * t.c + c) * in_vol +
                                                                 (i0 * in[1] + i1) * in[2] + i2)]) *
                               double(w[static_cast<std::size_t>((o * cg + ci) * k_vol + kk)]);
                    }
                y[static_cast<std::size_t>((n * t.o + o) * out_vol + p)] = acc;
            }
    return y;
}

TensorAny dnnl_run_conv(const DnnlCase& t, const TensorAny& x, const TensorAny& w,
                        const std::optional<TensorAny>& b) {
    auto opts = [&](auto tag) {
        constexpr std::size_t N = decltype(tag)::value;
        ConvOptions<N> o;
        std::array<std::size_t, N> end{};
        for (std::size_t i = 0; i < N; ++i) {
            o.stride[i] = static_cast<std::size_t>(t.stride[i]);
            o.padding[i] = static_cast<std::size_t>(t.pad_lo[i]);
            o.dilation[i] = static_cast<std::size_t>(t.dil[i]);
            end[i] = static_cast<std::size_t>(t.pad_hi[i]);
        }
        o.groups = static_cast<std::size_t>(t.groups);
        o.padding_end = end;
        return o;
    };
    if (t.s == 1) return ops::conv1d(x, w, b, opts(std::integral_constant<std::size_t, 1>{}));
    if (t.s == 2) return ops::conv2d(x, w, b, opts(std::integral_constant<std::size_t, 2>{}));
    return ops::conv3d(x, w, b, opts(std::integral_constant<std::size_t, 3>{}));
}

const std::vector<DnnlCase>& dnnl_cases() {
    static const std::vector<DnnlCase> cases = {
        // s  n  c   o   g   in             k          stride     pad_lo     pad_hi     dil        bias
        {2, 1, 3, 16, 1, {17, 19, 1}, {7, 7, 1}, {2, 2, 1}, {3, 3, 0}, {3, 3, 0}, {1, 1, 1}, true},    // stem
        {2, 2, 32, 32, 1, {9, 8, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, false},    // 3x3
        {2, 3, 32, 48, 1, {7, 7, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, true},     // 1x1
        {2, 2, 48, 48, 48, {11, 10, 1}, {3, 3, 1}, {2, 2, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, true},  // dw
        {2, 1, 24, 24, 24, {8, 8, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, false},  // dw s1
        {2, 2, 12, 18, 3, {10, 9, 1}, {3, 2, 1}, {2, 1, 1}, {2, 0, 0}, {1, 1, 0}, {2, 3, 1}, true},  // groups
        {2, 1, 5, 7, 1, {13, 6, 1}, {4, 3, 1}, {3, 2, 1}, {0, 2, 0}, {1, 0, 0}, {1, 2, 1}, true},    // odd
        {1, 2, 6, 10, 2, {23, 1, 1}, {5, 1, 1}, {2, 1, 1}, {3, 0, 0}, {1, 0, 0}, {2, 1, 1}, true},   // 1d
        {3, 1, 4, 6, 1, {6, 7, 5}, {3, 2, 3}, {1, 2, 1}, {1, 0, 1}, {1, 1, 0}, {1, 1, 2}, true},     // 3d
    };
    return cases;
}

void dnnl_check_cases(const char* path) {
    std::mt19937 rng(7);
    const Device dev = Device::cpu();
    for (const DnnlCase& t : dnnl_cases()) {
        SCOPED_TRACE(std::string(path) + " case with c=" + std::to_string(t.c) + " o=" + std::to_string(t.o) +
                     " groups=" + std::to_string(t.groups) + " spatial=" + std::to_string(t.s));
        Dims xs{t.n, t.c}, ws{t.o, t.c / t.groups};
        int64_t xn = t.n * t.c, wn = t.o * (t.c / t.groups);
        for (int i = 0; i < t.s; ++i) {
            xs.push_back(t.in[static_cast<std::size_t>(i)]);
            ws.push_back(t.k[static_cast<std::size_t>(i)]);
            xn *= t.in[static_cast<std::size_t>(i)];
            wn *= t.k[static_cast<std::size_t>(i)];
        }
        const auto xv = ref::uniform_values(xn, rng), wv = ref::uniform_values(wn, rng),
                   bv = ref::uniform_values(t.o, rng);
        std::array<int64_t, 3> out{};
        const auto ref = dnnl_naive_conv(t, xv, wv, bv, out);
        const TensorAny x = ops::from_data(TensorData(xv, xs), dev),
                        w = ops::from_data(TensorData(wv, ws), dev);
        std::optional<TensorAny> b;
        if (t.bias) b = ops::from_data(TensorData(bv, Dims{t.o}), dev);
        const auto y = ops::into_data(dnnl_run_conv(t, x, w, b)).to_vec<float>();
        ASSERT_EQ(y.size(), ref.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            ASSERT_NEAR(y[i], ref[i], 1e-4 * (1 + std::abs(ref[i]))) << i;
    }
}

TEST(CpuDnnlConv, ForwardMatchesFloat64Reference) {
    if (!dnnl_conv_available()) GTEST_SKIP() << "this build has no oneDNN (BURN_DNNL)";
    dnnl_check_cases("oneDNN");
}

TEST(CpuDnnlConv, Im2colPathMatchesFloat64Reference) {
    set_dnnl_conv_enabled(false);
    dnnl_check_cases("im2col");
    set_dnnl_conv_enabled(true);
}

TEST(CpuDnnlConv, WeightCacheFollowsNewAndUniqueWeights) {
    const Device dev = Device::cpu();
    std::mt19937 rng(3);
    const auto xv = ref::uniform_values(2 * 16 * 8 * 8, rng), wv = ref::uniform_values(32 * 16 * 9, rng);
    const TensorAny x = ops::from_data(TensorData(xv, Dims{2, 16, 8, 8}), dev);
    TensorAny w = ops::from_data(TensorData(wv, Dims{32, 16, 3, 3}), dev);
    ConvOptions<2> o;
    o.padding = {1, 1};
    const auto y1 = ops::into_data(ops::conv2d(x, w, std::nullopt, o)).to_vec<float>();
    // w's only handle goes into mul_scalar: without the cache's reference its buffer would be reused
    // in place, and a cache keyed by buffer would then hand back the old weights.
    w = ops::mul_scalar(std::move(w), 2.0);
    const auto y2 = ops::into_data(ops::conv2d(x, w, std::nullopt, o)).to_vec<float>();
    for (std::size_t i = 0; i < y1.size(); ++i)
        ASSERT_NEAR(y2[i], 2 * y1[i], 1e-5 * (1 + std::abs(y1[i]))) << i;
    // A fresh tensor (maybe the freed buffer of an earlier one) with other values.
    w = TensorAny();
    const TensorAny w3 =
        ops::from_data(TensorData(ref::uniform_values(32 * 16 * 9, rng), Dims{32, 16, 3, 3}), dev);
    const auto y3 = ops::into_data(ops::conv2d(x, w3, std::nullopt, o)).to_vec<float>();
    set_dnnl_conv_enabled(false);
    const auto y3_ref = ops::into_data(ops::conv2d(x, w3, std::nullopt, o)).to_vec<float>();
    set_dnnl_conv_enabled(true);
    for (std::size_t i = 0; i < y3.size(); ++i)
        ASSERT_NEAR(y3[i], y3_ref[i], 1e-4 * (1 + std::abs(y3_ref[i]))) << i;
}

std::size_t dnnl_winograd_kernels() {
    std::size_t n = 0;
    for (const auto& k : dnnl_conv_kernels()) n += k.find("wino") != std::string::npos;
    return n;
}

/// Each 2-D case (groups 1) plain and fused (+ residual, ReLU) against the float64 reference.
void dnnl_check_plain_and_fused(const std::vector<DnnlCase>& cases, unsigned seed) {
    std::mt19937 rng(seed);
    const Device dev = Device::cpu();
    for (const DnnlCase& t : cases) {
        SCOPED_TRACE("n=" + std::to_string(t.n) + " c=" + std::to_string(t.c) + " o=" + std::to_string(t.o) +
                     " k=" + std::to_string(t.k[0]));
        const Dims xs{t.n, t.c, t.in[0], t.in[1]}, ws{t.o, t.c, t.k[0], t.k[1]};
        const auto xv = ref::uniform_values(xs.numel(), rng), wv = ref::uniform_values(ws.numel(), rng),
                   bv = ref::uniform_values(t.o, rng);
        std::array<int64_t, 3> out{};
        const auto ref = dnnl_naive_conv(t, xv, wv, bv, out);
        const Dims ys{t.n, t.o, out[1], out[2]};
        const auto rv = ref::uniform_values(ys.numel(), rng);
        const TensorAny x = ops::from_data(TensorData(xv, xs), dev),
                        w = ops::from_data(TensorData(wv, ws), dev),
                        r = ops::from_data(TensorData(rv, ys), dev);
        std::optional<TensorAny> b;
        if (t.bias) b = ops::from_data(TensorData(bv, Dims{t.o}), dev);
        const auto y = ops::into_data(dnnl_run_conv(t, x, w, b)).to_vec<float>();
        attrs::Conv spec;
        spec.spatial = 2;
        spec.pad_begin = {t.pad_lo[0], t.pad_lo[1], 0};
        spec.pad_end = {t.pad_hi[0], t.pad_hi[1], 0};
        const auto fused = ops::into_data(ops::detail::conv_fused(x, w, b, r, spec, ys, 0,
                                                                  std::numeric_limits<double>::infinity()))
                               .to_vec<float>();
        ASSERT_EQ(y.size(), ref.size());
        for (std::size_t i = 0; i < y.size(); ++i) {
            ASSERT_NEAR(y[i], ref[i], 1e-4 * (1 + std::abs(ref[i]))) << i;
            const double f = std::max(0.0, ref[i] + rv[i]);
            ASSERT_NEAR(fused[i], f, 1e-4 * (1 + std::abs(f))) << i;
        }
    }
}

/// Runs on n threads, restoring the count after.
struct DnnlThreads {
    int saved = num_threads();
    explicit DnnlThreads(int n) { set_num_threads(n); }
    ~DnnlThreads() { set_num_threads(saved); }
};

TEST(CpuDnnlConv, WinogradMatchesFloat64Reference) {
    if (!dnnl_conv_available()) GTEST_SKIP() << "this build has no oneDNN (BURN_DNNL)";
    const DnnlThreads two(2);  // the cases are sized for parts of at least 392 output pixels
    const std::size_t before = dnnl_winograd_kernels();
    dnnl_check_plain_and_fused(
        {
            // s  n  c   o  g  in            k          stride     pad_lo     pad_hi     dil        bias
            {2, 1, 64, 80, 1, {28, 28, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, true},
            {2, 2, 80, 64, 1, {24, 20, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, false},
            {2, 2, 64, 64, 1, {24, 22, 1}, {3, 3, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, true},
        },
        11);
    // Each geometry above (every part of a call has at least 392 output pixels on two threads) made two
    // Winograd primitives (plain, fused) where the CPU has AVX-512.
    if (dnnl_winograd_kernels() == before)
        GTEST_SKIP() << "checked the oneDNN path; this CPU has no Winograd kernel (AVX-512 only)";
    EXPECT_GE(dnnl_winograd_kernels() - before, 6u);
}

// One image of few rows (7 do not split evenly over 2 or 4 threads): ranges of output channels, each
// through a dense buffer copied into y's channels; the fused residual is read from them first.
TEST(CpuDnnlConv, FewRowsSplitByChannelsMatchFloat64Reference) {
    if (!dnnl_conv_available()) GTEST_SKIP() << "this build has no oneDNN (BURN_DNNL)";
    const DnnlThreads two(2);
    dnnl_check_plain_and_fused(
        {
            // s  n  c   o  g  in          k          stride     pad_lo     pad_hi     dil        bias
            {2, 1, 48, 128, 1, {7, 7, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, true},
            {2, 1, 96, 64, 1, {7, 5, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, false},
            {2, 1, 64, 192, 1, {3, 9, 1}, {3, 3, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 1}, true},
        },
        13);
}

TEST(CpuDnnlConv, WinogradOffTakesTheDirectKernel) {
    if (!dnnl_conv_available()) GTEST_SKIP() << "this build has no oneDNN (BURN_DNNL)";
    std::mt19937 rng(12);
    const Device dev = Device::cpu();
    const Dims xs{1, 64, 32, 32}, ws{64, 64, 3, 3};
    const TensorAny x = ops::from_data(TensorData(ref::uniform_values(xs.numel(), rng), xs), dev),
                    w = ops::from_data(TensorData(ref::uniform_values(ws.numel(), rng), ws), dev);
    ConvOptions<2> o;
    o.padding = {1, 1};
    const DnnlThreads two(2);  // 16 rows of 32 pixels per part
    const std::size_t before = dnnl_winograd_kernels();
    set_dnnl_winograd_enabled(false);
    const auto direct = ops::into_data(ops::conv2d(x, w, std::nullopt, o)).to_vec<float>();
    EXPECT_EQ(dnnl_winograd_kernels(), before);
    set_dnnl_winograd_enabled(true);
    const auto wino = ops::into_data(ops::conv2d(x, w, std::nullopt, o)).to_vec<float>();
    if (dnnl_winograd_kernels() == before) GTEST_SKIP() << "this CPU has no Winograd kernel (AVX-512 only)";
    for (std::size_t i = 0; i < direct.size(); ++i)
        ASSERT_NEAR(wino[i], direct[i], 1e-4 * (1 + std::abs(direct[i]))) << i;
}

TEST(CpuClamp, ContiguousKernelKeepsNanAndBounds) {
    const Device dev = Device::cpu();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> v;
    for (int i = 0; i < 5000; ++i) v.push_back(static_cast<float>(i % 17) - 8.5f);
    v[3] = nan, v[10] = inf, v[11] = -inf, v[4999] = nan;
    for (auto [lo, hi] : {std::pair{0.0, 6.0}, std::pair{-2.5, -1.0}, std::pair{-inf * 1.0, 3.0}}) {
        const auto y = ops::into_data(ops::clamp(ops::from_data(TensorData(v, Dims{50, 100}), dev), lo, hi))
                           .to_vec<float>();
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (std::isnan(v[i])) {
                ASSERT_TRUE(std::isnan(y[i])) << i;
                continue;
            }
            const double want = std::min(std::max(double(v[i]), lo), hi);
            ASSERT_EQ(double(y[i]), want) << i << " lo " << lo << " hi " << hi;
        }
    }
    std::vector<double> d{-3.0, 0.5, 9.0, std::nan("")};
    const auto yd =
        ops::into_data(ops::clamp(ops::from_data(TensorData(d, Dims{4}), dev), 0.0, 6.0)).to_vec<double>();
    EXPECT_EQ(yd[0], 0.0);
    EXPECT_EQ(yd[1], 0.5);
    EXPECT_EQ(yd[2], 6.0);
    EXPECT_TRUE(std::isnan(yd[3]));
}

}  // namespace
}  // namespace burn::cpu
