// Channels-last activations on the CPU (dnnl_conv.cpp, elementwise.cpp's dense_layout,
// pool_channels_last.cpp): 2-D convolutions return them, elementwise ops and max_pool2d keep them, a
// convolution takes them as they are, and every value equals the row-major computation's (a float64
// reference for the convolutions, the contiguous path for the rest).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <tuple>

#include "backends/cpu/cpu_tensor.hpp"
#include "backends/cpu/dnnl_conv.hpp"

namespace burn::cpu {
namespace {

TensorAny cl_random(const Dims& shape, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(static_cast<std::size_t>(shape.numel()));
    for (auto& x : v) x = d(rng);
    return ops::from_data(TensorData(v, shape), Device::cpu());
}

/// x's values in the channels-last layout (permuted strides), as a user gets with permute + contiguous.
TensorAny to_channels_last(const TensorAny& x) {
    return ops::permute(ops::contiguous(ops::permute(x, {0, 2, 3, 1})), {0, 3, 1, 2});
}

bool is_cl(const TensorAny& t) {
    const CpuTensor& c = as_cpu(t.ref());
    return !c.is_contiguous() && c.is_channels_last();
}

std::vector<float> values(const TensorAny& t) {
    return ops::into_data(t).to_vec<float>();
}

/// The float64 convolution of x [N, C, H, W] by w [O, C / g, KH, KW] (stride, pad, groups).
std::vector<double> conv_ref(const std::vector<float>& x, const Dims& xs, const std::vector<float>& w,
                             const Dims& ws, int64_t stride, int64_t pad, int64_t groups, const Dims& ys) {
    const int64_t cg = xs[1] / groups, og = ws[0] / groups;
    std::vector<double> y(static_cast<std::size_t>(ys.numel()));
    for (int64_t n = 0; n < ys[0]; ++n)
        for (int64_t o = 0; o < ys[1]; ++o)
            for (int64_t i = 0; i < ys[2]; ++i)
                for (int64_t j = 0; j < ys[3]; ++j) {
                    double acc = 0;
                    for (int64_t ci = 0; ci < cg; ++ci)
                        for (int64_t p = 0; p < ws[2]; ++p)
                            for (int64_t q = 0; q < ws[3]; ++q) {
                                const int64_t h = i * stride - pad + p, v = j * stride - pad + q;
                                if (h < 0 || h >= xs[2] || v < 0 || v >= xs[3]) continue;
                                const int64_t c = o / og * cg + ci;
                                acc +=
                                    double(x[static_cast<std::size_t>(((n * xs[1] + c) * xs[2] + h) * xs[3] +
                                                                      v)]) *
                                    double(
                                        w[static_cast<std::size_t>(((o * cg + ci) * ws[2] + p) * ws[3] + q)]);
                            }
                    y[static_cast<std::size_t>(((n * ys[1] + o) * ys[2] + i) * ys[3] + j)] = acc;
                }
    return y;
}

TEST(CpuChannelsLast, ConvolutionsReturnAndTakeChannelsLast) {
    if (!dnnl_conv_available()) GTEST_SKIP() << "this build has no oneDNN (BURN_DNNL)";
    struct Case {
        int64_t n, c, o, h, k, stride, pad, groups;
    };
    // 3x3, depthwise, 1x1 with stride 2 on an even size (negative end padding), a 7x7 stem on one image
    // (ranges of rows) and on three images (ranges of images)
    for (const Case t :
         {Case{1, 16, 24, 11, 3, 1, 1, 1}, Case{2, 32, 32, 10, 3, 2, 1, 32}, Case{1, 16, 32, 8, 1, 2, 0, 1},
          Case{1, 3, 16, 23, 7, 2, 3, 1}, Case{3, 8, 8, 9, 3, 1, 1, 1}, Case{1, 24, 24, 1, 3, 1, 1, 24}}) {
        SCOPED_TRACE("n " + std::to_string(t.n) + " c " + std::to_string(t.c) + " k " + std::to_string(t.k) +
                     " stride " + std::to_string(t.stride) + " groups " + std::to_string(t.groups));
        const Dims xs{t.n, t.c, t.h, t.h}, ws{t.o, t.c / t.groups, t.k, t.k};
        const int64_t oh = (t.h + 2 * t.pad - t.k) / t.stride + 1;
        const Dims ys{t.n, t.o, oh, oh};
        const TensorAny x = cl_random(xs, 1), w = cl_random(ws, 2);
        ConvOptions<2> opt;
        opt.stride = {static_cast<std::size_t>(t.stride), static_cast<std::size_t>(t.stride)};
        opt.padding = {static_cast<std::size_t>(t.pad), static_cast<std::size_t>(t.pad)};
        opt.groups = static_cast<std::size_t>(t.groups);
        const auto ref = conv_ref(values(x), xs, values(w), ws, t.stride, t.pad, t.groups, ys);
        for (const bool cl_in : {false, true}) {
            const TensorAny y = ops::conv2d(cl_in ? to_channels_last(x) : x, w, std::nullopt, opt);
            // a 1x1 of a row-major input stays row-major (oneDNN's GEMM); everything else goes channels-last
            const bool pointwise = t.k == 1 && t.stride == 1;
            if (oh > 1) {
                EXPECT_EQ(is_cl(y), cl_in || !pointwise) << "cl input " << cl_in;
            }
            const auto got = values(y);
            ASSERT_EQ(got.size(), ref.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], ref[i], 1e-4 * (1 + std::abs(ref[i]))) << i;
        }
    }
}

TEST(CpuChannelsLast, ElementwiseOpsKeepTheLayout) {
    const Dims s{2, 5, 3, 4};
    const TensorAny a = cl_random(s, 3), b = cl_random(s, 4);
    const TensorAny acl = to_channels_last(a), bcl = to_channels_last(b);
    ASSERT_TRUE(is_cl(acl));
    const auto same = [](const TensorAny& got, const TensorAny& want) {
        EXPECT_EQ(values(got), values(want));
    };
    const TensorAny r = ops::relu(acl), c = ops::clamp(acl, -0.25, 0.5), e = ops::exp(acl),
                    sum = ops::add(acl, bcl), lt = ops::lower(acl, bcl), w = ops::where(lt, acl, bcl);
    for (const TensorAny* t : {&r, &c, &e, &sum, &w}) EXPECT_TRUE(is_cl(*t));
    same(r, ops::relu(a));
    same(c, ops::clamp(a, -0.25, 0.5));
    same(e, ops::exp(a));
    same(sum, ops::add(a, b));
    EXPECT_EQ(ops::into_data(lt).to_vec<bool>(), ops::into_data(ops::lower(a, b)).to_vec<bool>());
    same(w, ops::where(ops::lower(a, b), a, b));
    // mixed layouts: the row-major kernel on contiguous copies, row-major out
    for (const TensorAny& mixed :
         {ops::add(acl, b), ops::add(a, bcl), ops::where(ops::lower(a, bcl), acl, b)}) {
        EXPECT_TRUE(as_cpu(mixed.ref()).is_contiguous());
    }
    same(ops::add(acl, b), ops::add(a, b));
    same(ops::sub(a, bcl), ops::sub(a, b));
    same(ops::where(ops::lower(a, bcl), acl, b), ops::where(ops::lower(a, b), a, b));
    // in place: the handed-over buffer is reused and keeps its layout
    TensorAny owned = to_channels_last(a);
    const void* buf = as_cpu(owned.ref()).storage.get();
    const TensorAny twice = ops::mul_scalar(std::move(owned), 2.0);
    EXPECT_EQ(as_cpu(twice.ref()).storage.get(), buf);
    EXPECT_TRUE(is_cl(twice));
    same(twice, ops::mul_scalar(a, 2.0));
}

TEST(CpuChannelsLast, MaxPoolKeepsTheLayoutValuesAndIndices) {
    const Dims s{2, 19, 9, 8};
    TensorAny x = cl_random(s, 5);
    std::vector<float> v = values(x);
    v[7] = std::nanf("");  // NaN wins its windows, in both layouts
    x = ops::from_data(TensorData(v, s), Device::cpu());
    for (const auto& [k, st, pad] :
         {std::tuple<std::size_t, std::size_t, std::size_t>{3, 2, 1}, {2, 2, 0}, {3, 1, 1}}) {
        const std::array<std::size_t, 2> kk{k, k}, ss{st, st}, pp{pad, pad};
        const auto [y, i] = ops::max_pool2d_with_indices(to_channels_last(x), kk, ss, pp);
        const auto [y_ref, i_ref] = ops::max_pool2d_with_indices(x, kk, ss, pp);
        EXPECT_TRUE(is_cl(y));
        const auto got = values(y), want = values(y_ref);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t j = 0; j < got.size(); ++j)
            if (!(std::isnan(got[j]) && std::isnan(want[j]))) {
                ASSERT_EQ(got[j], want[j]) << j;
            }
        EXPECT_EQ(ops::into_data(ops::cast(i, DType::i64)).to_vec<int64_t>(),
                  ops::into_data(ops::cast(i_ref, DType::i64)).to_vec<int64_t>());
    }
}

TEST(CpuChannelsLast, MaxPoolTiesInfinitiesWidthsAndDoubles) {
    // 40 channels: whole vectors and a tail; ties (the first position wins), -inf windows, float64
    for (const DType dt : {DType::f32, DType::f64}) {
        const Dims s{2, 40, 6, 7};
        std::vector<float> v = values(cl_random(s, 9));
        for (std::size_t j = 0; j < v.size(); j += 3) v[j] = 0.5f;  // ties
        for (std::size_t j = 0; j < 7 * 6; ++j) v[j] = -INFINITY;   // plane (0, 0): every window -inf
        const TensorAny x = ops::cast(ops::from_data(TensorData(v, s), Device::cpu()), dt);
        for (const auto& [k, st, pad] :
             {std::tuple<std::size_t, std::size_t, std::size_t>{3, 2, 1}, {2, 1, 0}}) {
            const std::array<std::size_t, 2> kk{k, k}, ss{st, st}, pp{pad, pad};
            const auto [y, i] = ops::max_pool2d_with_indices(to_channels_last(x), kk, ss, pp);
            const auto [y_ref, i_ref] = ops::max_pool2d_with_indices(x, kk, ss, pp);
            EXPECT_TRUE(is_cl(y));
            EXPECT_EQ(ops::into_data(ops::cast(y, DType::f64)).to_vec<double>(),
                      ops::into_data(ops::cast(y_ref, DType::f64)).to_vec<double>());
            EXPECT_EQ(ops::into_data(ops::cast(i, DType::i64)).to_vec<int64_t>(),
                      ops::into_data(ops::cast(i_ref, DType::i64)).to_vec<int64_t>());
        }
    }
}

TEST(CpuChannelsLast, ReductionsRunInMemoryOrderAndKeepTheLayout) {
    // each dim of a channels-last tensor: the values (and indices) of the row-major reduction; the
    // outputs keep the layout (no gathering copy into row-major)
    const Dims s{3, 20, 5, 6};
    std::vector<float> v = values(cl_random(s, 11));
    for (std::size_t j = 0; j < v.size(); j += 7) v[j] = 0.25f;  // ties for the index reductions
    const TensorAny x = ops::from_data(TensorData(v, s), Device::cpu()), xc = to_channels_last(x);
    auto f64 = [](const TensorAny& t) { return ops::into_data(ops::cast(t, DType::f64)).to_vec<double>(); };
    auto near = [&](const TensorAny& got, const TensorAny& want, const char* what, int d) {
        const auto g = f64(got), w = f64(want);
        ASSERT_EQ(g.size(), w.size()) << what << " dim " << d;
        for (std::size_t j = 0; j < g.size(); ++j)
            ASSERT_NEAR(g[j], w[j], 1e-5 * (1 + std::abs(w[j]))) << what << " dim " << d << " at " << j;
    };
    for (int d = 0; d < 4; ++d) {
        near(ops::sum_dim(xc, d), ops::sum_dim(x, d), "sum_dim", d);
        near(ops::mean_dim(xc, d), ops::mean_dim(x, d), "mean_dim", d);
        near(ops::prod_dim(xc, d), ops::prod_dim(x, d), "prod_dim", d);
        const auto [mv, mi] = ops::max_dim_with_indices(xc, d);
        const auto [rv, ri] = ops::max_dim_with_indices(x, d);
        near(mv, rv, "max_dim", d);
        EXPECT_EQ(f64(mi), f64(ri)) << "max_dim indices, dim " << d;
        EXPECT_EQ(f64(ops::argmin(xc, d)), f64(ops::argmin(x, d))) << "argmin, dim " << d;
        EXPECT_EQ(f64(ops::any_dim(ops::greater_elem(xc, 0.9), d)),
                  f64(ops::any_dim(ops::greater_elem(x, 0.9), d)));
        const TensorAny mean = ops::mean_dim(xc, d);  // held: m refers into it
        const CpuTensor& m = as_cpu(mean.ref());
        EXPECT_TRUE(m.is_dense() && (d == 1 || !m.is_contiguous())) << "dim " << d;
    }
    // GlobalAveragePool's chain: both spatial dims, still channels-last
    const TensorAny gap = ops::mean_dims(xc, Dims{2, 3});
    near(gap, ops::mean_dims(x, Dims{2, 3}), "mean_dims", 23);
}

TEST(CpuChannelsLast, TrainingThroughChannelsLastActivationsMatchesRowMajor) {
    // conv -> relu -> max pool -> conv -> sum, with gradients: the same as with oneDNN off (row-major)
    const Device dev = Device::cpu().autodiff();
    auto run = [&]() {
        auto x =
            Tensor<4>::from_data(TensorData(values(cl_random({2, 3, 12, 12}, 6)), Dims{2, 3, 12, 12}), dev);
        auto w1 = Tensor<4>::from_data(TensorData(values(cl_random({8, 3, 3, 3}, 7)), Dims{8, 3, 3, 3}), dev)
                      .require_grad();
        auto w2 = Tensor<4>::from_data(TensorData(values(cl_random({4, 8, 3, 3}, 8)), Dims{4, 8, 3, 3}), dev)
                      .require_grad();
        ConvOptions<2> o;
        o.padding = {1, 1};
        auto h = tensor::module::max_pool2d(activation::relu(tensor::module::conv2d(x, w1, std::nullopt, o)),
                                            {2, 2}, {2, 2}, {0, 0}, {1, 1});
        auto y = tensor::module::conv2d(h, w2, std::nullopt, o);
        auto loss = y.mul(y).sum();
        auto g = loss.backward();
        return std::vector<std::vector<float>>{loss.into_data().to_vec<float>(),
                                               w1.grad(g).value().into_data().to_vec<float>(),
                                               w2.grad(g).value().into_data().to_vec<float>()};
    };
    const auto fast = run();
    set_dnnl_conv_enabled(false);
    const auto plain = run();
    set_dnnl_conv_enabled(true);
    for (std::size_t k = 0; k < fast.size(); ++k) {
        ASSERT_EQ(fast[k].size(), plain[k].size());
        for (std::size_t i = 0; i < fast[k].size(); ++i)
            ASSERT_NEAR(fast[k][i], plain[k][i], 2e-4 * (1 + std::abs(plain[k][i]))) << k << " " << i;
    }
}

}  // namespace
}  // namespace burn::cpu
