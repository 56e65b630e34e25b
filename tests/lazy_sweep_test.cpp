// The op database through the lazy device (docs/fusion.md): every entry's forward on lazy(cpu)
// against the eager CPU, and the gradients of every differentiable float32 entry through
// lazy(cpu).autodiff() against cpu.autodiff(); the same on CUDA (lazy(cuda), generated kernels, against
// the eager CUDA kernels; skipped without a GPU). Fused passes use the kernels' own functors, so
// values agree within the entry's tolerance (in practice bit for bit).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>

#include "burn/backend/lazy.hpp"
#include "cuda_test_util.hpp"
#include "op_db.hpp"

namespace burn::opdb::lazy_sweep {
namespace {

std::string differ(const TensorData& got, const TensorData& want, Tol tol) {
    if (got.shape() != want.shape() || got.dtype() != want.dtype()) {
        std::ostringstream os;
        os << "got " << got.dtype() << " " << got.shape() << ", expected " << want.dtype() << " "
           << want.shape();
        return os.str();
    }
    for (int64_t i = 0; i < got.numel(); ++i) {
        const double a = got.value_as_double(i), b = want.value_as_double(i);
        if ((std::isnan(a) && std::isnan(b)) || a == b) continue;
        if (!std::isnan(a) && !std::isnan(b) && std::abs(a - b) <= tol.atol + tol.rtol * std::abs(b))
            continue;
        std::ostringstream os;
        os.precision(9);
        os << "element " << i << ": got " << a << ", expected " << b;
        return os.str();
    }
    return "";
}

std::vector<TensorAny> upload(const std::vector<TensorData>& in, const Device& d) {
    std::vector<TensorAny> out;
    for (const auto& x : in) out.push_back(ops::from_data(x, d));
    return out;
}

class LazySweep : public ::testing::TestWithParam<const OpEntry*> {
  protected:
    const OpEntry& e() const { return *GetParam(); }
};

/// Every sample of e on `lazy` against `eager` (the device below it); `ran` counts those that ran.
void matches_eager(const OpEntry& e, const Device& eager, const Device& lazy, int& ran) {
    const Device& cpu = eager;
    for (DType dt : e.dtypes) {
        for (const Sample& s : e.samples(dt)) {
            SCOPED_TRACE(::testing::Message() << e.name << " " << dt << " " << describe(s));
            Args a = s.args;
            a.dtype = dt;
            a.device = cpu;
            TensorData want;
            try {
                want = ops::into_data(e.forward(upload(s.inputs, cpu), a));
            } catch (const std::exception&) {
                continue;  // OpSweep reports the device's own failures
            }
            a.device = lazy;
            auto in = upload(s.inputs, lazy);
            TensorAny out = e.forward(in, a);
            EXPECT_EQ(out.device(), lazy);
            std::string d = differ(ops::into_data(out), want, entry_tol(e, want.dtype()));
            EXPECT_TRUE(d.empty()) << "lazy differs from eager: " << d;
            for (std::size_t i = 0; i < in.size(); ++i)
                EXPECT_TRUE(ops::into_data(in[i]) == s.inputs[i]) << "input " << i << " was modified";
            ++ran;
        }
    }
}

TEST_P(LazySweep, MatchesEager) {
    if (!e().forward || !e().samples) GTEST_SKIP() << "no samples (checked by its custom check)";
    int ran = 0;
    matches_eager(e(), Device::cpu(), Device::cpu().lazy(), ran);
    if (ran == 0) GTEST_SKIP() << "no sample runs on the CPU";
}

TEST_P(LazySweep, MatchesEagerOnCuda) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    if (!e().forward || !e().samples) GTEST_SKIP() << "no samples (checked by its custom check)";
    [[maybe_unused]] cuda_test::ExactDeviceMath exact;
    int ran = 0;
    matches_eager(e(), Device::cuda(0), Device::cuda(0).lazy(), ran);
    if (ran == 0) GTEST_SKIP() << "no sample runs on CUDA";
}

/// Gradients of a weighted sum of the output, float32, through lazy(cpu).autodiff() and cpu.autodiff();
/// nullopt for an input the output does not depend on (no gradient reached it).
std::vector<std::optional<TensorData>> gradients(const OpEntry& e, const Sample& s, const Device& ad) {
    Args a = s.args;
    a.dtype = DType::f32;
    a.device = ad;
    std::vector<TensorAny> in;
    for (std::size_t i = 0; i < s.inputs.size(); ++i) {
        TensorAny t = ops::from_data(s.inputs[i], ad);
        bool wants =
            std::find(e.grad_inputs.begin(), e.grad_inputs.end(), static_cast<int>(i)) != e.grad_inputs.end();
        if (wants && is_float(t.dtype())) t = ops::require_grad(t);
        in.push_back(t);
    }
    TensorAny out = e.forward(in, a);
    std::vector<float> w;
    for (int64_t i = 0; i < out.numel(); ++i) w.push_back(i % 3 == 0 ? 1.0f : i % 3 == 1 ? -0.5f : 2.0f);
    TensorAny wt = ops::from_data(TensorData(w, out.shape()), ad);
    Gradients g = ops::backward(ops::mul(ops::cast(out, DType::f32), wt));
    std::vector<std::optional<TensorData>> grads;
    for (int gi : e.grad_inputs) {
        if (gi >= static_cast<int>(in.size()) || !is_float(in[static_cast<std::size_t>(gi)].dtype()))
            continue;
        auto grad = ops::grad(in[static_cast<std::size_t>(gi)], g);
        grads.push_back(grad ? std::optional<TensorData>(ops::into_data(*grad)) : std::nullopt);
    }
    return grads;
}

/// The gradients of e's float32 samples through `lazy` (autodiff over lazy) against `eager`; `ran`
/// counts the samples compared.
void gradients_match(const OpEntry& e, const Device& eager, const Device& lazy, int& ran) {
    for (const Sample& s : e.samples(DType::f32)) {
        if (s.tag != Tag::basic && s.tag != Tag::broadcast) continue;
        SCOPED_TRACE(::testing::Message() << e.name << " " << describe(s));
        std::vector<std::optional<TensorData>> want;
        try {
            want = gradients(e, s, eager);
        } catch (const std::exception&) {
            continue;
        }
        std::vector<std::optional<TensorData>> got = gradients(e, s, lazy);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i].has_value(), want[i].has_value())
                << "gradient " << i << " reached one device only";
            if (!got[i]) continue;
            std::string d = differ(*got[i], *want[i], Tol{1e-5, 1e-6});
            EXPECT_TRUE(d.empty()) << "gradient " << i << ": " << d;
        }
        ++ran;
    }
}

bool differentiable_f32(const OpEntry& e) {
    return e.differentiable && std::find(e.dtypes.begin(), e.dtypes.end(), DType::f32) != e.dtypes.end();
}

TEST_P(LazySweep, GradientsMatchEager) {
    if (!differentiable_f32(e())) GTEST_SKIP() << "not a differentiable float32 entry";
    int ran = 0;
    gradients_match(e(), Device::cpu().autodiff(), Device::cpu().lazy().autodiff(), ran);
    if (ran == 0) GTEST_SKIP() << "no float32 sample";
}

TEST_P(LazySweep, GradientsMatchEagerOnCuda) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    if (!differentiable_f32(e())) GTEST_SKIP() << "not a differentiable float32 entry";
    [[maybe_unused]] cuda_test::ExactDeviceMath exact;
    int ran = 0;
    gradients_match(e(), Device::cuda(0).autodiff(), Device::cuda(0).lazy().autodiff(), ran);
    if (ran == 0) GTEST_SKIP() << "no float32 sample";
}

std::vector<const OpEntry*> entries() {
    std::vector<const OpEntry*> v;
    for (const auto& e : op_db()) v.push_back(&e);
    return v;
}

INSTANTIATE_TEST_SUITE_P(OpDb, LazySweep, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<const OpEntry*>& info) {
                             return info.param->name;
                         });

}  // namespace
}  // namespace burn::opdb::lazy_sweep
