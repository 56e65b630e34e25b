// Self-describing ops (burn/backend/op_attrs.hpp): the typed attribute structs and infer.
//   InferOpDb.BackendMatchesInfer   every op-database sample on a device that forwards to the CPU and
//                                   checks each call: the metas of the tensors the kernel returned equal
//                                   infer(call, input metas) and the metas the call recorded
//   OpAttrs.*                       encode/decode round trips for every row, checked mismatches
//   Infer.*                         outputs of multi-output rows, errors that name the op and the fix
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

#include "burn/backend/op_attrs.hpp"
#include "burn/backend/registry.hpp"
#include "forwarding_backend.hpp"
#include "op_db.hpp"

namespace burn::infer_test {
namespace {

using opdb::Args;
using opdb::OpEntry;
using opdb::Sample;

std::string str(const std::vector<TensorMeta>& v) {
    std::ostringstream os;
    os << "{";
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    return os.str() + "}";
}

/// The "infercheck" device: a ForwardingBackend listed only while a Checker is alive (so device loops
/// elsewhere do not pick it up) whose observe hook records every call whose outputs disagree with infer.
struct Checker {
    static bool& listed() {
        static bool l = false;
        return l;
    }
    static testing::ForwardingBackend& backend() {
        static testing::ForwardingBackend* b = [] {
            auto* f = new testing::ForwardingBackend("infercheck");  // lives for the whole process
            BackendEntry e;
            e.name = "infercheck";
            e.title = "infercheck";
            e.device_count = [] { return listed() ? 1 : 0; };
            e.backend = [](int) -> Backend& { return backend(); };
            register_backend(e);
            return f;
        }();
        return *b;
    }

    Checker() {
        listed() = true;
        testing::ForwardingBackend& b = backend();
        b.device_ = Device::of("infercheck", 0);
        b.declined = [this](const OpCall& call) { declined.insert(call.op); };
        b.observe = [this](const OpCall& call, const std::vector<TensorMeta>& in, const TensorRefs& outs) {
            seen.insert(call.op);
            std::vector<TensorMeta> got;
            for (const auto& t : outs) got.push_back({t->dtype, t->shape});
            std::vector<TensorMeta> want;
            try {
                want = infer(call, in);
            } catch (const std::exception& e) {
                failures.push_back(std::string(op_name(call.op)) + " " + str(in) + ": infer threw " +
                                   e.what());
                return;
            }
            if (got != want)
                failures.push_back(std::string(op_name(call.op)) + " " + str(in) + ": kernel " + str(got) +
                                   ", infer " + str(want));
            if (call.outputs() != want)
                failures.push_back(std::string(op_name(call.op)) + " " + str(in) + ": the call records " +
                                   str(call.outputs()) + ", infer " + str(want));
        };
    }
    ~Checker() {
        backend().observe = nullptr;
        backend().declined = nullptr;
        listed() = false;
    }
    Checker(const Checker&) = delete;
    Checker& operator=(const Checker&) = delete;

    Device device() const { return backend().device_; }

    std::set<OpId> seen;
    std::set<OpId> declined;  // rows the CPU has no kernel for in this build (they decompose)
    std::vector<std::string> failures;
};

TEST(InferOpDb, BackendMatchesInfer) {
    Checker check;
    const Device d = check.device();
    int samples = 0;
    for (const OpEntry& e : opdb::op_db()) {
        if (!e.forward || !e.samples) continue;
        for (DType dt : e.dtypes)
            for (const Sample& s : e.samples(dt)) {
                const std::size_t before = check.failures.size();
                try {
                    Args a = s.args;
                    a.dtype = dt;
                    a.device = d;
                    std::vector<TensorAny> in;
                    for (const auto& x : s.inputs) in.push_back(ops::from_data(x, d));
                    (void)ops::into_data(e.forward(in, a));
                    ++samples;
                } catch (const burn::Error&) {
                    // a sample the frontend rejects (bad on purpose): nothing reached a kernel
                }
                for (std::size_t i = before; i < check.failures.size(); ++i)
                    ADD_FAILURE() << e.name << " " << dt << " " << opdb::describe(s) << ": "
                                  << check.failures[i];
            }
    }
    // random's op-db entry has custom checks only (no forward)
    const std::size_t before_random = check.failures.size();
    for (DType dt : {DType::f32, DType::f16, DType::f64})
        for (const Distribution& dist :
             {Distribution::Uniform(-1, 2), Distribution::Normal(0, 1), Distribution::Bernoulli(0.5)})
            (void)ops::into_data(ops::random(Dims{3, 4}, dist, dt, d));
    for (std::size_t i = before_random; i < check.failures.size(); ++i)
        ADD_FAILURE() << "random: " << check.failures[i];
    std::ostringstream unreached;
    for (int i = 0; i < kNumOps; ++i)
        if (!check.seen.count(static_cast<OpId>(i)) && !check.declined.count(static_cast<OpId>(i)))
            unreached << ' ' << static_cast<OpId>(i);
    EXPECT_TRUE(unreached.str().empty()) << "rows no op-db sample reached:" << unreached.str();
    std::cout << "[  NOTE    ] " << samples << " op-db samples, " << check.seen.size()
              << " rows checked against infer; rows this build's CPU decomposes:";
    for (OpId op : check.declined)
        if (!check.seen.count(op)) std::cout << ' ' << op;
    std::cout << "\n";
}

// ---- encode/decode

/// A value of each attribute struct with every field away from its default.
attrs::None sample(std::type_identity<attrs::None>) {
    return {};
}
attrs::Scalars sample(std::type_identity<attrs::Scalars>) {
    return {0.25, -3.5};
}
attrs::LeakyRelu sample(std::type_identity<attrs::LeakyRelu>) {
    return {0.2};
}
attrs::Softplus sample(std::type_identity<attrs::Softplus>) {
    return {2, 10};
}
attrs::Clamp sample(std::type_identity<attrs::Clamp>) {
    return {-1.5, 4};
}
attrs::Powi sample(std::type_identity<attrs::Powi>) {
    return {-3};
}
attrs::Dim sample(std::type_identity<attrs::Dim>) {
    return {2};
}
attrs::ScatterReduce sample(std::type_identity<attrs::ScatterReduce>) {
    return {1, attrs::ScatterReduce::max};
}
attrs::Fill sample(std::type_identity<attrs::Fill>) {
    return {-1.5, DType::bf16, Dims{2, 0, 3}};
}
attrs::Arange sample(std::type_identity<attrs::Arange>) {
    return {3, -2, DType::i64, 7};
}
attrs::Random sample(std::type_identity<attrs::Random>) {
    return {2, 0xfedcba9876543210ull, 1ull << 40, 0.5, 2.5, DType::f16, Dims{4, 5}};
}
attrs::Cast sample(std::type_identity<attrs::Cast>) {
    return {DType::u8};
}
attrs::OutShape sample(std::type_identity<attrs::OutShape>) {
    return {Dims{2, 3, 1, 5}};
}
attrs::Permute sample(std::type_identity<attrs::Permute>) {
    return {{2, 0, 1}};
}
attrs::Slice sample(std::type_identity<attrs::Slice>) {
    return {{{0, 4, 2}, {1, 3, -1}, {2, 2, 1}}};
}
attrs::SoftmaxBackward sample(std::type_identity<attrs::SoftmaxBackward>) {
    return {1, true};
}
attrs::MaskedSoftmax sample(std::type_identity<attrs::MaskedSoftmax>) {
    return {3, -1e9};
}
attrs::Sort sample(std::type_identity<attrs::Sort>) {
    return {1, true, 4};
}
attrs::Dft sample(std::type_identity<attrs::Dft>) {
    return {true};
}
attrs::Conv sample(std::type_identity<attrs::Conv>) {
    attrs::Conv c;
    c.spatial = 3;
    c.stride = {1, 2, 3};
    c.pad_begin = {0, 1, 2};
    c.pad_end = {2, 1, 0};
    c.dilation = {3, 1, 2};
    c.groups = 4;
    c.shape = Dims{2, 8, 3, 4, 5};
    return c;
}
attrs::ConvFused sample(std::type_identity<attrs::ConvFused>) {
    attrs::ConvFused f;
    f.conv = sample(std::type_identity<attrs::Conv>{});
    f.residual = true;
    f.lo = 0;
    f.hi = 6;
    return f;
}
attrs::MaxPool2d sample(std::type_identity<attrs::MaxPool2d>) {
    return {{{2, 3}, {1, 2}, {1, 0}, {2, 1}}, Dims{1, 2, 3, 4}};
}
attrs::MaxPool2dBackward sample(std::type_identity<attrs::MaxPool2dBackward>) {
    return {attrs::PoolWindow{{3, 3}, {2, 2}, {1, 1}, {1, 1}}, Dims{2, 3, 8, 8}};
}
attrs::AvgPool2d sample(std::type_identity<attrs::AvgPool2d>) {
    return {{3, 2}, {2, 1}, {1, 0}, {2, 1}, false, Dims{1, 1, 4, 5}};
}
attrs::Interpolate sample(std::type_identity<attrs::Interpolate>) {
    return {2, true, Dims{1, 3, 7, 9}};
}
attrs::Attention sample(std::type_identity<attrs::Attention>) {
    return {true, true, 0.125};
}
attrs::LayerNorm sample(std::type_identity<attrs::LayerNorm>) {
    return {true, false, true, 1e-3};
}
attrs::LayerNormBackward sample(std::type_identity<attrs::LayerNormBackward>) {
    return {false, true, true};
}
attrs::CrossEntropy sample(std::type_identity<attrs::CrossEntropy>) {
    return {0.1};
}

template <class A>
void round_trip(OpId op, const A& a, int& checked, bool differs_from_default = true) {
    SCOPED_TRACE(::testing::Message() << op << " attrs::" << A::kName);
    EXPECT_EQ(attrs_name(op), A::kName);
    const OpCall c = make_call(op, a);
    EXPECT_TRUE(c.attrs<A>() == a) << "decode(encode(a)) != a";
    const OpCall again = make_call(op, c.attrs<A>());
    EXPECT_TRUE(again == c) << "encode(decode(call)) != call";
    EXPECT_EQ(hash_value(again), hash_value(c));
    // a different value gives a different call (lossless: no field is dropped)
    if (differs_from_default && !std::is_same_v<A, attrs::None>) {
        const OpCall def = make_call(op, A{});
        EXPECT_FALSE(def == c) << "the sample encodes like the default";
    }
    ++checked;
}

// Regression: == compared the scalars as doubles, so a call holding NaN (a fill of NaN, as a gradient
// poisoned on purpose) differed from itself, and builds with assertions threw "[fill] the frontend's
// call differs from the one infer records".
TEST(OpAttrs, CallsHoldingNaNEqualThemselves) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const OpCall c = make_call(OpId::fill, attrs::Fill{nan, DType::f32, Dims{2, 3}});
    const OpCall again = make_call(OpId::fill, attrs::Fill{nan, DType::f32, Dims{2, 3}});
    EXPECT_TRUE(again == c);
    EXPECT_EQ(hash_value(again), hash_value(c));
    EXPECT_FALSE(make_call(OpId::fill, attrs::Fill{0.0, DType::f32, Dims{2, 3}}) ==
                 make_call(OpId::fill, attrs::Fill{-0.0, DType::f32, Dims{2, 3}}));
    auto t = Tensor<2>::full({2, 3}, nan, Device::cpu());  // the frontend's own check, with assertions on
    EXPECT_TRUE(std::isnan(t.into_data().to_vec<float>()[0]));
}

TEST(OpAttrs, RoundTripEveryRow) {
    int checked = 0;
#define BURN_UNARY(name, kinds, body, vjp, domain) \
    round_trip(OpId::name, sample(std::type_identity<attrs::Scalars>{}), checked);
#define BURN_UNARY_ATTRS(name, kinds, body, vjp, domain, A) \
    round_trip(OpId::name, sample(std::type_identity<attrs::A>{}), checked);
#define BURN_UNARY_PRED(name, kinds, body, domain) \
    round_trip(OpId::name, sample(std::type_identity<attrs::Scalars>{}), checked);
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) round_trip(OpId::name, attrs::None{}, checked);
#define BURN_COMPARE(name, kinds, body, domain) round_trip(OpId::name, attrs::None{}, checked);
#define BURN_TERNARY(name, kinds, body, domain) round_trip(OpId::name, attrs::None{}, checked);
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, A)                                                      \
    static_assert(std::is_same_v<OpAttrs<OpId::name>::type, attrs::A>, "OpAttrs out of step"); \
    round_trip(OpId::name, sample(std::type_identity<attrs::A>{}), checked);
#include "burn/backend/ops.def"
    EXPECT_EQ(checked, kNumOps);
}

TEST(OpAttrs, OptionalFieldsRoundTrip) {
    int checked = 0;
    round_trip(OpId::sort, attrs::Sort{0, false, -1}, checked, false);  // no k: the whole dim
    round_trip(OpId::max_pool2d_backward, attrs::MaxPool2dBackward{std::nullopt, Dims{1, 1, 2, 2}}, checked);
    attrs::Conv c1;  // one spatial dim: 5 ints
    c1.spatial = 1;
    c1.stride = {2, 1, 1};
    c1.shape = Dims{1, 2, 3};
    round_trip(OpId::conv, c1, checked);
    EXPECT_EQ(make_call(OpId::conv, c1).ints.size(), 5u);
    EXPECT_EQ(make_call(OpId::sort, attrs::Sort{0, true, -1}).ints.size(), 2u);
    EXPECT_EQ(checked, 3);
}

TEST(OpAttrs, LegacyLayerNormWithoutRms) {
    OpCall c;
    c.op = OpId::layer_norm;
    c.ints = {1, 0};
    c.scalars[0] = 1e-5;
    const auto a = c.attrs<attrs::LayerNorm>();
    EXPECT_TRUE(a.has_gamma);
    EXPECT_FALSE(a.has_beta);
    EXPECT_FALSE(a.rms);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const burn::Error& e) {
        return e.what();
    }
    return "";
}

// Scalars is every unary row's layout: the untyped and the typed view of a parametric row agree.
TEST(OpAttrs, ParametricUnaryRowsReadAsScalarsToo) {
    EXPECT_EQ(attrs_name(OpId::clamp), "Clamp");
    EXPECT_EQ(attrs_name(OpId::leaky_relu), "LeakyRelu");
    EXPECT_EQ(attrs_name(OpId::exp), "Scalars");
    const OpCall c = make_call(OpId::clamp, attrs::Clamp{-1, 2});
    EXPECT_TRUE(c.attrs<attrs::Scalars>() == (attrs::Scalars{-1, 2}));
    EXPECT_TRUE(make_call(OpId::softplus, attrs::Scalars{2, 15}).attrs<attrs::Softplus>() ==
                (attrs::Softplus{2, 15}));
    EXPECT_EQ(make_call(OpId::powi_scalar, attrs::Scalars{5, 0}).attrs<attrs::Powi>().exponent, 5);
    // the typed struct belongs to its row only
    EXPECT_THROW((void)make_call(OpId::softplus, attrs::Clamp{0, 1}), Error);
    EXPECT_THROW((void)make_call(OpId::exp, attrs::LeakyRelu{0.1}), Error);
    // Scalars does not reach beyond the unary rows
    EXPECT_THROW((void)make_call(OpId::sum_dim, attrs::Scalars{}), Error);
}

TEST(OpAttrs, PowiRejectsAFractionalExponent) {
    const OpCall c = make_call(OpId::powi_scalar, attrs::Scalars{2.5, 0});
    const std::string msg = error_of([&] { (void)c.attrs<attrs::Powi>(); });
    EXPECT_NE(msg.find("[powi_scalar] malformed attributes: the exponent 2.5"), std::string::npos) << msg;
    // out of int32's range, and NaN: rejected, not cast (a cast would be undefined behaviour)
    EXPECT_THROW((void)make_call(OpId::powi_scalar, attrs::Scalars{1e30, 0}).attrs<attrs::Powi>(), Error);
    EXPECT_THROW((void)make_call(OpId::powi_scalar, attrs::Scalars{std::nan(""), 0}).attrs<attrs::Powi>(),
                 Error);
}

TEST(OpAttrs, MismatchNamesTheOp) {
    const OpCall c = make_call(OpId::sum_dim, attrs::Dim{1});
    std::string msg = error_of([&] { (void)c.attrs<attrs::Conv>(); });
    EXPECT_NE(msg.find("[sum_dim] takes attrs::Dim, not attrs::Conv"), std::string::npos) << msg;
    msg = error_of([&] { (void)make_call(OpId::conv, attrs::Dim{0}); });
    EXPECT_NE(msg.find("[conv] takes attrs::Conv, not attrs::Dim"), std::string::npos) << msg;
    msg = error_of([&] { (void)make_call(OpId::add, attrs::Scalars{1, 2}); });
    EXPECT_NE(msg.find("[add] takes attrs::None"), std::string::npos) << msg;

    OpCall bad;
    bad.op = OpId::sort;
    bad.ints = {1};
    msg = error_of([&] { (void)bad.attrs<attrs::Sort>(); });
    EXPECT_NE(msg.find("[sort] malformed attributes"), std::string::npos) << msg;
    bad.op = OpId::slice;
    bad.ints = {0, 1};
    msg = error_of([&] { (void)bad.attrs<attrs::Slice>(); });
    EXPECT_NE(msg.find("[slice] malformed attributes"), std::string::npos) << msg;
}

// ---- infer

TensorMeta m(DType dt, Dims s) {
    return {dt, s};
}

TEST(Infer, EveryOutputOfMultiOutputRows) {
    using V = std::vector<TensorMeta>;
    EXPECT_EQ(infer(make_call(OpId::max_dim, attrs::Dim{1}), {m(DType::f32, {2, 3})}),
              (V{m(DType::f32, {2, 1}), m(DType::i32, {2, 1})}));
    EXPECT_EQ(infer(make_call(OpId::sort, attrs::Sort{0, true, 2}), {m(DType::i64, {5, 3})}),
              (V{m(DType::i64, {2, 3}), m(DType::i32, {2, 3})}));
    EXPECT_EQ(infer(make_call(OpId::layer_norm, attrs::LayerNorm{true, true, false, 1e-5}),
                    {m(DType::f16, {2, 3, 4}), m(DType::f16, {4}), m(DType::f16, {4})}),
              (V{m(DType::f16, {2, 3, 4}), m(DType::f32, {6}), m(DType::f32, {6})}));
    EXPECT_EQ(infer(make_call(OpId::cross_entropy, attrs::CrossEntropy{0}),
                    {m(DType::bf16, {5, 3}), m(DType::i64, {5})}),
              (V{m(DType::bf16, {5}), m(DType::f32, {5})}));
    EXPECT_EQ(infer(make_call(OpId::greater, attrs::None{}), {m(DType::i8, {2}), m(DType::i8, {2})}),
              (V{m(DType::boolean, {2})}));
    EXPECT_EQ(infer(make_call(OpId::max_pool2d,
                              attrs::MaxPool2d{{{2, 2}, {2, 2}, {0, 0}, {1, 1}}, Dims{1, 2, 2, 2}}),
                    {m(DType::f32, {1, 2, 4, 4})}),
              (V{m(DType::f32, {1, 2, 2, 2}), m(DType::i32, {1, 2, 2, 2})}));

    OpCall c = make_call(OpId::min_dim, attrs::Dim{0});
    const std::vector<TensorMeta> in{m(DType::f64, {4, 2})};
    infer_call(c, in);
    EXPECT_EQ(c.dtype, DType::f64);
    EXPECT_EQ(c.shape, (Dims{1, 2}));
    EXPECT_EQ(c.outputs(), (V{m(DType::f64, {1, 2}), m(DType::i32, {1, 2})}));
    EXPECT_EQ(c.output(1), m(DType::i32, {1, 2}));
}

TEST(Infer, ErrorsNameTheOpAndTheFix) {
    struct Case {
        std::function<void()> run;
        std::string expect;
    };
    const std::vector<Case> cases = {
        {[] {
             (void)infer(make_call(OpId::matmul, attrs::None{}),
                         {m(DType::f32, {2, 3}), m(DType::f32, {4, 5})});
         },
         "[matmul] inner dims differ: lhs [2, 3] vs rhs [4, 5]"},
        {[] { (void)infer(make_call(OpId::sum_dim, attrs::Dim{0}), {m(DType::boolean, {3})}); },
         "[sum_dim] is not defined for Bool tensors, got bool [3]; convert with .int_() first"},
        {[] {
             (void)infer(make_call(OpId::sum_dim, attrs::Dim{2}), {m(DType::f32, {3, 4})});
         },
         "[sum_dim] dim 2 is out of range for a tensor of rank 2"},
        {[] {
             (void)infer(make_call(OpId::cat, attrs::Dim{0}), {m(DType::f32, {2, 3}), m(DType::f64, {2, 3})});
         },
         "[cat] dtype mismatch: tensor 0 is f32 [2, 3] but tensor 1 is f64 [2, 3]; cast them to one dtype"},
        {[] {
             (void)infer(make_call(OpId::reshape, attrs::OutShape{Dims{4, 2}}), {m(DType::f32, {2, 3})});
         },
         "[reshape] cannot reshape [2, 3] (6 elements) into [4, 2] (8 elements)"},
        {[] {
             (void)infer(make_call(OpId::add, attrs::None{}), {m(DType::f32, {2, 3}), m(DType::f32, {3, 2})});
         },
         "[add] lhs f32 [2, 3] and rhs f32 [3, 2] must have one shape; broadcast them with expand first"},
        {[] { (void)infer(make_call(OpId::exp, attrs::Scalars{}), {m(DType::i32, {2})}); },
         "[exp] needs a float tensor, got i32 [2]; convert with .float_()"},
        {[] { (void)infer(make_call(OpId::add, attrs::None{}), {m(DType::f32, {2})}); },
         "[add] takes 2 inputs, got 1"},
        {[] {
             (void)infer(make_call(OpId::layer_norm, attrs::LayerNorm{true, false, false, 1e-5}),
                         {m(DType::f32, {2, 4}), m(DType::f32, {3})});
         },
         "[layer_norm] gamma f32 [3] must be [4] (the input's last dim)"},
        {[] {
             attrs::Conv a;
             a.groups = 2;
             a.shape = Dims{1, 4, 3, 3};
             (void)infer(make_call(OpId::conv, a),
                         {m(DType::f32, {1, 3, 5, 5}), m(DType::f32, {4, 3, 3, 3})});
         },
         "[conv] input f32 [1, 3, 5, 5] does not fit weight f32 [4, 3, 3, 3] with groups = 2"},
        {[] {
             (void)infer(make_call(OpId::gather, attrs::Dim{0}),
                         {m(DType::f32, {2, 3}), m(DType::f32, {2, 3})});
         },
         "[gather] indices must be an Int tensor, got f32 [2, 3]"},
        {[] {
             (void)infer(make_call(OpId::sort, attrs::Sort{0, true, 9}), {m(DType::f32, {4})});
         },
         "[sort] k = 9 is out of range for dim 0 of size 4"},
    };
    for (const Case& c : cases) {
        const std::string msg = error_of(c.run);
        EXPECT_NE(msg.find(c.expect), std::string::npos) << "expected: " << c.expect << "\n     got: " << msg;
    }
}

TEST(Infer, FrontendRecordsEveryOutput) {
    // what a tracer sees: the call a frontend dispatched carries every output's meta
    Checker check;
    const Device d = check.device();
    std::vector<OpCall> calls;
    check.backend().observe = [&](const OpCall& call, const std::vector<TensorMeta>&, const TensorRefs&) {
        calls.push_back(call);
    };
    auto x = ops::full(Dims{2, 3}, 1.0, DType::f32, d);
    (void)ops::max_dim_with_indices(x, 1);
    ASSERT_FALSE(calls.empty());
    const OpCall& c = calls.back();
    EXPECT_EQ(c.op, OpId::max_dim);
    EXPECT_EQ(c.attrs<attrs::Dim>().dim, 1);
    EXPECT_EQ(c.outputs(), (std::vector<TensorMeta>{m(DType::f32, {2, 1}), m(DType::i32, {2, 1})}));
}

}  // namespace
}  // namespace burn::infer_test
