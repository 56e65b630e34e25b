// The fused layer_norm and cross_entropy ops through nn::LayerNorm and nn::loss::CrossEntropyLoss:
// values against naive float64 loops, gradients against the composed ops (the layers' former
// implementation), non-contiguous and empty inputs, f16 statistics, determinism of the blocked column
// sums, and errors. Every available device is checked (CUDA when present).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>

#include "forwarding_backend.hpp"
#include "ops/fused_nn.hpp"

namespace burn {
namespace {

std::vector<double> randoms(int64_t n, uint64_t seed, double lo = -2, double hi = 2) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = u(rng);
    return v;
}

TensorAny make(const Dims& s, uint64_t seed, DType dt, const Device& d) {
    return ops::cast(ops::from_data(TensorData(randoms(s.numel(), seed), s), d), dt);
}

std::vector<double> values(const TensorAny& t) {
    return ops::into_data(ops::cast(ops::inner_of(t), DType::f64)).to_vec<double>();
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << what << " element " << i;
}

/// The composed layer norm (LayerNorm::forward_any before the fused op).
TensorAny composed_layer_norm(const TensorAny& x, const TensorAny& gamma, const TensorAny& beta, double eps) {
    const int last = x.rank() - 1;
    TensorAny mean = ops::mean_dim(x, last);
    TensorAny centered = ops::sub(x, mean);
    TensorAny var = ops::mean_dim(ops::square(centered), last);
    TensorAny y = ops::mul(centered, ops::recip(ops::sqrt(ops::add_scalar(var, eps))));
    Dims s = Dims::filled(x.rank(), 1);
    s[last] = x.shape().back();
    return ops::add(ops::mul(y, ops::reshape(gamma, s)), ops::reshape(beta, s));
}

struct LnCase {
    TensorAny x, gamma, beta, w;
};

LnCase ln_case(const Dims& s, const Device& d, DType dt = DType::f64) {
    const Dims p{s.back()};
    return {ops::require_grad(make(s, 1, dt, d)), ops::require_grad(make(p, 2, dt, d)),
            ops::require_grad(make(p, 3, dt, d)), make(s, 4, dt, d)};
}

TEST(FusedLayerNorm, MatchesNaiveValuesAndComposedGradients) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        const Device ad = dev.autodiff();
        const Dims s{3, 5, 8};
        LnCase c = ln_case(s, ad);
        TensorAny y = ops::layer_norm(c.x, c.gamma, c.beta, 1e-5);
        // Naive float64 reference of the values.
        auto x = values(c.x), g = values(c.gamma), b = values(c.beta);
        std::vector<double> want(x.size());
        for (int64_t r = 0; r < 15; ++r) {
            double m = 0, v = 0;
            for (int j = 0; j < 8; ++j) m += x[static_cast<std::size_t>(r * 8 + j)] / 8;
            for (int j = 0; j < 8; ++j) v += std::pow(x[static_cast<std::size_t>(r * 8 + j)] - m, 2) / 8;
            for (int j = 0; j < 8; ++j) {
                const auto i = static_cast<std::size_t>(r * 8 + j);
                want[i] = (x[i] - m) / std::sqrt(v + 1e-5) * g[static_cast<std::size_t>(j)] +
                          b[static_cast<std::size_t>(j)];
            }
        }
        expect_close(values(y), want, 1e-10, "y");
        // Gradients of sum(y * w) against the composed ops.
        Gradients gf = ops::backward(ops::sum(ops::mul(y, c.w)));
        Gradients gc =
            ops::backward(ops::sum(ops::mul(composed_layer_norm(c.x, c.gamma, c.beta, 1e-5), c.w)));
        for (const TensorAny* t : {&c.x, &c.gamma, &c.beta}) {
            auto a = ops::grad(*t, gf), e = ops::grad(*t, gc);
            ASSERT_TRUE(a.has_value() && e.has_value());
            expect_close(values(*a), values(*e), 1e-9, "gradient");
        }
    }
}

TEST(FusedLayerNorm, ModuleMatchesTheOpAndTakesNonContiguousInput) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        auto ln = nn::LayerNormConfig{6}.init(dev);
        TensorAny xt = make(Dims{6, 4}, 7, DType::f32, dev);
        TensorAny view = ops::swap_dims(xt, 0, 1);  // [4, 6], strides (1, 4)
        Tensor<2> y = ln.forward(Tensor<2>(view));
        TensorAny want = ops::layer_norm(ops::contiguous(view), ln.gamma.val().handle(),
                                         ln.beta->val().handle(), ln.epsilon);
        expect_close(values(y.handle()), values(want), 0, "non-contiguous vs contiguous");
        // Flipped view of the last dim.
        TensorAny flipped = ops::flip(view, Dims{1});
        expect_close(values(ln.forward(Tensor<2>(flipped)).handle()),
                     values(ops::layer_norm(ops::contiguous(flipped), ln.gamma.val().handle(),
                                            ln.beta->val().handle(), ln.epsilon)),
                     0, "flipped");
    }
}

TEST(FusedLayerNorm, EmptyRowsAndF16Statistics) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        const Device ad = dev.autodiff();
        LnCase c = ln_case(Dims{0, 4}, ad, DType::f32);
        TensorAny y = ops::layer_norm(c.x, c.gamma, c.beta, 1e-5);
        EXPECT_EQ(y.shape(), (Dims{0, 4}));
        Gradients g = ops::backward(ops::sum(y));
        auto dg = ops::grad(c.gamma, g);
        ASSERT_TRUE(dg.has_value());
        expect_close(values(*dg), {0, 0, 0, 0}, 0, "dgamma of no rows");

        TensorAny x16 = make(Dims{5, 12}, 9, DType::f16, dev);
        auto r = ops::layer_norm_stats(x16, std::nullopt, std::nullopt, 1e-5);
        EXPECT_EQ(r[0].dtype(), DType::f16);
        EXPECT_EQ(r[1].dtype(), DType::f32);
        EXPECT_EQ(r[2].dtype(), DType::f32);
        auto r32 = ops::layer_norm_stats(ops::cast(x16, DType::f32), std::nullopt, std::nullopt, 1e-5);
        expect_close(values(r[1]), values(r32[1]), 1e-6, "f16 mean");
        expect_close(values(r[2]), values(r32[2]), 1e-6, "f16 rstd");
        expect_close(values(r[0]), values(r32[0]), 1e-2, "f16 y");
    }
}

TEST(FusedLayerNorm, ColumnSumsAreBlockedAndDeterministic) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        const int64_t rows = 1000, d = 7;
        TensorAny x = make(Dims{rows, d}, 11, DType::f32, dev), g = make(Dims{rows, d}, 12, DType::f32, dev);
        TensorAny gamma = make(Dims{d}, 13, DType::f32, dev);
        auto st = ops::layer_norm_stats(x, gamma, std::nullopt, 1e-5);
        auto a = ops::layer_norm_backward(g, x, st[1], st[2], gamma, true);
        auto b = ops::layer_norm_backward(g, x, st[1], st[2], gamma, true);
        EXPECT_TRUE(ops::into_data(a[1]) == ops::into_data(b[1]));
        EXPECT_TRUE(ops::into_data(a[2]) == ops::into_data(b[2]));
        auto xv = values(x), gv = values(g), mv = values(st[1]), rv = values(st[2]);
        std::vector<double> dg(d, 0.0), db(d, 0.0);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0; j < d; ++j) {
                const auto i = static_cast<std::size_t>(r * d + j);
                dg[static_cast<std::size_t>(j)] +=
                    gv[i] * (xv[i] - mv[static_cast<std::size_t>(r)]) * rv[static_cast<std::size_t>(r)];
                db[static_cast<std::size_t>(j)] += gv[i];
            }
        expect_close(values(a[1]), dg, 1e-4, "dgamma");
        expect_close(values(a[2]), db, 1e-4, "dbeta");
        // Without parameter gradients the extra outputs are empty.
        auto c = ops::layer_norm_backward(g, x, st[1], st[2], gamma, false);
        EXPECT_EQ(c[1].numel(), 0);
        expect_close(values(c[0]), values(a[0]), 0, "dx without parameter gradients");
    }
}

TEST(FusedLayerNorm, BadInputs) {
    auto expect_error = [](auto&& fn, const char* part) {
        try {
            fn();
            ADD_FAILURE() << "no error; expected " << part;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    const Device d;
    TensorAny x = ops::full({2, 3}, 1, DType::f32, d);
    expect_error([&] { ops::layer_norm(x, ops::full({4}, 1, DType::f32, d), std::nullopt, 1e-5); },
                 "[layer_norm]");
    EXPECT_THROW(ops::layer_norm(x, ops::full({4}, 1, DType::f32, d), std::nullopt, 1e-5), ShapeError);
    EXPECT_THROW(ops::layer_norm(ops::full({2, 3}, 1, DType::i64, d), std::nullopt, std::nullopt, 1e-5),
                 DTypeError);
    expect_error([&] { ops::layer_norm(x, std::nullopt, ops::full({3}, 1, DType::f64, d), 1e-5); },
                 "[layer_norm]");
    auto ln = nn::LayerNormConfig{3}.init(d);
    EXPECT_THROW(ln.forward(Tensor<2>::zeros({2, 4}, d)), ShapeError);
}

// ---- cross-entropy

/// The composed loss (CrossEntropyLoss::forward_any before the fused op) for gradients.
TensorAny composed_ce(const TensorAny& x, const TensorAny& t, const std::vector<float>* weights,
                      const std::vector<int64_t>* pads, double smooth) {
    TensorAny logp = ops::log_softmax(x, 1);
    TensorAny idx = ops::unsqueeze_dim(t, 1);
    TensorAny nll = ops::neg(ops::gather(logp, 1, idx));
    if (smooth > 0)
        nll = ops::add(ops::mul_scalar(nll, 1 - smooth),
                       ops::mul_scalar(ops::neg(ops::mean_dim(logp, 1)), smooth));
    TensorAny w;
    if (weights)
        w = ops::reshape(ops::select(ops::from_data(TensorData(*weights), x.device()), 0, t), Dims{-1, 1});
    if (pads) {
        TensorAny keep = ops::full(idx.shape(), 1.0, x.dtype(), x.device());
        for (int64_t p : *pads)
            keep = ops::mul(keep, ops::cast(ops::not_equal_elem(idx, static_cast<double>(p)), x.dtype()));
        w = w.defined() ? ops::mul(w, ops::cast(keep, w.dtype())) : keep;
    }
    if (!w.defined()) return ops::mean(nll);
    w = ops::cast(w, x.dtype());
    return ops::div(ops::sum(ops::mul(nll, w)), ops::sum(w));
}

TEST(FusedCrossEntropy, LossMatchesNaiveAndGradientsMatchComposed) {
    const std::vector<float> weights{0.5f, 1.0f, 2.0f, 1.5f, 0.25f};
    const std::vector<int64_t> pads{3};
    for (const Device& dev : burn::testing::sweep_devices()) {
        const Device ad = dev.autodiff();
        for (int variant = 0; variant < 4; ++variant) {
            SCOPED_TRACE(::testing::Message() << "on " << dev << " variant " << variant);
            const bool use_w = variant == 1 || variant == 3, use_pad = variant >= 2;
            const double smooth = variant == 0 || variant == 3 ? 0.15 : 0.0;
            TensorAny x = ops::require_grad(make(Dims{6, 5}, 21 + variant, DType::f64, ad));
            const std::vector<int64_t> tv{0, 3, 4, 1, 3, 2};
            TensorAny t = ops::from_data(TensorData(tv, Dims{6}), ad);
            nn::loss::CrossEntropyLossConfig cfg;
            if (use_w) cfg.weights = weights;
            if (use_pad) cfg.pad_tokens = pads;
            if (smooth > 0) cfg.smoothing = smooth;
            TensorAny loss = cfg.init(ad).forward_any(x, t);
            // Naive float64 value.
            auto xv = values(x);
            double num = 0, den = 0;
            for (int r = 0; r < 6; ++r) {
                double m = -INFINITY, z = 0, sum = 0;
                for (int j = 0; j < 5; ++j) m = std::max(m, xv[static_cast<std::size_t>(r * 5 + j)]);
                for (int j = 0; j < 5; ++j) {
                    z += std::exp(xv[static_cast<std::size_t>(r * 5 + j)] - m);
                    sum += xv[static_cast<std::size_t>(r * 5 + j)];
                }
                const double lse = m + std::log(z);
                const int64_t tr = tv[static_cast<std::size_t>(r)];
                const double l = (1 - smooth) * (lse - xv[static_cast<std::size_t>(r * 5 + tr)]) +
                                 smooth * (lse - sum / 5);
                double w = use_w ? weights[static_cast<std::size_t>(tr)] : 1.0;
                if (use_pad && tr == 3) w = 0;
                num += w * l;
                den += w;
            }
            const double want = use_w || use_pad ? num / den : num / 6;
            EXPECT_NEAR(values(loss)[0], want, use_w ? 1e-6 : 1e-12);  // weights are f32
            Gradients gf = ops::backward(loss);
            Gradients gc = ops::backward(
                composed_ce(x, t, use_w ? &weights : nullptr, use_pad ? &pads : nullptr, smooth));
            auto a = ops::grad(x, gf), e = ops::grad(x, gc);
            ASSERT_TRUE(a.has_value() && e.has_value());
            expect_close(values(*a), values(*e), 1e-6, "dlogits");
        }
    }
}

TEST(FusedCrossEntropy, NonContiguousLogitsAndEmptyBatch) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        TensorAny xt = make(Dims{7, 4}, 31, DType::f32, dev);
        TensorAny view = ops::swap_dims(xt, 0, 1);  // [4, 7]
        TensorAny t = ops::from_data(TensorData(std::vector<int32_t>{6, 0, 2, 5}, Dims{4}), dev);
        auto a = ops::cross_entropy_rows(view, t, 0.1);
        auto b = ops::cross_entropy_rows(ops::contiguous(view), t, 0.1);
        expect_close(values(a[0]), values(b[0]), 0, "loss");
        expect_close(values(a[1]), values(b[1]), 0, "lse");
        // An empty batch: no rows, and the loss module's mean is NaN as before (0 / 0).
        auto e = ops::cross_entropy_rows(ops::full({0, 5}, 0, DType::f32, dev),
                                         ops::full({0}, 0, DType::i64, dev));
        EXPECT_EQ(e[0].shape(), (Dims{0}));
        // f16 logits: the loss in f16, lse in f32, close to the f32 result.
        auto h = ops::cross_entropy_rows(ops::cast(view, DType::f16), t);
        auto f = ops::cross_entropy_rows(ops::cast(ops::cast(view, DType::f16), DType::f32), t);
        EXPECT_EQ(h[0].dtype(), DType::f16);
        EXPECT_EQ(h[1].dtype(), DType::f32);
        expect_close(values(h[1]), values(f[1]), 1e-6, "f16 lse");
        expect_close(values(h[0]), values(f[0]), 2e-3, "f16 loss");
    }
}

TEST(FusedCrossEntropy, TargetsOutOfRangeAndBadInputs) {
    for (const Device& dev : burn::testing::sweep_devices()) {
        SCOPED_TRACE(::testing::Message() << "on " << dev);
        TensorAny x = ops::full({3, 4}, 0.5, DType::f32, dev);
        for (int64_t bad : {4, -1}) {
            TensorAny t = ops::from_data(TensorData(std::vector<int64_t>{0, bad, 1}, Dims{3}), dev);
            try {
                // (a GPU raises it at the next read)
                (void)ops::into_data(nn::loss::CrossEntropyLoss().forward_any(x, t));
                ADD_FAILURE() << "target " << bad << " accepted";
            } catch (const IndexError& e) {
                EXPECT_NE(std::string(e.what()).find("[cross_entropy]"), std::string::npos) << e.what();
                EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
            }
        }
        TensorAny ft = ops::full({3}, 0, DType::f32, dev);
        EXPECT_THROW(ops::cross_entropy_rows(x, ft), DTypeError);
        EXPECT_THROW(ops::cross_entropy_rows(x, ops::full({2}, 0, DType::i32, dev)), ShapeError);
        EXPECT_THROW(nn::loss::CrossEntropyLoss().forward_any(x, ops::full({2}, 0, DType::i32, dev)),
                     ShapeError);
        try {
            ops::cross_entropy_rows(x, ops::full({3}, 0, DType::i32, dev), -0.5);
            ADD_FAILURE() << "negative smoothing accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("[cross_entropy]"), std::string::npos) << e.what();
        }
    }
}

TEST(FusedPublicApi, TypedLayerNormAndCrossEntropy) {
    const Device d;
    auto x = Tensor<3>::from_floats({{{1, 2, 4}, {0, 0, 3}}}, d);
    auto gamma = Tensor<1>::from_floats({1, 2, 0.5}, d);
    Tensor<3> y = tensor::module::layer_norm<3>(x, gamma, std::nullopt, 0.0);
    // Row {1, 2, 4}: mean 7/3, var 14/9.
    const double rs = 1 / std::sqrt(14.0 / 9);
    auto v = y.to_vec<float>();
    EXPECT_NEAR(v[0], (1 - 7.0 / 3) * rs, 1e-6);
    EXPECT_NEAR(v[1], (2 - 7.0 / 3) * rs * 2, 1e-6);
    EXPECT_NEAR(v[2], (4 - 7.0 / 3) * rs * 0.5, 1e-6);
    auto logits = Tensor<2>::from_floats({{0, std::log(3.0f)}, {2, 2}}, d);
    auto t = Tensor<1, Int>::from_ints({1, 0}, d);
    auto l = tensor::module::cross_entropy(logits, t).to_vec<float>();
    EXPECT_NEAR(l[0], std::log(4.0 / 3), 1e-6);  // -log(3 / 4)
    EXPECT_NEAR(l[1], std::log(2.0), 1e-6);
    auto ls = tensor::module::cross_entropy(logits, t, 1.0).to_vec<float>();  // all smoothing: mean -log p
    EXPECT_NEAR(ls[0], (std::log(4.0) + std::log(4.0 / 3)) / 2, 1e-6);
}

}  // namespace
}  // namespace burn
