// Gradcheck: for every differentiable op-database entry, the autodiff gradient of a weighted sum of
// the output equals central finite differences in float64 (check 7 of the sweep).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <set>

#include "autodiff/rules.hpp"
#include "forwarding_backend.hpp"
#include "op_db.hpp"
#include "ops/decompose.hpp"

namespace burn::opdb {
namespace {

/// Entries whose samples sit on purpose at points where the op is not differentiable (ties).
/// max_dim/min_dim/sort/topk samples hold ties (Domain::ties) to test first-index selection and
/// stability; at a tie the one-sided derivatives differ, so central differences give the average.
const std::set<std::string> kNonSmoothSamples = {"max_dim", "min_dim", "sort", "topk"};

std::vector<double> as_f64(const TensorAny& t) {
    return ops::into_data(ops::cast(ops::inner_of(t), DType::f64)).to_vec<double>();
}

double weighted_sum(const TensorAny& out, const std::vector<double>& w) {
    auto v = as_f64(out);
    double s = 0;
    for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * w[i % w.size()];
    return s;
}

class Gradcheck : public ::testing::TestWithParam<const OpEntry*> {};

/// Runs f. When counting (a device other than the CPU), an error saying its backend does not support
/// an op counts in *unsupported and returns false; any other error propagates.
template <class F>
bool runs_on(bool counting, int* unsupported, F&& f) {
    try {
        f();
        return true;
    } catch (const burn::Error& err) {
        if (counting && unsupported &&
            std::string(err.what()).find("not supported by the") != std::string::npos) {
            ++*unsupported;
            return false;
        }
        throw;
    }
}

/// Checks the autodiff gradients on `device` (finite differences always on the CPU); returns how many
/// elements were checked. Samples whose ops the device's backend does not run count in *unsupported.
int check_gradients(const OpEntry& e, const Device& device, int* unsupported = nullptr) {
    const Device ad = device.autodiff();
    const Device cpu = Device::cpu();
    int checked = 0;
    for (const Sample& s : e.samples(DType::f64)) {
        if (s.tag != Tag::basic && s.tag != Tag::broadcast) continue;
        SCOPED_TRACE(::testing::Message() << e.name << " " << describe(s));
        Args a = s.args;
        a.dtype = DType::f64;
        a.device = ad;
        std::vector<TensorAny> in;
        for (std::size_t i = 0; i < s.inputs.size(); ++i) {
            TensorAny t = ops::from_data(s.inputs[i], ad);
            bool wants = std::find(e.grad_inputs.begin(), e.grad_inputs.end(), static_cast<int>(i)) !=
                         e.grad_inputs.end();
            if (wants && is_float(t.dtype())) t = ops::require_grad(t);
            in.push_back(t);
        }
        TensorAny out;
        if (!runs_on(device != cpu, unsupported, [&] { out = e.forward(in, a); })) continue;
        if (out.numel() == 0) continue;
        // Non-uniform cotangent: weights 1, -0.5, 2, 0.25, ... so rules cannot pass by symmetry.
        std::vector<double> w;
        for (int64_t i = 0; i < out.numel(); ++i)
            w.push_back(i % 4 == 0 ? 1.0 : i % 4 == 1 ? -0.5 : i % 4 == 2 ? 2.0 : 0.25);
        TensorAny wt = ops::from_data(TensorData(w, out.shape()), ad);
        Gradients g;
        // The gradient may need a primitive the backend lacks (matmul_widen's rule runs matmul).
        if (!runs_on(device != cpu, unsupported,
                     [&] { g = ops::backward(ops::mul(ops::cast(out, DType::f64), wt)); }))
            continue;
        for (int gi : e.grad_inputs) {
            if (gi >= static_cast<int>(in.size()) ||
                !is_float(s.inputs[static_cast<std::size_t>(gi)].dtype()))
                continue;
            auto grad = ops::grad(in[static_cast<std::size_t>(gi)], g);
            EXPECT_TRUE(grad.has_value()) << "no gradient for input " << gi;
            if (!grad.has_value()) return checked;
            auto analytic = as_f64(*grad);
            const TensorData& x = s.inputs[static_cast<std::size_t>(gi)];
            auto base = x.to_vec<double>();
            const std::size_t n = std::min<std::size_t>(base.size(), 24);
            for (std::size_t k = 0; k < n; ++k) {
                const double h = 1e-6 * std::max(1.0, std::abs(base[k]));
                auto eval = [&](double delta) {
                    std::vector<TensorAny> plain;
                    for (std::size_t i = 0; i < s.inputs.size(); ++i) {
                        if (static_cast<int>(i) == gi) {
                            auto v = base;
                            v[k] += delta;
                            plain.push_back(ops::from_data(TensorData(v, x.shape()), cpu));
                        } else {
                            plain.push_back(ops::from_data(s.inputs[i], cpu));
                        }
                    }
                    Args pa = a;
                    pa.device = cpu;
                    return weighted_sum(e.forward(plain, pa), w);
                };
                double numeric = (eval(h) - eval(-h)) / (2 * h);
                EXPECT_NEAR(analytic[k], numeric, 1e-5 * (1 + std::abs(numeric)))
                    << "input " << gi << " element " << k;
                ++checked;
            }
        }
    }
    return checked;
}

TEST_P(Gradcheck, MatchesFiniteDifferences) {
    if (check_gradients(*GetParam(), Device::cpu()) == 0) GTEST_SKIP() << "no float sample to check";
}

/// The same check with the autodiff gradients computed on every accelerator device (CUDA).
TEST_P(Gradcheck, OnDevices) {
    int devices = 0;
    for (const Device& d : burn::testing::sweep_devices()) {
        if (d == Device::cpu()) continue;
        ++devices;
        SCOPED_TRACE(::testing::Message() << "on " << d);
        int unsupported = 0;
        check_gradients(*GetParam(), d, &unsupported);
        if (unsupported)
            std::cout << "[  NOTE    ] " << GetParam()->name << ": " << unsupported
                      << " sample(s) not supported on " << d << "\n";
    }
    if (devices == 0) GTEST_SKIP() << "no accelerator device (testing::sweep_devices() lists only the CPU)";
}

/// The same check through the lazy decorator: Device::cpu().lazy().autodiff() (docs/fusion.md).
TEST_P(Gradcheck, OnLazyDevice) {
    if (check_gradients(*GetParam(), Device::cpu().lazy()) == 0) GTEST_SKIP() << "no float sample to check";
}

std::vector<const OpEntry*> differentiable_entries() {
    std::vector<const OpEntry*> v;
    for (const auto& e : op_db())
        if (e.differentiable && std::find(e.dtypes.begin(), e.dtypes.end(), DType::f64) != e.dtypes.end() &&
            !kNonSmoothSamples.count(e.name))
            v.push_back(&e);
    return v;
}

INSTANTIATE_TEST_SUITE_P(OpDb, Gradcheck, ::testing::ValuesIn(differentiable_entries()),
                         [](const ::testing::TestParamInfo<const OpEntry*>& info) {
                             return info.param->name;
                         });

TEST(GradcheckCoverage, EveryOpHasARuleOrIsFlagged) {
    // Each op has a gradient rule, is flagged non-differentiable, or is a derived row without a rule,
    // which differentiates through its decomposition (the autodiff decorator decomposes it).
    std::string missing;
    for (int i = 0; i < kNumOps; ++i) {
        auto op = static_cast<OpId>(i);
        if (autodiff::vjp_rule(op) == nullptr && !autodiff::is_non_differentiable(op) &&
            ops::decomposition(op) == nullptr)
            missing.append(" ").append(op_name(op));
    }
    EXPECT_EQ(missing, "") << "ops with neither a gradient rule nor a non-differentiable flag:" << missing;
}

}  // namespace
}  // namespace burn::opdb
