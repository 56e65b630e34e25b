// Composite fallbacks (src/ops/decompose.hpp): every derived row against its kernel, and a backend that
// implements only the primitive set.
//   Coverage.EveryRowIsPrimitiveOrDecomposed   each row is exactly one of the two; the primitive set
//                                              stays small
//   DecomposeOpDb.KernelMatchesDecomposition   for every derived row and every op-db sample that reaches
//                                              it: the CPU kernel's output vs the decomposition's, on
//                                              the CPU, with only that row decomposed
//   DecomposePrimitives.OpDbSamples            every op-db sample on the primitives-only backend "prim"
//                                              equals the CPU's, and reaches no derived row beyond
//                                              those its frontend calls itself
//   DecomposePrimitives.Gradients              autodiff through the decompositions (the primitives'
//                                              rules) equals the CPU's fused rules, in f64
//   DecomposePrimitives.ModelStep              an MLP with LayerNorm, GELU, cross-entropy and an Adam
//                                              step on prim.autodiff() matches the CPU
//   DecomposeDispatch.*                        a primitive the backend lacks still names itself
#include "ops/decompose.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <cmath>
#include <iostream>
#include <set>
#include <sstream>

#include "decompose_devices.hpp"
#include "op_db.hpp"
#include "reference.hpp"

namespace burn::decompose_test {
namespace {

using opdb::Args;
using opdb::OpEntry;
using opdb::Sample;
using opdb::Tol;

/// Kernel and decomposition each approximate the float64 reference within the entry's tolerance, so
/// they agree within twice it; ints and bools exactly.
Tol doubled(Tol t) {
    return {2 * t.rtol, 2 * t.atol};
}

/// "" when a matches b within tol (NaN matches NaN), else the first mismatches.
std::string compare(const TensorData& a, const TensorData& b, Tol tol) {
    std::ostringstream os;
    os.precision(9);
    if (a.dtype() != b.dtype()) os << "dtype " << a.dtype() << " vs " << b.dtype() << "; ";
    if (a.shape() != b.shape()) {
        os << "shape " << a.shape() << " vs " << b.shape();
        return os.str();
    }
    int bad = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.value_as_double(i), y = b.value_as_double(i);
        if ((std::isnan(x) && std::isnan(y)) || x == y) continue;
        if (!std::isnan(x) && !std::isnan(y) && std::abs(x - y) <= tol.atol + tol.rtol * std::abs(y))
            continue;
        if (bad++ < 5) os << "\n  at flat " << i << ": decomposition " << x << ", kernel " << y;
    }
    if (bad) os << "\n  " << bad << " of " << a.numel() << " values differ";
    return os.str();
}

struct Outcome {
    TensorData out;
    std::string error;
};

Outcome run_on(const OpEntry& e, const Sample& s, DType dt, const Device& d) {
    Outcome r;
    try {
        Args a = s.args;
        a.dtype = dt;
        a.device = d;
        std::vector<TensorAny> in;
        for (const auto& x : s.inputs) in.push_back(ops::from_data(x, d));
        r.out = ops::into_data(e.forward(in, a));
    } catch (const std::exception& err) {
        r.error = err.what();
    }
    return r;
}

bool reaches(const OpEntry& e, OpId op) {
    for (OpId o : e.ops)
        if (o == op) return true;
    return false;
}

TEST(Coverage, EveryRowIsPrimitiveOrDecomposed) {
    std::ostringstream bad, prims, derived;
    int n_prim = 0, n_derived = 0;
    for (int i = 0; i < kNumOps; ++i) {
        const auto op = static_cast<OpId>(i);
        const bool prim = ops::is_primitive(op), dec = ops::decomposition(op) != nullptr;
        if (prim == dec)
            bad << "\n  " << op << (prim ? " is primitive and has a decomposition" : " has neither");
        (prim ? prims : derived) << ' ' << op;
        ++(prim ? n_prim : n_derived);
    }
    EXPECT_TRUE(bad.str().empty()) << "every row is either a primitive or has a decomposition:" << bad.str();
    EXPECT_EQ(static_cast<int>(ops::primitive_ops().size()), n_prim);
    EXPECT_LE(n_prim, 50) << "the primitive set a new backend implements should stay near 45 rows";
    std::cout << "[  NOTE    ] " << n_prim << " primitive rows:" << prims.str() << "\n[  NOTE    ] "
              << n_derived << " derived rows:" << derived.str() << "\n";
}

TEST(DecomposeOpDb, KernelMatchesDecomposition) {
    const testing::DecomposeDevices devices;
    int rows = 0, compared = 0;
    std::ostringstream unreached;
    for (int i = 0; i < kNumOps; ++i) {
        const auto op = static_cast<OpId>(i);
        if (ops::is_primitive(op)) continue;
        ++rows;
        int hits = 0;
        for (const OpEntry& e : opdb::op_db()) {
            if (!reaches(e, op) || !e.reference) continue;
            for (DType dt : e.dtypes)
                for (const Sample& s : e.samples(dt)) {
                    SCOPED_TRACE(::testing::Message()
                                 << op << " via " << e.name << " " << dt << " " << opdb::describe(s));
                    Outcome want = run_on(e, s, dt, Device::cpu());
                    if (!want.error.empty()) continue;  // the op sweep reports it
                    const int before = devices.target_hits();
                    Outcome got =
                        devices.decomposing(op, [&](const Device& d) { return run_on(e, s, dt, d); });
                    hits += devices.target_hits() - before;
                    ++compared;
                    ASSERT_TRUE(got.error.empty()) << "the decomposition threw: " << got.error;
                    std::string diff =
                        compare(got.out, want.out, doubled(opdb::entry_tol(e, want.out.dtype())));
                    EXPECT_TRUE(diff.empty()) << diff;
                }
        }
        if (hits == 0) unreached << ' ' << op;
    }
    EXPECT_TRUE(unreached.str().empty()) << "derived rows no op-db sample decomposed:" << unreached.str();
    std::cout << "[  NOTE    ] " << rows << " derived rows, " << compared << " samples compared\n";
}

TEST(DecomposePrimitives, OpDbSamples) {
    const testing::DecomposeDevices devices;
    int compared = 0;
    for (const OpEntry& e : opdb::op_db()) {
        if (!e.reference) continue;
        for (DType dt : e.dtypes)
            for (const Sample& s : e.samples(dt)) {
                SCOPED_TRACE(::testing::Message() << e.name << " " << dt << " " << opdb::describe(s));
                Outcome want = run_on(e, s, dt, Device::cpu());
                if (!want.error.empty()) continue;
                std::set<OpId> direct, reached;
                devices.full([&](const Device& d) { run_on(e, s, dt, d); }, direct);
                Outcome got =
                    devices.primitives([&](const Device& d) { return run_on(e, s, dt, d); }, reached);
                ++compared;
                ASSERT_TRUE(got.error.empty()) << "threw on the primitives-only backend: " << got.error;
                std::string diff = compare(got.out, want.out, doubled(opdb::entry_tol(e, want.out.dtype())));
                EXPECT_TRUE(diff.empty()) << diff;
                for (OpId op : reached)
                    EXPECT_TRUE(direct.count(op)) << "a decomposition reached the derived row " << op;
            }
    }
    std::cout << "[  NOTE    ] " << compared << " op-db samples on the primitives-only backend\n";
}

/// The gradients of a weighted sum of e's output with respect to its grad_inputs, on `device` (an
/// autodiff device); zeros for an input the output does not depend on (relu_backward's x through its
/// decomposition reaches the output only through where's mask), [0] for the others.
std::vector<TensorData> gradients_of(const OpEntry& e, const Sample& s, const Device& device) {
    Args a = s.args;
    a.dtype = DType::f64;
    a.device = device;
    std::vector<TensorAny> in;
    for (std::size_t i = 0; i < s.inputs.size(); ++i) {
        TensorAny t = ops::from_data(s.inputs[i], device);
        const bool wants =
            std::find(e.grad_inputs.begin(), e.grad_inputs.end(), static_cast<int>(i)) != e.grad_inputs.end();
        in.push_back(wants && is_float(t.dtype()) ? ops::require_grad(t) : t);
    }
    TensorAny out = ops::cast(e.forward(in, a), DType::f64);
    std::vector<double> w;
    for (int64_t i = 0; i < out.numel(); ++i) w.push_back(i % 3 == 0 ? 1.0 : i % 3 == 1 ? -0.5 : 2.0);
    Gradients g;
    try {
        g = ops::backward(ops::mul(out, ops::from_data(TensorData(w, out.shape()), device)));
    } catch (const burn::Error& err) {
        // relu_backward_scalar: its decomposition reaches x only through where's mask, which carries
        // no gradient; the fused rule gives zeros. Both mean "zero" (compared as such by the caller).
        if (std::string(err.what()).find("does not depend on any tensor that requires grad") ==
            std::string::npos)
            throw;
        return {};
    }
    std::vector<TensorData> r;
    for (const TensorAny& t : in) {
        if (!ops::is_require_grad(t)) {
            r.emplace_back(std::vector<double>{}, Dims{0});
            continue;
        }
        auto gi = ops::grad(t, g);
        r.push_back(ops::into_data(gi ? *gi : ops::full(t.shape(), 0, t.dtype(), device)));
    }
    return r;
}

TEST(DecomposePrimitives, Gradients) {
    // Autodiff over the decompositions (the primitives' rules) against the CPU's fused rules and
    // kernels, in f64 on the basic samples (the tie samples of max/min/sort sit on kinks on purpose).
    const std::set<std::string> kinks = {"max_dim", "min_dim", "sort", "topk"};
    const testing::DecomposeDevices devices;
    int compared = 0;
    for (const OpEntry& e : opdb::op_db()) {
        if (!e.differentiable || kinks.count(e.name)) continue;
        if (std::find(e.dtypes.begin(), e.dtypes.end(), DType::f64) == e.dtypes.end()) continue;
        for (const Sample& s : e.samples(DType::f64)) {
            if (s.tag != opdb::Tag::basic) continue;
            SCOPED_TRACE(::testing::Message() << e.name << " " << opdb::describe(s));
            std::vector<TensorData> want = gradients_of(e, s, Device::cpu().autodiff());
            std::set<OpId> reached;
            std::vector<TensorData> got = devices.primitives(
                [&](const Device& d) { return gradients_of(e, s, d.autodiff()); }, reached);
            if (got.empty()) {  // nothing reached the inputs: the CPU's gradients must be zeros
                for (const TensorData& t : want)
                    for (int64_t i = 0; i < t.numel(); ++i) EXPECT_EQ(t.value_as_double(i), 0.0);
                continue;
            }
            ASSERT_EQ(got.size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                ++compared;
                std::string diff = compare(got[i], want[i], Tol{1e-8, 1e-10});
                EXPECT_TRUE(diff.empty()) << "gradient of input " << i << ": " << diff;
            }
        }
    }
    std::cout << "[  NOTE    ] " << compared << " gradients compared\n";
}

struct Net {
    nn::Linear l1;
    nn::LayerNorm ln;
    nn::Gelu act;
    nn::Linear l2;

    Tensor<2> forward(const Tensor<2>& x) const { return l2.forward(act.forward(ln.forward(l1.forward(x)))); }

    BURN_MODULE(Net, l1, ln, act, l2)
};

struct Trained {
    std::vector<float> losses;
    std::vector<TensorData> params;
};

/// Three steps of Adam on a label-smoothed cross-entropy, starting from `model`'s weights.
Trained train(const Net& start, const Device& device) {
    Net model = start.to_device(device);
    auto x = Tensor<2>::from_data(opdb::make_input({6, 5}, DType::f32, opdb::Domain::real, 11), device);
    auto targets = Tensor<1, Int>::from_ints({0, 2, 1, 3, 2, 0}, device);
    nn::loss::CrossEntropyLossConfig loss_config;
    loss_config.smoothing = 0.1;
    auto loss_fn = loss_config.init(device);
    auto optimizer = optim::AdamConfig{}.init();
    Trained r;
    for (int step = 0; step < 3; ++step) {
        auto loss = loss_fn.forward(model.forward(x), targets);
        r.losses.push_back(loss.into_scalar());
        auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
        model = optimizer.step(0.05, std::move(model), grads);
    }
    model.visit_params([&](const std::string&, const auto& p) { r.params.push_back(p.val().into_data()); });
    return r;
}

TEST(DecomposePrimitives, ModelStep) {
    const testing::DecomposeDevices devices;
    Device::cpu().seed(5);
    const Net start{nn::LinearConfig{5, 8}.init(Device::cpu()), nn::LayerNormConfig{8}.init(Device::cpu()),
                    nn::Gelu{}, nn::LinearConfig{8, 4}.init(Device::cpu())};
    Trained want = train(start, Device::cpu().autodiff());
    std::set<OpId> reached;
    Trained got = devices.primitives([&](const Device& d) { return train(start, d.autodiff()); }, reached);
    // The fused forward rows run as primitives, so autodiff records primitives and the backward needs
    // no fused gradient row (those are checked against their kernels by DecomposeOpDb).
    for (OpId op : {OpId::layer_norm, OpId::gelu, OpId::cross_entropy, OpId::adam_step})
        EXPECT_TRUE(reached.count(op)) << op << " was not decomposed";
    ASSERT_EQ(got.losses.size(), want.losses.size());
    for (std::size_t i = 0; i < want.losses.size(); ++i)
        EXPECT_NEAR(got.losses[i], want.losses[i], 1e-5 * (1 + std::abs(want.losses[i]))) << "step " << i;
    EXPECT_LT(want.losses.back(), want.losses.front()) << "the loss should go down";
    ASSERT_EQ(got.params.size(), want.params.size());
    for (std::size_t i = 0; i < want.params.size(); ++i) {
        std::string diff = compare(got.params[i], want.params[i], Tol{1e-4, 1e-5});
        EXPECT_TRUE(diff.empty()) << "parameter " << i << ": " << diff;
    }
}

TEST(DecomposeDispatch, MissingPrimitiveNamesItself) {
    // A primitive has no decomposition: a backend without it still gets the old error.
    const testing::DecomposeDevices devices;
    Outcome r = devices.decomposing(OpId::exp, [](const Device& d) {
        Outcome o;
        try {
            ops::exp(ops::full({2}, 1.0, DType::f32, d));
        } catch (const DeviceError& e) {
            o.error = e.what();
        }
        return o;
    });
    EXPECT_NE(r.error.find("[exp] not supported by the"), std::string::npos) << r.error;
}

TEST(DecomposeDispatch, DerivedRowRunsItsDecomposition) {
    const testing::DecomposeDevices devices;
    const int before = devices.target_hits();
    TensorData y = devices.decomposing(OpId::softmax, [](const Device& d) {
        return ops::into_data(
            ops::softmax(ops::from_data(TensorData(std::vector<float>{1, 2, 3}, Dims{3}), d), 0));
    });
    EXPECT_EQ(devices.target_hits() - before, 1);
    const std::vector<float> v = y.to_vec<float>();
    const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(v[static_cast<std::size_t>(i)], std::exp(i + 1.0) / s, 1e-6);
}

}  // namespace
}  // namespace burn::decompose_test
