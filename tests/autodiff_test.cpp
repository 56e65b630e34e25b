// Autodiff as a device decorator: graph recording, accumulation, freeing, errors, custom ops,
// anomaly detection, and finite-difference checks of every elementwise rule in float64.
#include <gtest/gtest.h>

#include <burn/autodiff/custom_op.hpp>
#include <burn/burn.hpp>
#include <cmath>
#include <functional>

#include "backends/common/functors.hpp"
#include "backends/cpu/cpu_tensor.hpp"

using namespace burn;

namespace {
std::vector<double> values(const TensorAny& t) {
    auto d = ops::into_data(ops::cast(ops::inner_of(t), DType::f64));
    return d.to_vec<double>();
}
}  // namespace

TEST(Autodiff, SquareSeedExample) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({3.0}, device).require_grad();
    auto y = x.mul(x);
    auto gradients = y.backward();
    EXPECT_EQ(x.grad(gradients).value().into_scalar(), 6.0f);
}

TEST(Autodiff, DiamondAndReuseAccumulate) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({1.0, 2.0}, device).require_grad();
    auto a = x * 3.0;    // da/dx = 3
    auto b = x.exp();    // db/dx = e^x
    auto y = a * b + x;  // dy/dx = 3 e^x + 3x e^x + 1
    auto g = y.backward();
    auto got = x.grad(g).value().to_vec<float>();
    for (int i = 0; i < 2; ++i) {
        double v = i + 1.0;
        EXPECT_NEAR(got[i], 3 * std::exp(v) + 3 * v * std::exp(v) + 1, 1e-4);
    }
}

// Regression (issue 13): the loop that breaks the graph after backward() cleared a node's parents, which
// freed a later node of the walk that was then read (heap-use-after-free under ASan in 77 tests). The
// intermediate tensors are dropped before backward(), so the graph edges hold the only references.
TEST(Autodiff, BackwardReleasesIntermediatesHeldOnlyByTheGraph) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({0.5, -1.0, 2.0}, device).require_grad();
    auto loss = (x.exp() * 2.0).sum();
    auto g = loss.backward();
    auto got = x.grad(g).value().to_vec<float>();
    const double xs[] = {0.5, -1.0, 2.0};
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], 2 * std::exp(xs[i]), 1e-5);
    // A long chain whose nodes only the graph holds: released without recursion or stale reads.
    auto y = x;
    for (int i = 0; i < 20000; ++i) y = y * 1.0;
    auto gy = y.sum().backward();
    for (float v : x.grad(gy).value().to_vec<float>()) EXPECT_EQ(v, 1.0f);
}

TEST(Autodiff, BroadcastSumsBack) {
    auto device = Device().autodiff();
    auto x = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device).require_grad();
    auto bias = Tensor<2>::from_floats({{1.0, 1.0, 1.0}}, device).require_grad();
    auto y = x * bias;  // bias broadcast over 2 rows
    auto g = y.backward();
    EXPECT_EQ(bias.grad(g).value().to_vec<float>(), (std::vector<float>{5, 7, 9}));
    EXPECT_EQ(x.grad(g).value().to_vec<float>(), (std::vector<float>{1, 1, 1, 1, 1, 1}));
}

TEST(Autodiff, ViewsRouteGradients) {
    auto device = Device().autodiff();
    auto x = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device).require_grad();
    auto y =
        x.transpose().slice({{0, 2}}).flip({0}).reshape({4}) * Tensor<1>::from_floats({1, 2, 3, 4}, device);
    auto g = y.backward();
    // transpose -> [[1,4],[2,5],[3,6]]; rows 0..2 -> [[1,4],[2,5]]; flip -> [[2,5],[1,4]]; weights 1..4
    EXPECT_EQ(x.grad(g).value().to_vec<float>(), (std::vector<float>{3, 1, 0, 4, 2, 0}));
}

TEST(Autodiff, NoTapeWithoutAutodiffAndClearErrors) {
    Device plain;
    auto x = Tensor<1>::from_floats({1.0}, plain).require_grad();  // a no-op on a plain device
    EXPECT_FALSE(x.is_require_grad());
    try {
        (x * 2.0).backward();
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("autodiff"), std::string::npos) << e.what();
    }
    EXPECT_THROW(Device().autodiff().autodiff(), Error);
    EXPECT_EQ(Device().autodiff().inner(), Device());
}

TEST(Autodiff, NonDifferentiableOpIsNamed) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({1.0, 2.0}, device).require_grad();
    auto y = x.greater_elem(1.5).float_();  // through a comparison
    try {
        y.backward();
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("greater"), std::string::npos) << e.what();
    }
}

TEST(Autodiff, DetachNoGradAndGradMaps) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({2.0}, device).require_grad();
    auto w = Tensor<1>::from_floats({5.0}, device).require_grad();
    {
        NoGrad guard;
        auto z = x * w;
        EXPECT_FALSE(z.is_require_grad());
    }
    auto y = x.detach() * w + x;
    auto g = y.backward();
    EXPECT_EQ(x.grad(g).value().into_scalar(), 1.0f);  // only through "+ x"
    EXPECT_EQ(w.grad(g).value().into_scalar(), 2.0f);
    w.grad_replace(g, Tensor<1>::from_floats({7.0}));
    EXPECT_EQ(w.grad(g).value().into_scalar(), 7.0f);
    EXPECT_TRUE(w.grad_remove(g).has_value());
    EXPECT_FALSE(w.grad(g).has_value());
}

TEST(Autodiff, BackwardFreesTheGraph) {
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({2.0}, device).require_grad();
    auto y = x * x;
    y.backward();
    EXPECT_THROW(y.backward(), Error);
}

TEST(Autodiff, TrainingStepsDoNotGrowMemory) {
    auto device = Device().autodiff();
    auto w = Tensor<2>::random({16, 16}, Distribution::Normal(0, 0.1), device).require_grad();
    auto x = Tensor<2>::random({16, 16}, Distribution::Default, device);
    int64_t nodes_before = autodiff::live_nodes();
    int64_t nodes_mid = 0;
    cpu::AllocatorStats mem_mid{};
    for (int i = 0; i < 10000; ++i) {
        {
            auto y = (x * w).tanh() * 0.5 + w.square();
            auto g = y.backward();
            auto gw = w.grad(g).value();
            w = Tensor<2>(ops::require_grad(ops::to_device((w.inner() - gw * 0.001).handle(), device)));
        }
        if (i == 100) {
            nodes_mid = autodiff::live_nodes();
            mem_mid = cpu::allocator_stats();
        }
    }
    EXPECT_EQ(autodiff::live_nodes(), nodes_mid);
    EXPECT_LE(autodiff::live_nodes(), nodes_before + 1);  // only w's leaf
    EXPECT_EQ(cpu::allocator_stats().live_bytes, mem_mid.live_bytes);
}

TEST(Autodiff, CustomOpForwardAndBackward) {
    // f(x) = x^3 with a hand-written backward 3x^2.
    autodiff::CustomOp cube{
        "cube",
        [](const std::vector<TensorAny>& in) {
            return std::vector<TensorAny>{ops::mul(ops::square(in[0]), in[0])};
        },
        [](const std::vector<TensorAny>& in, const std::vector<TensorAny>&, const std::vector<TensorAny>& g) {
            return std::vector<TensorAny>{ops::mul(g[0], ops::mul_scalar(ops::square(in[0]), 3.0))};
        }};
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({2.0, -1.0}, device).require_grad();
    auto y = Tensor<1>(autodiff::apply(cube, {x.handle()})[0]) * 2.0;
    auto g = y.backward();
    EXPECT_EQ(y.to_vec<float>(), (std::vector<float>{16, -2}));
    EXPECT_EQ(x.grad(g).value().to_vec<float>(), (std::vector<float>{24, 6}));
    // On a plain device the same op just runs forward.
    auto p = Tensor<1>(autodiff::apply(cube, {Tensor<1>::from_floats({3.0}).handle()})[0]);
    EXPECT_EQ(p.into_scalar(), 27.0f);
}

TEST(Autodiff, AnomalyDetectionNamesTheOp) {
    set_detect_anomaly(true);
    auto device = Device().autodiff();
    auto x = Tensor<1>::from_floats({-1.0, 1.0}, device).require_grad();
    try {
        auto y = x.sqrt();  // NaN for -1
        FAIL() << "expected an anomaly";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("sqrt"), std::string::npos) << e.what();
    }
    auto z = Tensor<1>::from_floats({0.0, 1.0}, device).require_grad();
    try {
        z.sqrt().backward();  // forward is finite; backward 0.5 / sqrt(0) = inf
        FAIL() << "expected an anomaly in backward";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("backward of op 'sqrt'"), std::string::npos) << e.what();
    }
    set_detect_anomaly(false);
}

// ---------------------------------------------------------------- finite differences, float64

namespace {

double sample(const std::string& domain, int i) {
    double t = 0.37 + 0.61 * i;  // deterministic spread, away from kinks at 0
    double v = std::fmod(t * 1.7, 2.0) - 1.0;
    if (std::abs(v) < 0.15) v += 0.3;
    if (domain == "positive") return 0.3 + std::abs(v) * 2;
    if (domain == "unit") return v * 0.8;
    if (domain == "nonzero") return v < 0 ? v - 0.5 : v + 0.5;
    if (domain == "above_one") return 1.2 + std::abs(v) * 2;
    return v * 2;
}

void gradcheck(const std::string& name, const std::function<TensorAny(std::vector<TensorAny>)>& f, int arity,
               const std::string& domain) {
    auto device = Device().autodiff();
    const int n = 6;
    std::vector<std::vector<double>> xs(static_cast<std::size_t>(arity));
    for (int k = 0; k < arity; ++k)
        for (int i = 0; i < n; ++i)
            xs[static_cast<std::size_t>(k)].push_back(sample(domain, i * (k + 2) + k));
    auto make = [&](const std::vector<double>& v, const Device& d) {
        return ops::from_data(TensorData(v, Dims{n}), d);
    };
    std::vector<TensorAny> leaves;
    for (int k = 0; k < arity; ++k)
        leaves.push_back(ops::require_grad(make(xs[static_cast<std::size_t>(k)], device)));
    auto out = f(leaves);
    auto g = ops::backward(out);
    const double h = 1e-6;
    for (int k = 0; k < arity; ++k) {
        auto analytic = values(ops::grad(leaves[static_cast<std::size_t>(k)], g).value());
        for (int i = 0; i < n; ++i) {
            auto plus = xs, minus = xs;
            plus[static_cast<std::size_t>(k)][static_cast<std::size_t>(i)] += h;
            minus[static_cast<std::size_t>(k)][static_cast<std::size_t>(i)] -= h;
            auto eval = [&](const std::vector<std::vector<double>>& in) {
                std::vector<TensorAny> t;
                for (const auto& v : in) t.push_back(make(v, Device()));
                double s = 0;
                for (double v : values(f(t))) s += v;
                return s;
            };
            double numeric = (eval(plus) - eval(minus)) / (2 * h);
            EXPECT_NEAR(analytic[static_cast<std::size_t>(i)], numeric, 1e-5 * (1 + std::abs(numeric)))
                << name << " input " << k << " element " << i;
        }
    }
}

}  // namespace

TEST(Autodiff, GradcheckEveryElementwiseRule) {
    int checked = 0;
#define BURN_UNARY(name, kinds, body, vjp, domain)                                                        \
    if (std::string(#name) != "floor" && std::string(#name) != "ceil" && std::string(#name) != "round" && \
        std::string(#name) != "trunc" && std::string(#name) != "sign" && #kinds[0] != 'I') {              \
        double p0 = std::string(#name) == "leaky_relu"    ? 0.1                                           \
                    : std::string(#name) == "softplus"    ? 1.5                                           \
                    : std::string(#name) == "clamp"       ? -0.5                                          \
                    : std::string(#name) == "powi_scalar" ? 3                                             \
                                                          : 0;                                            \
        double p1 = std::string(#name) == "softplus" ? 20 : std::string(#name) == "clamp" ? 0.5 : 0;      \
        gradcheck(                                                                                        \
            #name, [&](std::vector<TensorAny> in) { return ops::name(in[0], p0, p1); }, 1, #domain);      \
        ++checked;                                                                                        \
    }
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain)                                       \
    if (#kinds[0] != 'B' && #kinds[0] != 'I') { /* bool and int rows have no gradient */           \
        gradcheck(                                                                                 \
            #name, [](std::vector<TensorAny> in) { return ops::name(in[0], in[1]); }, 2, #domain); \
        ++checked;                                                                                 \
    }
#include "burn/backend/elementwise.def"
    EXPECT_GE(checked, 35);
}
