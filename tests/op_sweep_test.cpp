// The op-database sweep: generic checks over every entry x dtype x sample of op_db().
//   Forward        forward equals the float64 reference (basic and special samples), inputs untouched
//   NonContiguous  inputs presented as transposed / flipped / stepped views give the contiguous result
//   Broadcast      broadcast samples equal the reference (entries that have them)
//   EmptyAndScalar empty ([0, 3]) and scalar-like ([1]) samples equal the reference
//   BadInputs      every bad-input case throws burn::Error naming the op
//   Devices        every device of testing::sweep_devices() matches the CPU (on the CPU: repeatable)
// A frontend that still throws "not implemented yet" (or an op without a CPU kernel) fails with a
// message starting "[STUB]". docs/testing.md describes the database and how to add an entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <sstream>

#include "cuda_test_util.hpp"
#include "forwarding_backend.hpp"
#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

/// A frontend stub ("not implemented yet") or a table row without a CPU kernel ("not supported by
/// the cpu backend"): work pending on another branch rather than a wrong result.
bool is_stub(const std::string& what) {
    return what.find("not implemented yet") != std::string::npos ||
           what.find("not supported by the cpu backend") != std::string::npos;
}

std::vector<TensorAny> upload(const std::vector<TensorData>& in, const Device& d) {
    std::vector<TensorAny> out;
    for (const auto& x : in) out.push_back(ops::from_data(x, d));
    return out;
}

/// "" when actual matches expected within tol, else a description of the first mismatches.
std::string compare(const TensorData& actual, const TensorData& expected, Tol tol) {
    std::ostringstream os;
    os.precision(9);
    if (actual.shape() != expected.shape()) {
        os << "shape " << actual.shape() << ", expected " << expected.shape();
        return os.str();
    }
    int shown = 0, bad = 0;
    for (int64_t i = 0; i < actual.numel(); ++i) {
        double a = actual.value_as_double(i), b = expected.value_as_double(i);
        if ((std::isnan(a) && std::isnan(b)) || a == b) continue;
        if (!std::isnan(a) && !std::isnan(b) && std::abs(a - b) <= tol.atol + tol.rtol * std::abs(b))
            continue;
        ++bad;
        if (shown++ < 5) {
            os << "\n  at " << Dims::from(ref::unravel(i, actual.shape()).data(), actual.shape().rank())
               << ": got " << a << ", expected " << b;
        }
    }
    if (!bad) return "";
    std::ostringstream head;
    head << bad << " of " << actual.numel() << " values differ (rtol " << tol.rtol << ", atol " << tol.atol
         << ")" << os.str();
    return head.str();
}

/// Runs the entry's forward; on a throw records why. A stub ends the calling test with [STUB].
struct Outcome {
    TensorData out;
    std::string error;  // non-empty when forward threw
    bool stub = false;
};

Outcome run(const OpEntry& e, const std::vector<TensorAny>& in, const Args& a) {
    Outcome r;
    try {
        r.out = ops::into_data(e.forward(in, a));
    } catch (const std::exception& err) {
        r.error = err.what();
        r.stub = is_stub(r.error);
    }
    return r;
}

Args args_for(const Sample& s, DType dt, const Device& d) {
    Args a = s.args;
    a.dtype = dt;
    a.device = d;
    return a;
}

/// Fails with the standard stub message; returns true so callers can stop.
bool report_stub(const OpEntry& e, const std::string& what) {
    ADD_FAILURE() << "[STUB] op-db entry '" << e.name << "' reaches an op that is not implemented here yet ('"
                  << what << "'); it is implemented on another branch";
    return true;
}

class OpSweep : public ::testing::TestWithParam<const OpEntry*> {
  protected:
    const OpEntry& e() const { return *GetParam(); }

    /// Checks every sample of the given tags against the reference; returns how many ran.
    int check_reference(std::initializer_list<Tag> tags) {
        int ran = 0;
        const Device cpu = Device::cpu();
        for (DType dt : e().dtypes) {
            if (!e().reference) continue;
            for (const Sample& s : e().samples(dt)) {
                if (std::find(tags.begin(), tags.end(), s.tag) == tags.end()) continue;
                SCOPED_TRACE(::testing::Message() << e().name << " " << dt << " " << describe(s));
                ++ran;
                Args a = args_for(s, dt, cpu);
                auto in = upload(s.inputs, cpu);
                Outcome r = run(e(), in, a);
                if (r.stub && report_stub(e(), r.error)) return ran;
                if (!r.error.empty()) {
                    ADD_FAILURE() << "forward threw: " << r.error;
                    continue;
                }
                EXPECT_EQ(r.out.dtype(), entry_out_dtype(e(), a)) << "output dtype";
                TensorData want = e().reference(s.inputs, a);
                std::string diff = compare(r.out, want, entry_tol(e(), r.out.dtype()));
                EXPECT_TRUE(diff.empty()) << diff << "\n  got      " << r.out << "\n  expected " << want;
                for (std::size_t i = 0; i < in.size(); ++i)
                    EXPECT_TRUE(ops::into_data(in[i]) == s.inputs[i]) << "input " << i << " was modified";
            }
        }
        return ran;
    }
};

TEST_P(OpSweep, Forward) {
    if (e().custom) {
        for (DType dt : e().dtypes) {
            SCOPED_TRACE(::testing::Message() << e().name << " " << dt << " (custom check)");
            try {
                e().custom(dt, Device::cpu());
            } catch (const std::exception& err) {
                if (is_stub(err.what()) && report_stub(e(), err.what())) return;
                ADD_FAILURE() << "custom check threw: " << err.what();
            }
        }
    }
    int ran = check_reference({Tag::basic, Tag::special});
    if (!e().custom) {
        EXPECT_GT(ran, 0) << "entry '" << e().name << "' has no basic samples";
    }
}

// Instantiated only for entries with broadcast samples (see OpSweepBroadcast below).
class OpSweepBroadcast : public OpSweep {};
TEST_P(OpSweepBroadcast, Broadcast) {
    EXPECT_GT(check_reference({Tag::broadcast}), 0);
}

TEST_P(OpSweep, EmptyAndScalar) {
    if (check_reference({Tag::empty, Tag::scalar}) == 0) {
        GTEST_SKIP() << "no empty or scalar-like samples";
    }
}

// ---- non-contiguous inputs: the same values through a view of a larger or reordered tensor

enum class Layout { transposed, flipped, stepped };
const char* layout_name(Layout l) {
    return l == Layout::transposed ? "transposed" : l == Layout::flipped ? "flipped" : "stepped";
}

/// A strided view on d whose values equal x's, or an undefined tensor when layout does not apply.
TensorAny view_of(const TensorData& x, Layout layout, const Device& d) {
    ref::Host h = ref::host(x);
    const int r = h.rank();
    if (r == 0) return TensorAny();
    if (layout == Layout::flipped) {
        // Reversing every dim of a row-major array reverses its flat order.
        std::reverse(h.v.begin(), h.v.end());
        Dims axes;
        for (int i = 0; i < r; ++i) axes.push_back(i);
        return ops::flip(ops::from_data(ref::to_data(h, x.dtype()), d), axes);
    }
    if (layout == Layout::transposed) {
        if (r < 2) return TensorAny();
        Dims ts = h.shape;
        std::swap(ts[r - 2], ts[r - 1]);
        ref::Host t = ref::filled(ts, 0.0);
        for (int64_t i = 0; i < h.numel(); ++i) {
            auto idx = ref::unravel(i, h.shape);
            std::swap(idx[r - 2], idx[r - 1]);
            t.v[static_cast<std::size_t>(ref::ravel(idx, ts))] = h.v[static_cast<std::size_t>(i)];
        }
        return ops::swap_dims(ops::from_data(ref::to_data(t, x.dtype()), d), -2, -1);
    }
    // stepped: the last dim n becomes 2n + 1 with the values at odd positions and 99 elsewhere.
    const int64_t n = h.shape[r - 1];
    Dims bs = h.shape;
    bs[r - 1] = 2 * n + 1;
    ref::Host big = ref::filled(bs, 99.0);
    for (int64_t i = 0; i < h.numel(); ++i) {
        auto idx = ref::unravel(i, h.shape);
        idx[r - 1] = 2 * idx[r - 1] + 1;
        big.v[static_cast<std::size_t>(ref::ravel(idx, bs))] = h.v[static_cast<std::size_t>(i)];
    }
    std::vector<SliceArg> ranges(static_cast<std::size_t>(r), SliceArg(burn::all));
    ranges.back() = SliceArg(1, 2 * n + 1, 2);
    return ops::slice(ops::from_data(ref::to_data(big, x.dtype()), d), ranges);
}

TEST_P(OpSweep, NonContiguous) {
    if (!e().noncontiguous) GTEST_SKIP() << "entry takes no tensor inputs";
    const Device cpu = Device::cpu();
    int ran = 0;
    for (DType dt : e().dtypes) {
        for (const Sample& s : e().samples(dt)) {
            if (s.inputs.empty()) continue;
            SCOPED_TRACE(::testing::Message() << e().name << " " << dt << " " << describe(s));
            Args a = args_for(s, dt, cpu);
            Outcome base = run(e(), upload(s.inputs, cpu), a);
            if (base.stub && report_stub(e(), base.error)) return;
            if (!base.error.empty()) {
                ADD_FAILURE() << "forward threw on contiguous inputs: " << base.error;
                continue;
            }
            for (Layout l : {Layout::transposed, Layout::flipped, Layout::stepped}) {
                std::vector<TensorAny> in = upload(s.inputs, cpu);
                bool any = false;
                for (std::size_t i = 0; i < in.size(); ++i) {
                    TensorAny v = view_of(s.inputs[i], l, cpu);
                    if (!v.defined()) continue;
                    ASSERT_TRUE(ops::into_data(v) == s.inputs[i])
                        << layout_name(l) << " view of input " << i << " does not hold the input's values";
                    in[i] = v;
                    any = true;
                }
                if (!any) continue;
                ++ran;
                Outcome r = run(e(), in, a);
                if (!r.error.empty()) {
                    ADD_FAILURE() << layout_name(l) << " inputs: forward threw: " << r.error;
                    continue;
                }
                EXPECT_EQ(r.out.dtype(), base.out.dtype()) << layout_name(l) << " inputs: output dtype";
                std::string diff = compare(r.out, base.out, entry_tol(e(), base.out.dtype()));
                EXPECT_TRUE(diff.empty())
                    << layout_name(l) << " inputs differ from contiguous ones: " << diff;
            }
        }
    }
    EXPECT_GT(ran, 0) << "no sample could be presented non-contiguously";
}

TEST_P(OpSweep, BadInputs) {
    ASSERT_FALSE(e().bad.empty()) << "entry '" << e().name << "' lists no bad-input cases";
    for (const Device& d : burn::testing::sweep_devices()) {
        for (const BadCase& b : e().bad) {
            SCOPED_TRACE(::testing::Message() << e().name << " on " << d << ": bad input '" << b.desc << "'");
            try {
                b.run(d);
                d.sync();  // a GPU raises errors its kernels found at the next synchronisation
                ADD_FAILURE() << "did not throw; expected burn::Error containing " << b.expect;
            } catch (const burn::Error& err) {
                if (is_stub(err.what()) && report_stub(e(), err.what())) return;
                EXPECT_TRUE(message_matches(err.what(), b.expect))
                    << "message '" << err.what() << "' lacks " << b.expect;
            } catch (const std::exception& err) {
                ADD_FAILURE() << "threw a non-burn exception: " << err.what();
            }
        }
    }
}

TEST_P(OpSweep, Devices) {
    [[maybe_unused]] const cuda_test::ExactDeviceMath exact;  // compared with the CPU at f32 tolerances
    const Device cpu = Device::cpu();
    int ran = 0, unsupported = 0;
    for (const Device& d : burn::testing::sweep_devices()) {
        for (DType dt : e().dtypes) {
            if (!e().reference) continue;
            for (const Sample& s : e().samples(dt)) {
                SCOPED_TRACE(::testing::Message()
                             << e().name << " " << dt << " on " << d << " " << describe(s));
                Outcome want = run(e(), upload(s.inputs, cpu), args_for(s, dt, cpu));
                if (want.stub && report_stub(e(), want.error)) return;
                if (!want.error.empty()) continue;  // Forward reports it
                Outcome got = run(e(), upload(s.inputs, d), args_for(s, dt, d));
                if (d != cpu && got.error.find("not supported by the") != std::string::npos) {
                    ++unsupported;  // no kernel for this op/dtype on d: the frontend said so clearly
                    continue;
                }
                ++ran;
                if (!got.error.empty()) {
                    ADD_FAILURE() << "forward threw on " << d << ": " << got.error;
                    continue;
                }
                if (d == cpu) {
                    EXPECT_TRUE(got.out == want.out) << "two runs on the CPU differ";
                } else {
                    std::string diff = compare(got.out, want.out, entry_tol(e(), want.out.dtype()));
                    EXPECT_TRUE(diff.empty()) << d << " differs from the CPU: " << diff;
                }
            }
        }
    }
    if (unsupported > 0) {
        RecordProperty("unsupported_on_devices", unsupported);
        std::cout << "[  NOTE    ] " << e().name << ": " << unsupported
                  << " sample(s) not supported on an accelerator\n";
    }
    if (ran == 0) {
        GTEST_SKIP() << (unsupported ? "not supported on the accelerator device"
                                     : "no reference samples (checked by its custom check)");
    }
}

std::vector<const OpEntry*> entry_ptrs() {
    std::vector<const OpEntry*> v;
    for (const auto& e : op_db()) v.push_back(&e);
    return v;
}

std::vector<const OpEntry*> broadcasting_entries() {
    std::vector<const OpEntry*> v;
    for (const auto& e : op_db()) {
        if (!e.reference) continue;
        for (const Sample& s : e.samples(e.dtypes.front()))
            if (s.tag == Tag::broadcast) {
                v.push_back(&e);
                break;
            }
    }
    return v;
}

std::string param_name(const ::testing::TestParamInfo<const OpEntry*>& info) {
    return info.param->name;
}

INSTANTIATE_TEST_SUITE_P(OpDb, OpSweep, ::testing::ValuesIn(entry_ptrs()), param_name);
INSTANTIATE_TEST_SUITE_P(OpDb, OpSweepBroadcast, ::testing::ValuesIn(broadcasting_entries()), param_name);

// ---- the database itself

TEST(OpDbShape, EntriesAreWellFormed) {
    for (const OpEntry& e : op_db()) {
        SCOPED_TRACE(e.name);
        EXPECT_TRUE(e.forward != nullptr);
        EXPECT_FALSE(e.dtypes.empty());
        EXPECT_TRUE(e.reference || e.custom) << "needs a reference or a custom check";
        for (char c : e.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_') << e.name;
        if (!e.reference) continue;
        EXPECT_TRUE(e.samples != nullptr);
        for (DType dt : e.dtypes) EXPECT_FALSE(e.samples(dt).empty()) << "no samples for " << dt;
    }
}

// Hook for the gradcheck of the autodiff issue: a differentiable entry names valid float inputs.
TEST(OpDbShape, GradcheckHooksAreConsistent) {
    int differentiable = 0;
    for (const OpEntry& e : op_db()) {
        SCOPED_TRACE(e.name);
        if (!e.differentiable) {
            EXPECT_TRUE(e.grad_inputs.empty());
            continue;
        }
        ++differentiable;
        ASSERT_FALSE(e.grad_inputs.empty());
        DType dt = std::find(e.dtypes.begin(), e.dtypes.end(), DType::f64) != e.dtypes.end() ? DType::f64
                                                                                             : e.dtypes[0];
        // Positions past a sample's inputs are skipped (variadic ops like cat list {0, 1}).
        for (const Sample& s : e.samples(dt)) {
            int present = 0;
            for (int i : e.grad_inputs) {
                if (static_cast<std::size_t>(i) >= s.inputs.size()) continue;
                ++present;
                EXPECT_TRUE(is_float(s.inputs[static_cast<std::size_t>(i)].dtype())) << describe(s);
            }
            EXPECT_GT(present, 0) << describe(s);
        }
    }
    EXPECT_GT(differentiable, 20);
}

}  // namespace
}  // namespace burn::opdb
